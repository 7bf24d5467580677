import Foundation

/// A note as a Markdown file with a front matter block, the export and import format.
///
/// ```
/// ---
/// id: 2aa3300b-2b71-4343-a20d-672b15ad9a9d
/// title: "Groceries"
/// tags: ["home","todo"]
/// favorite: false
/// notebook: notes
/// created: 2025-10-30T10:13:21.000Z
/// modified: 2025-11-16T05:54:21.000Z
/// ---
/// # Groceries
///
/// body…
/// ```
/// Title and tags are JSON strings so any text round-trips; the `# title` heading is for
/// readers and is dropped on import. The body is followed by one newline, which import strips.
/// This is also the shape `shared/bench/corpus.py --markdown` writes.
public enum MarkdownNote {
    public struct FormatError: Error, Equatable, CustomStringConvertible {
        public var line: Int
        public var message: String
        public var description: String { "line \(line): \(message)" }
    }

    public static func render(_ note: Note) -> String {
        var lines = [
            "---",
            "id: \(note.idString)",
            "title: \(JSONValue.string(note.title).canonicalString)",
            "tags: \(JSONValue.array(note.tags.map(JSONValue.string)).canonicalString)",
            "favorite: \(note.isFavorite)",
            "notebook: \(note.zone)",
            "created: \(ISODate.string(note.createdAt))",
            "modified: \(ISODate.string(note.modifiedAt))",
        ]
        if let deletedAt = note.deletedAt { lines.append("deleted: \(ISODate.string(deletedAt))") }
        lines.append("---")
        return lines.joined(separator: "\n") + "\n# " + note.title.replacingOccurrences(of: "\n", with: " ") + "\n\n" + note.body + "\n"
    }

    /// Parses a file. Without front matter the note gets a new id, the first `# ` heading (or
    /// line) as its title and `fileDate` as its dates; broken front matter is an error.
    public static func parse(_ text: String, fileDate: Date = Date()) throws -> Note {
        var lines = text.components(separatedBy: "\n")
        guard lines.first?.trimmingCharacters(in: .whitespaces) == "---" else {
            return plainNote(text, fileDate: fileDate)
        }
        guard let close = lines.dropFirst().firstIndex(where: { $0.trimmingCharacters(in: .whitespaces) == "---" }) else {
            throw FormatError(line: 1, message: "the front matter block has no closing ---")
        }
        var id = UUID()
        var title: String?
        var tags: [String] = []
        var favorite = false
        var notebook = Note.defaultZone
        var created: Date?
        var modified: Date?
        var deleted: Date?
        for index in 1..<close {
            let line = lines[index]
            if line.trimmingCharacters(in: .whitespaces).isEmpty || line.hasPrefix("#") { continue }
            guard let colon = line.firstIndex(of: ":") else {
                throw FormatError(line: index + 1, message: "expected `key: value`")
            }
            let key = line[..<colon].trimmingCharacters(in: .whitespaces).lowercased()
            let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            func fail(_ what: String) -> FormatError { FormatError(line: index + 1, message: "\(key): expected \(what)") }
            switch key {
            case "id":
                guard let uuid = UUID(uuidString: value) else { throw fail("a UUID") }
                id = uuid
            case "title":
                title = try jsonOrPlainString(value) ?? { throw fail("a JSON string") }()
            case "tags":
                if value.hasPrefix("[") {
                    guard let parsed = try? JSONValue(parsing: Data(value.utf8)), let items = parsed.arrayValue,
                        items.allSatisfy({ $0.stringValue != nil })
                    else { throw fail("a JSON array of strings") }
                    tags = items.compactMap(\.stringValue)
                } else {
                    tags = value.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
                }
            case "favorite", "isfavorite", "pinned":
                guard let b = Bool(value.lowercased()) else { throw fail("true or false") }
                favorite = b
            case "notebook":
                notebook = value
            case "created", "createdat":
                guard let d = ISODate.parse(value) else { throw fail("an ISO 8601 date") }
                created = d
            case "modified", "modifiedat", "updated":
                guard let d = ISODate.parse(value) else { throw fail("an ISO 8601 date") }
                modified = d
            case "deleted", "deletedat":
                guard let d = ISODate.parse(value) else { throw fail("an ISO 8601 date") }
                deleted = d
            default:
                continue
            }
        }
        lines.removeSubrange(0...close)
        var body = lines.joined(separator: "\n")
        if let title, body.hasPrefix("# " + title.replacingOccurrences(of: "\n", with: " ") + "\n") {
            body.removeFirst(("# " + title.replacingOccurrences(of: "\n", with: " ") + "\n").count)
            if body.hasPrefix("\n") { body.removeFirst() }
        } else if body.hasPrefix("\n") {
            body.removeFirst()
        }
        if body.hasSuffix("\n") { body.removeLast() }
        let createdAt = created ?? modified ?? fileDate
        return Note(
            id: id, zone: notebook, title: title ?? Note.derivedTitle(fromBody: body), body: body, tags: tags,
            isFavorite: favorite, createdAt: createdAt, modifiedAt: modified ?? createdAt, deletedAt: deleted)
    }

    private static func jsonOrPlainString(_ value: String) throws -> String? {
        if value.hasPrefix("\"") {
            return (try? JSONValue(parsing: Data(value.utf8)))?.stringValue
        }
        return value
    }

    private static func plainNote(_ text: String, fileDate: Date) -> Note {
        var body = text
        var title = ""
        if let firstLine = text.split(separator: "\n", maxSplits: 1, omittingEmptySubsequences: false).first,
            firstLine.hasPrefix("# ")
        {
            title = String(firstLine.dropFirst(2)).trimmingCharacters(in: .whitespaces)
            body = String(text.dropFirst(firstLine.count))
            while body.hasPrefix("\n") { body.removeFirst() }
        }
        if body.hasSuffix("\n") { body.removeLast() }
        return Note(title: title.isEmpty ? Note.derivedTitle(fromBody: body) : title, body: body, createdAt: fileDate, modifiedAt: fileDate)
    }
}
