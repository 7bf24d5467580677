import Foundation

/// A note as a Markdown file with a front matter block, the export and import format.
///
/// ```
/// ---
/// id: 2aa3300b-2b71-4343-a20d-672b15ad9a9d
/// title: "Groceries"
/// tags: ["home","todo"]
/// favorite: false
/// notebook: work
/// notebookName: "Work"
/// created: 2025-10-30T10:13:21.000Z
/// modified: 2025-11-16T05:54:21.000Z
/// ---
/// # Groceries
///
/// body…
/// ```
/// The front matter is YAML (`FrontMatter`); title and tags are double-quoted with escapes so
/// any text round-trips, and keys kept from an imported file (`Note.frontMatter`) follow the
/// ones above. `notebookName` is there only when the notebook's display name is not its id.
/// The `# title` heading is for readers and is dropped on import. The body is followed by one newline, which import strips.
/// This is also the shape the test corpus writes (`NotesTestSupport.Corpus`).
public enum MarkdownNote {
    public struct FormatError: Error, Equatable, CustomStringConvertible {
        public var line: Int
        public var message: String
        public var description: String { "line \(line): \(message)" }
    }

    /// One attachment as export lists it: its name, and the file that holds it in the note's
    /// attachment folder (the name itself, or a shorter one for a name too long for a file).
    public struct AttachmentFile: Sendable, Equatable {
        public var name: String
        public var file: String

        public init(name: String, file: String) {
            self.name = name
            self.file = file
        }

        /// `"name"` when the file is named so, else `{"file": …, "name": …}`.
        var json: JSONValue {
            name.utf8.elementsEqual(file.utf8)
                ? .string(name) : .object(["name": .string(name), "file": .string(file)])
        }
    }

    /// A parsed file: the note, the display name the front matter gives its notebook
    /// (`notebookName`), and the attachments it lists (nil when it lists none: the file says
    /// nothing about attachments).
    public struct Parsed: Sendable {
        public var note: Note
        public var notebookName: String?
        public var attachmentFiles: [AttachmentFile]?
        /// Whether the front matter gave the note's id (else `note.id` is a new one).
        public var idGiven = false
    }

    /// `notebookName`: the notebook's display name, written as `notebookName` when it is not the
    /// zone id, so that an import into a device without that notebook names it the same.
    /// `attachmentFiles`: the attachments written beside the file (`attachments:`), which tells
    /// an import that the folder named like the file holds them, whatever its files are called.
    public static func render(_ note: Note, notebookName: String? = nil, attachmentFiles: [AttachmentFile] = [])
        -> String
    {
        var lines = [
            "---",
            "id: \(note.idString)",
            "title: \(FrontMatter.quoted(note.title))",
            "tags: [\(note.tags.map(FrontMatter.quoted).joined(separator: ","))]",
            "favorite: \(note.isFavorite)",
            "notebook: \(plainNotebook(note.zone) ? note.zone : FrontMatter.quoted(note.zone))",
            "created: \(ISODate.string(note.createdAt))",
            "modified: \(ISODate.string(note.modifiedAt))",
        ]
        if let notebookName, notebookName != note.zone {
            lines.insert("notebookName: \(FrontMatter.quoted(notebookName))", at: 6)
        }
        if let deletedAt = note.deletedAt { lines.append("deleted: \(ISODate.string(deletedAt))") }
        if !attachmentFiles.isEmpty {
            lines.append("attachments: " + FrontMatter.flow(.array(attachmentFiles.map(\.json))))
        }
        for (key, value) in keptKeys(note) { lines.append(FrontMatter.key(key) + ": " + FrontMatter.flow(value)) }
        lines.append("---")
        return lines.joined(separator: "\n") + "\n" + heading(note.title) + "\n\n" + note.body + "\n"
    }

    /// A notebook id written without quotes reads back as the same text.
    private static func plainNotebook(_ zone: String) -> Bool {
        !zone.isEmpty && zone != "null"
            && zone.utf8.allSatisfy { (0x61...0x7A).contains($0) || (0x30...0x39).contains($0) || $0 == 0x2D }
    }

    /// The note's kept front matter keys (`Note.frontMatter`) in key order, minus any that
    /// would be read as one of the fields written above.
    static func keptKeys(_ note: Note) -> [(String, JSONValue)] {
        guard let text = note.frontMatter, let value = try? JSONValue(parsing: Data(text.utf8)),
            case .object(let object) = value
        else { return [] }
        return object.sorted { $0.key < $1.key }.filter { Key(rawValue: $0.key.lowercased()) == nil }
            .map { ($0.key, $0.value) }
    }

    /// The aliases in a note's kept front matter (`aliases:` as a list or one text), for links.
    public static func aliases(of note: Note) -> [String] {
        for (key, value) in keptKeys(note) where key.lowercased() == "aliases" || key.lowercased() == "alias" {
            switch value {
            case .string(let s): return [s]
            case .array(let items): return items.compactMap { $0.stringValue ?? $0.intValue.map(String.init) }
            default: return []
            }
        }
        return []
    }

    /// The front matter keys CloudNotes reads (lowercased), with the forms other apps write.
    enum Key: String {
        case id, title, tags, tag, favorite, notebook, created, modified, deleted, pinned, starred, updated
        case isFavorite = "isfavorite"
        case createdAt = "createdat"
        case createdUnderscore = "created_at"
        case dateCreated = "date created"
        case creationDate = "creation date"
        case modifiedAt = "modifiedat"
        case updatedAt = "updatedat"
        case updatedUnderscore = "updated_at"
        case dateModified = "date modified"
        case lastModified = "last modified"
        case deletedAt = "deletedat"
        case notebookName = "notebookname"
        case attachments
    }

    /// The `# title` line: the title on one line (CR and LF become spaces).
    static func heading(_ title: String) -> String {
        var line = String.UnicodeScalarView("# ".unicodeScalars)
        for scalar in title.unicodeScalars { line.append(scalar == "\n" || scalar == "\r" ? " " : scalar) }
        return String(line)
    }

    /// Lines split at every LF scalar (a `Character` split would keep CRLF pairs together), with
    /// the trailing CR of each line removed when the file uses CRLF line ends. Lines are
    /// dropped only from the front (the front matter, the title's heading) and the final line
    /// end from the back, so the lines left are always one stretch of the file: each is a
    /// range of it, made a string only when read, and `text` is that stretch (splitting every
    /// file into strings and joining them again was a tenth of a Markdown folder's import).
    private struct Lines {
        /// The file without a leading byte order mark.
        private let source: Substring
        /// Each line left, its LF excluded.
        private var ranges: ArraySlice<Range<String.Index>>
        let crlf: Bool

        init(_ text: String) {
            var start = text.startIndex
            if text.unicodeScalars.first == "\u{FEFF}" { start = text.unicodeScalars.index(after: start) }
            let source = text[start...]
            let utf8 = source.utf8
            // The offsets of the LF bytes (no other character's UTF-8 holds that byte).
            let feeds =
                utf8.withContiguousStorageIfAvailable { bytes -> [Int] in
                    guard let base = bytes.baseAddress else { return [] }
                    var feeds: [Int] = []
                    var offset = 0
                    while offset < bytes.count, let hit = memchr(base + offset, 0x0A, bytes.count - offset) {
                        let at = base.distance(to: hit.assumingMemoryBound(to: UInt8.self))
                        feeds.append(at)
                        offset = at + 1
                    }
                    return feeds
                } ?? utf8.indices.filter { utf8[$0] == 0x0A }.map { utf8.distance(from: utf8.startIndex, to: $0) }
            var ranges: [Range<String.Index>] = []
            ranges.reserveCapacity(feeds.count + 1)
            var lineStart = utf8.startIndex
            for offset in feeds {
                let feed = utf8.index(utf8.startIndex, offsetBy: offset)
                ranges.append(lineStart..<feed)
                lineStart = utf8.index(after: feed)
            }
            ranges.append(lineStart..<utf8.endIndex)
            self.source = source
            self.ranges = ranges[...]
            crlf = source.utf8[ranges[0]].last == 0x0D
        }

        var count: Int { ranges.count }
        var isEmpty: Bool { ranges.isEmpty }

        /// Line `index` (of those left) without its CR line end.
        func content(_ index: Int) -> String { String(source[withoutCR(ranges[ranges.startIndex + index])]) }

        private func withoutCR(_ range: Range<String.Index>) -> Range<String.Index> {
            guard crlf, source.utf8[range].last == 0x0D else { return range }
            return range.lowerBound..<source.utf8.index(before: range.upperBound)
        }

        mutating func removeFirst(_ count: Int = 1) { ranges.removeFirst(count) }

        /// Drops the file's final line end, which render adds after the body.
        mutating func dropFinalLineEnd() {
            guard ranges.count > 1, let last = ranges.last, last.isEmpty else { return }
            ranges.removeLast()
            ranges[ranges.endIndex - 1] = withoutCR(ranges[ranges.endIndex - 1])
        }

        /// Lines `lines` (of those left, not empty) without their CRs, joined by LF.
        func joined(_ lines: Range<Int>) -> String {
            guard crlf else {
                let first = ranges[ranges.startIndex + lines.lowerBound]
                let last = ranges[ranges.startIndex + lines.upperBound - 1]
                return String(source[first.lowerBound..<last.upperBound])
            }
            return lines.map(content).joined(separator: "\n")
        }

        /// The lines left, joined by LF.
        var text: String {
            guard let first = ranges.first, let last = ranges.last else { return "" }
            return String(source[first.lowerBound..<last.upperBound])
        }
    }

    /// A file's name without its extension, as `URL(fileURLWithPath:)
    /// .deletingPathExtension().lastPathComponent` gives it (the title of a note whose file gives
    /// none): by the path's bytes for the names an import reads (`.md`, `.markdown`, `.txt`), as
    /// `URL` parsing the whole path was a twentieth of a Markdown folder's import; by `URL`
    /// otherwise. `ImportShortcutsTests` checks the two against each other.
    public static func fileStem(of path: String) -> String {
        let utf8 = path.utf8
        let name = utf8.lastIndex(of: 0x2F).map { utf8.index(after: $0) } ?? utf8.startIndex
        if let dot = utf8[name...].lastIndex(of: 0x2E), dot != name, utf8[name] != 0x2E,
            ["md", "markdown", "txt"].contains(path[utf8.index(after: dot)...].lowercased())
        {
            return String(path[name..<dot])
        }
        return URL(fileURLWithPath: path).deletingPathExtension().lastPathComponent
    }

    /// Parses a file. Without front matter the note gets a new id, the first `# ` heading as its
    /// title (else `fileName`, else its first line) and `fileDate` as its dates; front matter
    /// is YAML (`FrontMatter`), and broken front matter is an error naming its line. Keys that
    /// CloudNotes does not read are kept in `frontMatter`. Files with CRLF line ends and a
    /// leading byte order mark are read too. A note whose front matter names no notebook goes
    /// to `notebook` (an import gives each subfolder its own).
    public static func parse(
        _ text: String, fileDate: Date = Date(), notebook defaultNotebook: String? = nil, fileName: String? = nil
    ) throws -> Note {
        try parseWithNotebookName(text, fileDate: fileDate, notebook: defaultNotebook, fileName: fileName).note
    }

    /// `parse`, and the display name the front matter gives the note's notebook (`notebookName`,
    /// which export writes), nil when it gives none.
    public static func parseWithNotebookName(
        _ text: String, fileDate: Date = Date(), notebook defaultNotebook: String? = nil, fileName: String? = nil
    ) throws -> (note: Note, notebookName: String?) {
        let parsed = try parseFile(text, fileDate: fileDate, notebook: defaultNotebook, fileName: fileName)
        return (parsed.note, parsed.notebookName)
    }

    /// `parse`, with what else the front matter says: the notebook's display name and the
    /// attachments listed (`attachments:`, read in files CloudNotes wrote, those with an `id`;
    /// elsewhere the key is kept like any other).
    public static func parseFile(
        _ text: String, fileDate: Date = Date(), notebook defaultNotebook: String? = nil, fileName: String? = nil
    ) throws -> Parsed {
        var lines = Lines(text)
        guard Whitespace.trimmed(lines.content(0)) == "---" else {
            var note = plainNote(lines, fileDate: fileDate, fileName: fileName)
            note.zone = defaultNotebook ?? Note.defaultZone
            return Parsed(note: withFileNameAlias(note, fileName: fileName), notebookName: nil, attachmentFiles: nil)
        }
        guard
            let close = (1..<lines.count).first(where: {
                Whitespace.trimmed(lines.content($0)) == "---"
            })
        else {
            throw FormatError(line: 1, message: "the front matter block has no closing ---")
        }
        let entries: [FrontMatter.Entry]
        do {
            entries = try FrontMatter.entries(
                close > 1 ? lines.joined(1..<close) : "", firstLine: 2)
        } catch let failure as FrontMatter.Failure {
            throw FormatError(line: failure.line, message: failure.message)
        }
        var id = UUID()
        var title: String?
        var tags: [String] = []
        var favorite = false
        var notebook = defaultNotebook ?? Note.defaultZone
        var notebookName: String?
        var created: Date?
        var modified: Date?
        var deleted: Date?
        var kept: [String: JSONValue] = [:]
        var attachmentFiles: [AttachmentFile]?
        // Tags are kept verbatim in files CloudNotes wrote (they carry an `id`); elsewhere a
        // leading `#` is the tag mark other apps write, not part of the tag.
        let ours = entries.contains { $0.key == "id" }
        for entry in entries {
            func fail(_ what: String) -> FormatError {
                FormatError(line: entry.line, message: "\(entry.key): expected \(what)")
            }
            func date() throws -> Date? {
                guard entry.value != .null else { return nil }
                guard let text = entry.text, let date = FrontMatter.date(text) else { throw fail("a date") }
                return date
            }
            guard let key = Key(rawValue: entry.key.lowercased()) else {
                kept[entry.key] = entry.value
                continue
            }
            switch key {
            case .id:
                guard let text = entry.text, let uuid = UUID(uuidString: text) else { throw fail("a UUID") }
                id = uuid
            case .title:
                guard entry.value != .null else { continue }
                guard let text = entry.text else { throw fail("text") }
                title = text
            case .tags, .tag:
                guard let list = tagList(entry.value, dropMarks: !ours) else { throw fail("a list of tags or text") }
                tags += list
            case .favorite, .isFavorite, .pinned, .starred:
                switch entry.value {
                case .bool(let b): favorite = b
                case .null: favorite = false
                default:
                    guard let b = Bool(entry.text?.lowercased() ?? "") else { throw fail("true or false") }
                    favorite = b
                }
            case .notebook:
                guard entry.value != .null else { continue }
                guard let text = entry.text else { throw fail("text") }
                notebook = text
            case .notebookName:
                guard entry.value != .null else { continue }
                guard let text = entry.text else { throw fail("text") }
                notebookName = text
            case .created, .createdAt, .createdUnderscore, .dateCreated, .creationDate:
                created = try date() ?? created
            case .modified, .modifiedAt, .updated, .updatedAt, .updatedUnderscore, .dateModified, .lastModified:
                modified = try date() ?? modified
            case .deleted, .deletedAt:
                deleted = try date() ?? deleted
            case .attachments:
                guard ours else {
                    kept[entry.key] = entry.value
                    continue
                }
                guard let listed = attachmentList(entry.value) else {
                    throw fail("a list of attachment names or {name, file} maps")
                }
                attachmentFiles = listed
            }
        }
        lines.removeFirst(close + 1)
        func dropBlank() { if lines.count > 1, lines.content(0).isEmpty { lines.removeFirst() } }
        if let title {
            if !lines.isEmpty, lines.content(0) == heading(title) {
                lines.removeFirst()
                dropBlank()
            } else if lines.count > 2, lines.content(0).isEmpty, lines.content(1) == heading(title) {
                // Joplin writes a blank line, then the title as a heading.
                lines.removeFirst(2)
                dropBlank()
            } else {
                dropBlank()
            }
        } else {
            dropBlank()
            if !lines.isEmpty, lines.content(0).hasPrefix("# ") {
                title = String(lines.content(0).dropFirst(2)).trimmingCharacters(in: .whitespaces)
                lines.removeFirst()
                while lines.count > 1, lines.content(0).isEmpty { lines.removeFirst() }
            }
        }
        lines.dropFinalLineEnd()
        let body = lines.text
        let createdAt = created ?? modified ?? fileDate
        let note = Note(
            id: id, zone: notebook, title: title ?? fileName ?? Note.derivedTitle(fromBody: body), body: body,
            tags: tags, isFavorite: favorite, createdAt: createdAt, modifiedAt: modified ?? createdAt,
            deletedAt: deleted, frontMatter: kept.isEmpty ? nil : JSONValue.object(kept).canonicalString)
        // A file CloudNotes wrote is named after its title (made safe): its name is no alias.
        return Parsed(
            note: ours ? note : withFileNameAlias(note, fileName: fileName), notebookName: notebookName,
            attachmentFiles: attachmentFiles, idGiven: ours)
    }

    /// An `attachments:` list as export writes it: names, or `{name, file}` maps; nil when it is
    /// not one (or a name or file could not name an attachment).
    static func attachmentList(_ value: JSONValue) -> [AttachmentFile]? {
        guard case .array(let items) = value else { return nil }
        var out: [AttachmentFile] = []
        for item in items {
            let listed: AttachmentFile
            switch item {
            case .string(let name): listed = AttachmentFile(name: name, file: name)
            case .object(let object):
                guard let name = object["name"]?.stringValue, let file = object["file"]?.stringValue else { return nil }
                listed = AttachmentFile(name: name, file: file)
            default: return nil
            }
            guard Attachment.nameProblem(listed.name) == nil, Attachment.nameProblem(listed.file) == nil else {
                return nil
            }
            out.append(listed)
        }
        return out
    }

    /// Other apps link to a note by its file name (Obsidian's `[[zk-001]]`, a Markdown link to
    /// `zk-001.md`), which is not kept once the note has a title of its own: a file name that is
    /// neither the title nor already an alias (folded) is added to the note's `aliases`, by which
    /// links resolve, and which export writes back (so the exported files' links still resolve
    /// in those apps too).
    static func withFileNameAlias(_ note: Note, fileName: String?) -> Note {
        guard let fileName, !fileName.isEmpty else { return note }
        let key = TextFolding.fold(fileName)
        guard !key.isEmpty, key != TextFolding.fold(note.title), !aliases(of: note).map(TextFolding.fold).contains(key)
        else { return note }
        var kept: [String: JSONValue] = [:]
        // Kept front matter is written by us as a JSON object; anything else keeps nothing extra.
        if let text = note.frontMatter, case .object(let object)? = try? JSONValue(parsing: Data(text.utf8)) {
            kept = object
        }
        let name = kept.keys.sorted().first { $0.lowercased() == "aliases" || $0.lowercased() == "alias" } ?? "aliases"
        switch kept[name] {
        case .array(let items)?: kept[name] = .array(items + [.string(fileName)])
        case .string(let s)?: kept[name] = .array([.string(s), .string(fileName)])
        case nil, .null?: kept[name] = .array([.string(fileName)])
        default: return note  // a value no app writes: kept as it is
        }
        var note = note
        note.frontMatter = JSONValue.object(kept).canonicalString
        return note
    }

    /// Tags as a list or as text (`a, b` or `a b`), with `dropMarks` each without a leading
    /// `#`; nil for a map.
    static func tagList(_ value: JSONValue, dropMarks: Bool) -> [String]? {
        func clean(_ tag: String) -> String {
            guard dropMarks else { return tag }
            var tag = tag.trimmingCharacters(in: .whitespaces)
            while tag.hasPrefix("#") { tag.removeFirst() }
            return tag
        }
        switch value {
        case .null: return []
        case .string(let s):
            let parts = s.contains(",") ? s.split(separator: ",") : s.split(whereSeparator: \.isWhitespace)
            return parts.map { clean(String($0)) }
        case .int(let i): return [String(i)]
        case .bool(let b): return [String(b)]
        case .array(let items):
            var tags: [String] = []
            for item in items {
                switch item {
                case .string(let s): tags.append(clean(s))
                case .int(let i): tags.append(String(i))
                case .bool(let b): tags.append(String(b))
                case .null: continue
                default: return nil
                }
            }
            return tags
        case .object: return nil
        }
    }

    private static func plainNote(_ file: Lines, fileDate: Date, fileName: String?) -> Note {
        var lines = file
        var title = ""
        if lines.content(0).hasPrefix("# ") {
            title = String(lines.content(0).dropFirst(2)).trimmingCharacters(in: .whitespaces)
            lines.removeFirst()
            while lines.count > 1, lines.content(0).isEmpty { lines.removeFirst() }
        }
        lines.dropFinalLineEnd()
        let body = lines.text
        return Note(
            title: title.isEmpty ? fileName ?? Note.derivedTitle(fromBody: body) : title, body: body,
            createdAt: fileDate,
            modifiedAt: fileDate)
    }
}
