import Foundation

/// An Obsidian-style vault made from a seed, with what an import must make of it: notes in
/// folders of folders (names in several scripts), YAML front matter with lists (`tags:` as a
/// list and as a string, `aliases:` as a list), `created`/`updated` dates in the forms apps
/// write, `[[wiki links]]` (`[[Title]]`, `[[Title|shown]]`, `[[Title#heading]]`, by alias,
/// by a file name shared by files in several folders: nearest folder first, or by path), and
/// hidden files and folders and attachments that an import leaves out and counts.
public struct ObsidianVault: Sendable {
    /// One link as written, and the note it must lead to.
    public struct Link: Sendable, Equatable {
        /// What is between `[[` and `]]`.
        public var written: String
        /// Index in `notes` of the note it leads to.
        public var target: Int
        /// The form: `title`, `shown`, `heading`, `alias`, `fileName` (a shared name, resolved to
        /// the nearest folder), `path` (a shared name with its folder).
        public var form: String
    }

    public struct Note: Sendable {
        /// The file, relative to the vault.
        public var path: String
        /// The folder, relative to the vault ("" at the top).
        public var folder: String
        public var title: String
        public var tags: [String]
        public var aliases: [String]
        /// The dates the front matter gives, as `list --json` prints them (nil: none written).
        public var created: String?
        public var modified: String?
        public var links: [Link]
        /// The whole file.
        public var text: String
    }

    public var notes: [Note] = []
    /// Every folder holding notes, relative to the vault.
    public var folders: [String] = []
    /// Hidden files and folders (a hidden folder counts once), and files of other types, as
    /// the import's summary counts them.
    public var hidden = 0
    public var otherFiles = 0
    /// Hidden and other files: relative path → contents.
    var extraFiles: [String: String] = [:]

    static let tops = ["Work", "Personal", "Проекты", "日記", "Café Notes", "العمل", "हिंदी नोट्स", "🎉 Events"]
    static let middles = ["Archive", "Ideas", "Meetings"]
    static let leaves = ["Drafts", "Done"]
    static let words = [
        "Plan", "Réunion", "Über", "Crème brûlée", "Заметка", "Встреча", "会議", "メモ", "ملاحظة", "اجتماع",
        "विचार", "बैठक", "🎉 Party", "🚀 Launch", "Señal", "Zürich",
    ]
    static let tagWords = ["work", "home", "idea", "todo", "read", "travel", "q3", "draft", "ref"]
    /// Date forms as apps write them, with what the store keeps.
    static let dateForms: [(written: String, stored: String)] = [
        ("2023-04-05", "2023-04-05T00:00:00.000Z"), ("2023-04-05T09:30", "2023-04-05T09:30:00.000Z"),
        ("2023-04-05 09:30", "2023-04-05T09:30:00.000Z"), ("2023-04-05T09:30:15Z", "2023-04-05T09:30:15.000Z"),
        ("2023-04-05T11:30:15+02:00", "2023-04-05T09:30:15.000Z"), ("2023-04-05 09:30:15Z", "2023-04-05T09:30:15.000Z"),
    ]

    /// `count` notes in 80 folders (8 at the top, 3 in each, 2 in each of those): the
    /// same seed always gives the same vault.
    public init(seed: UInt64, count: Int = 1900) {
        var rng = SeededRandom(seed: seed)
        for (t, top) in Self.tops.enumerated() {
            folders.append(top)
            for (m, middle) in Self.middles.enumerated() {
                // Numbered so that no two folders' slugs meet (a Cyrillic or CJK top leaves
                // only the Latin part).
                let mid = "\(top)/\(middle) \(t * 10 + m)"
                folders.append(mid)
                for leaf in Self.leaves { folders.append("\(mid)/\(leaf) \(t * 10 + m)") }
            }
        }
        // An `Index` in the top of the vault and in every second folder: a name many files share.
        var indexFolders = [""] + folders.enumerated().filter { $0.offset % 2 == 0 }.map(\.element)
        indexFolders.sort()
        let indexSet = Set(indexFolders)
        var plain: [(folder: String, title: String)] = []
        let all = [""] + folders
        for i in 0..<(count - indexFolders.count) {
            let word = Self.words[rng.below(Self.words.count)]
            plain.append((all[i % all.count], "\(word) \(i)"))
        }
        // Layout: the Index files, then the others.
        var specs: [(folder: String, title: String, isIndex: Bool)] = indexFolders.map { ($0, "Index", true) }
        specs += plain.map { ($0.folder, $0.title, false) }
        // Aliases for about a third of the others (never a title: "aka" and a number).
        var aliasesOf: [[String]] = specs.map { _ in [] }
        for n in specs.indices where !specs[n].isIndex && rng.below(3) == 0 {
            aliasesOf[n] = (0..<(1 + rng.below(2))).map { k in
                "aka \(Self.words[rng.below(Self.words.count)]) \(n)-\(k)"
            }
        }

        for (n, spec) in specs.enumerated() {
            // Links: to random notes, each in a form that names it unambiguously from here.
            var links: [Link] = []
            for _ in 0..<rng.below(5) {
                let target = rng.below(specs.count)
                guard target != n else { continue }
                let t = specs[target]
                if t.isIndex {
                    if t.folder == spec.folder {
                        links.append(Link(written: "Index", target: target, form: "fileName"))
                    } else if t.folder.isEmpty, !indexSet.contains(spec.folder) {
                        // No Index here: the one at the top of the vault.
                        links.append(Link(written: "Index", target: target, form: "fileName"))
                    } else if !t.folder.isEmpty {
                        links.append(Link(written: "\(t.folder)/Index", target: target, form: "path"))
                    }
                    continue
                }
                switch rng.below(4) {
                case 0: links.append(Link(written: t.title, target: target, form: "title"))
                case 1: links.append(Link(written: "\(t.title)|shown \(n)", target: target, form: "shown"))
                case 2:
                    links.append(Link(written: "\(t.title)#Section \(rng.below(3))", target: target, form: "heading"))
                default:
                    if let alias = aliasesOf[target].first {
                        links.append(Link(written: alias, target: target, form: "alias"))
                    } else {
                        links.append(Link(written: t.title, target: target, form: "title"))
                    }
                }
            }
            var tags: [String] = []
            var front: [String] = []
            // Title: from the front matter, a first `# heading`, or the file name.
            let titleSource = spec.isIndex ? 2 : rng.below(3)
            if titleSource == 0 { front.append("title: \"\(spec.title)\"") }
            if rng.below(4) != 0 {
                var pool = Self.tagWords
                for _ in 0..<(1 + rng.below(3)) { tags.append(pool.remove(at: rng.below(pool.count))) }
                switch rng.below(4) {
                case 0: front.append("tags:\n" + tags.map { "  - \($0)" }.joined(separator: "\n"))
                case 1: front.append("tags: \"" + tags.map { "#" + $0 }.joined(separator: " ") + "\"")
                case 2: front.append("tags: " + tags.joined(separator: ", "))
                default: front.append("tags: [\(tags.joined(separator: ", "))]")
                }
            }
            if !aliasesOf[n].isEmpty {
                front.append("aliases:\n" + aliasesOf[n].map { "  - \"\($0)\"" }.joined(separator: "\n"))
            }
            var created: String?
            var modified: String?
            if rng.below(3) != 0 {
                let form = Self.dateForms[rng.below(Self.dateForms.count)]
                front.append("created: \(form.written)")
                created = form.stored
                let later = Self.dateForms[rng.below(Self.dateForms.count)]
                if rng.below(2) == 0 {
                    front.append("updated: " + later.written.replacingOccurrences(of: "2023-04-05", with: "2024-06-07"))
                    modified = later.stored.replacingOccurrences(of: "2023-04-05", with: "2024-06-07")
                } else {
                    modified = created
                }
            }
            if rng.below(5) == 0 { front.append("cssclasses:\n  - wide") }
            var text = front.isEmpty ? "" : "---\n" + front.joined(separator: "\n") + "\n---\n"
            if titleSource == 1 { text += "# \(spec.title)\n\n" }
            text += "Body of note \(n).\n"
            for link in links { text += "See [[\(link.written)]] here.\n" }
            let path = (spec.folder.isEmpty ? "" : spec.folder + "/") + spec.title + ".md"
            notes.append(
                Note(
                    path: path, folder: spec.folder, title: spec.title, tags: tags.sorted(), aliases: aliasesOf[n],
                    created: created, modified: modified, links: links, text: text))
        }
        // Left out: `.obsidian/` (one hidden folder), `.trash/`, `.DS_Store` files; attachments.
        extraFiles[".obsidian/app.json"] = #"{"alwaysUpdateLinks":true}"#
        extraFiles[".obsidian/workspace.json"] = "{}"
        extraFiles[".obsidian/plugins/dataview/main.js"] = "x"
        extraFiles[".trash/Old.md"] = "# Old\n"
        hidden = 2
        for folder in folders where rng.below(8) == 0 {
            extraFiles[folder + "/.DS_Store"] = "\u{0}"
            hidden += 1
        }
        extraFiles["attachments/photo.png"] = "png"
        extraFiles["attachments/scan.pdf"] = "pdf"
        otherFiles = 2
    }

    /// Writes the vault under `root`: every note, or only those `include` keeps (by index).
    public func write(to root: URL, include: (Int) -> Bool = { _ in true }) throws {
        let fm = FileManager.default
        var made: Set<String> = []
        func put(_ relative: String, _ text: String) throws {
            let url = root.appendingPathComponent(relative)
            let dir = url.deletingLastPathComponent().path
            if made.insert(dir).inserted { try fm.createDirectory(atPath: dir, withIntermediateDirectories: true) }
            try Data(text.utf8).write(to: url)
        }
        for (n, note) in notes.enumerated() where include(n) { try put(note.path, note.text) }
        for (path, text) in extraFiles.sorted(by: { $0.key < $1.key }) { try put(path, text) }
    }
}
