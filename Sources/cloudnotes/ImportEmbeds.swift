import Foundation
import NotesCore
import NotesStore

/// Files a vault's notes embed become the notes' attachments (issue 22 item 10): Obsidian's
/// `![[diagram.png]]` (found as Obsidian finds it: by path from the vault's root or the note's
/// folder, else by file name anywhere in the vault) and Markdown's `![alt](../_resources/x.png)`
/// (Joplin's export: relative to the note's file). The embed is rewritten to `![[name]]`, the
/// attachment's name, which the link index reads as an attachment, not a note.
///
/// Only files inside the imported folder are read, with no symbolic link on the way; an embed
/// that names nothing there is left as it is and counted.
struct ImportEmbeds {
    /// One embed in a body.
    struct Embed: Equatable {
        /// The embed's text in the body (`![[…]]` or `![…](…)`), as UTF-8 byte offsets.
        var range: Range<Int>
        /// The path or name it names, percent-decoded for a Markdown link.
        var target: String
        /// What follows `|` in a wiki embed (Obsidian's size), kept in the rewrite.
        var size: String?
        /// A Markdown embed's text (Joplin writes the original file name there).
        var alt: String?
        var isWiki: Bool
    }

    /// The imported folder (no trailing slash) and its files that are not notes, by lowercased
    /// file name (for Obsidian's lookup by name), each list sorted by path.
    let root: String
    let byName: [String: [String]]

    /// What embedding did over an import, for its summary.
    struct Tally {
        var attached = Set<String>()
        var missing: [String] = []
    }

    init(root: String, otherFiles: [String]) {
        self.root = root
        var byName: [String: [String]] = [:]
        for path in otherFiles.sorted() {
            byName[(path as NSString).lastPathComponent.lowercased(), default: []].append(path)
        }
        self.byName = byName
    }

    /// The embeds of `body` outside code, in order. Linear in the body.
    static func embeds(in body: String) -> [Embed] {
        let bytes = Array(body.utf8)
        var result: [Embed] = []
        var inFence = false
        var lineStart = 0
        while lineStart < bytes.count {
            var lineEnd = lineStart
            while lineEnd < bytes.count, bytes[lineEnd] != UInt8(ascii: "\n") { lineEnd += 1 }
            if FenceLine.opens(bytes, lineStart..<lineEnd) {
                inFence.toggle()
            } else if !inFence {
                scan(bytes, lineStart..<lineEnd, into: &result)
            }
            lineStart = lineEnd + 1
        }
        return result
    }

    private static func scan(_ bytes: [UInt8], _ line: Range<Int>, into result: inout [Embed]) {
        var i = line.lowerBound
        while i < line.upperBound {
            if bytes[i] == UInt8(ascii: "`") {
                var j = i + 1
                while j < line.upperBound, bytes[j] != UInt8(ascii: "`") { j += 1 }
                i = j < line.upperBound ? j + 1 : i + 1
                continue
            }
            guard bytes[i] == UInt8(ascii: "!"), i + 1 < line.upperBound, bytes[i + 1] == UInt8(ascii: "[") else {
                i += 1
                continue
            }
            if let embed = wiki(bytes, at: i, line) ?? markdown(bytes, at: i, line) {
                result.append(embed)
                i = embed.range.upperBound
            } else {
                i += 2
            }
        }
    }

    private static func text(_ bytes: [UInt8], _ range: Range<Int>) -> String {
        String(decoding: bytes[range], as: UTF8.self)
    }

    /// `![[target|size]]` (a `#heading` part is dropped) naming a file that is not a note.
    private static func wiki(_ bytes: [UInt8], at start: Int, _ line: Range<Int>) -> Embed? {
        guard start + 2 < line.upperBound, bytes[start + 2] == UInt8(ascii: "[") else { return nil }
        var j = start + 3
        while j + 1 < line.upperBound, !(bytes[j] == UInt8(ascii: "]") && bytes[j + 1] == UInt8(ascii: "]")) { j += 1 }
        guard j + 1 < line.upperBound else { return nil }
        let inner = text(bytes, (start + 3)..<j)
        let parts = inner.split(separator: "|", maxSplits: 1, omittingEmptySubsequences: false)
        let target = String(parts[0].split(separator: "#", omittingEmptySubsequences: false)[0])
            .trimmingCharacters(in: .whitespaces)
        guard isFile(target) else { return nil }
        return Embed(
            range: start..<(j + 2), target: target, size: parts.count > 1 ? String(parts[1]) : nil, alt: nil,
            isWiki: true)
    }

    /// `![alt](path)` or `![alt](<path>)` with a relative path to a file that is not a note.
    private static func markdown(_ bytes: [UInt8], at start: Int, _ line: Range<Int>) -> Embed? {
        var j = start + 2
        while j < line.upperBound, bytes[j] != UInt8(ascii: "]") { j += 1 }
        guard j + 1 < line.upperBound, bytes[j + 1] == UInt8(ascii: "(") else { return nil }
        let alt = text(bytes, (start + 2)..<j)
        var k = j + 2
        let angled = k < line.upperBound && bytes[k] == UInt8(ascii: "<")
        if angled { k += 1 }
        let destinationStart = k
        while k < line.upperBound, bytes[k] != UInt8(ascii: angled ? ">" : ")"),
            angled || bytes[k] != UInt8(ascii: " ")
        {
            k += 1
        }
        guard k < line.upperBound else { return nil }
        let destination = text(bytes, destinationStart..<k)
        var close = k
        while close < line.upperBound, bytes[close] != UInt8(ascii: ")") { close += 1 }
        guard close < line.upperBound else { return nil }
        let path = destination.removingPercentEncoding ?? destination
        guard !path.contains(":"), !path.hasPrefix("/"), isFile(path) else { return nil }
        return Embed(range: start..<(close + 1), target: path, size: nil, alt: alt, isWiki: false)
    }

    /// A path whose file name has an extension that is not a note's (`LinkParser.isFileName`).
    static func isFile(_ target: String) -> Bool { LinkParser.isFileName((target as NSString).lastPathComponent) }

    /// The file an embed in the note at `notePath` names, inside `root`; nil when there is none
    /// (or only one reached through a symbolic link, or outside the folder).
    func resolve(_ embed: Embed, notePath: String) -> String? {
        let noteFolder = (notePath as NSString).deletingLastPathComponent
        var candidates: [String] = []
        if embed.isWiki {
            candidates = [root + "/" + embed.target, noteFolder + "/" + embed.target]
            if !embed.target.contains("/") {
                candidates += byName[embed.target.lowercased()] ?? []
            } else {
                // `![[assets/x.png]]` also matches a file whose path ends so.
                let suffix = "/" + embed.target.lowercased()
                candidates += (byName[(embed.target as NSString).lastPathComponent.lowercased()] ?? [])
                    .filter { $0.lowercased().hasSuffix(suffix) }
            }
        } else {
            candidates = [noteFolder + "/" + embed.target]
        }
        return candidates.lazy.compactMap(inside).first
    }

    /// `path` normalized, when it lies inside `root` and every component after the root is a
    /// folder or (the last) a regular file, never a link.
    private func inside(_ path: String) -> String? {
        var parts: [String] = []
        for part in path.dropFirst(root.count).split(separator: "/") {
            switch part {
            case ".": continue
            case "..":
                guard !parts.isEmpty else { return nil }
                parts.removeLast()
            default: parts.append(String(part))
            }
        }
        guard path.hasPrefix(root + "/"), !parts.isEmpty else { return nil }
        var current = root
        for (index, part) in parts.enumerated() {
            current += "/" + part
            var info = stat()
            guard lstat(current, &info) == 0 else { return nil }
            let kind = info.st_mode & S_IFMT
            guard index == parts.count - 1 ? kind == S_IFREG : kind == S_IFDIR else { return nil }
        }
        return current
    }

    /// Attaches every file the notes of one Markdown file embed and rewrites the embeds to
    /// `![[name]]`. Names are the file's (a Markdown embed whose text is a name with the file's
    /// extension, as Joplin writes, gives that name); two different files of one name get
    /// ` (2)`. A note that embeds a file is no longer "says nothing about attachments": it keeps
    /// the ones it has here beside the embedded ones.
    func carry(
        _ notes: [Note], from notePath: String, _ store: NoteStore, maxBytes: Int64, dryRun: Bool,
        tally: inout Tally
    ) throws -> (notes: [Note], said: Set<UUID>) {
        var result: [Note] = []
        var said = Set<UUID>()
        for var note in notes {
            let embeds = Self.embeds(in: note.body)
            guard !embeds.isEmpty else {
                result.append(note)
                continue
            }
            var attachments = note.attachments
            if attachments.isEmpty, let existing = try store.note(note.id) { attachments = existing.attachments }
            var nameOfFile: [String: String] = [:]
            var replacements: [(Range<Int>, String)] = []
            for embed in embeds {
                // `![[photo.png]]` of a note that has that attachment (an export of ours, the
                // file in its attachment folder): nothing to find.
                if embed.isWiki, attachments.contains(where: { $0.name == embed.target }) { continue }
                guard let file = resolve(embed, notePath: notePath) else {
                    tally.missing.append(embed.target)
                    continue
                }
                if dryRun {
                    // Nothing is copied on a dry run: what would be attached is counted.
                    tally.attached.insert(file)
                    continue
                }
                let name: String
                if let known = nameOfFile[file] {
                    name = known
                } else {
                    name = try attach(file, embed, to: &attachments, store, maxBytes: maxBytes)
                    nameOfFile[file] = name
                    tally.attached.insert(file)
                }
                replacements.append((embed.range, "![[\(name)\(embed.size.map { "|" + $0 } ?? "")]]"))
            }
            guard !replacements.isEmpty else {
                result.append(note)
                continue
            }
            var bytes = Array(note.body.utf8)
            for (range, text) in replacements.reversed() { bytes.replaceSubrange(range, with: Array(text.utf8)) }
            note.body = String(decoding: bytes, as: UTF8.self)
            note.attachments = Attachment.sorted(attachments)
            said.insert(note.id)
            result.append(note)
        }
        return (result, said)
    }

    /// Adds the file's content as an attachment (unless the same content is there under a
    /// name already) and returns its name.
    private func attach(
        _ file: String, _ embed: Embed, to attachments: inout [Attachment], _ store: NoteStore, maxBytes: Int64
    ) throws -> String {
        let fileName = (file as NSString).lastPathComponent
        var base = fileName
        if let alt = embed.alt?.trimmingCharacters(in: .whitespaces), Attachment.nameProblem(alt) == nil,
            (alt as NSString).pathExtension.lowercased() == (fileName as NSString).pathExtension.lowercased()
        {
            base = alt
        }
        guard Attachment.nameProblem(base) == nil else {
            throw CLIError("embedded file \(file): its name cannot be an attachment's")
        }
        let added: Attachment
        do {
            added = try store.addAttachmentContent(
                fromFile: file, name: base, maxBytes: maxBytes, followingLinks: false)
        } catch let error as StoreError {
            throw CLIError("embedded file \(file): \(error.message)")
        }
        if let same = attachments.first(where: { $0.sha256 == added.sha256 }) { return same.name }
        var name = base
        var counter = 2
        let stem = (base as NSString).deletingPathExtension
        let ext = (base as NSString).pathExtension
        while attachments.contains(where: { $0.name == name }) {
            name = "\(stem) (\(counter))" + (ext.isEmpty ? "" : "." + ext)
            counter += 1
        }
        attachments.append(Attachment(name: name, size: added.size, sha256: added.sha256))
        return name
    }
}
