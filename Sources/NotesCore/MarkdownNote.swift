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
        return lines.joined(separator: "\n") + "\n" + heading(note.title) + "\n\n" + note.body + "\n"
    }

    /// The `# title` line: the title on one line (CR and LF become spaces).
    static func heading(_ title: String) -> String {
        var line = String.UnicodeScalarView("# ".unicodeScalars)
        for scalar in title.unicodeScalars { line.append(scalar == "\n" || scalar == "\r" ? " " : scalar) }
        return String(line)
    }

    /// Lines split at every LF scalar (a `Character` split would keep CRLF pairs together), with
    /// the trailing CR of each line removed when the file uses CRLF line ends.
    private struct Lines {
        var items: [String]
        let crlf: Bool

        init(_ text: String) {
            var scalars = Substring(text).unicodeScalars
            if scalars.first == "\u{FEFF}" { scalars.removeFirst() }
            items = scalars.split(separator: "\n", omittingEmptySubsequences: false).map { String($0) }
            crlf = items.first?.unicodeScalars.last == "\r"
        }

        /// Line `index` without its CR line end.
        func content(_ index: Int) -> String {
            let line = items[index]
            return crlf && line.unicodeScalars.last == "\r" ? String(line.unicodeScalars.dropLast()) : line
        }

        /// Drops the file's final line end, which render adds after the body.
        mutating func dropFinalLineEnd() {
            guard items.count > 1, items[items.count - 1].isEmpty else { return }
            items.removeLast()
            if crlf { items[items.count - 1] = content(items.count - 1) }
        }

        var text: String { items.joined(separator: "\n") }
    }

    /// Parses a file. Without front matter the note gets a new id, the first `# ` heading (or
    /// line) as its title and `fileDate` as its dates; broken front matter is an error.
    /// Files with CRLF line ends and a leading byte order mark are read too. A note whose front
    /// matter names no notebook goes to `notebook` (an import gives each subfolder its own).
    public static func parse(_ text: String, fileDate: Date = Date(), notebook defaultNotebook: String? = nil) throws
        -> Note
    {
        var lines = Lines(text)
        guard lines.content(0).trimmingCharacters(in: .whitespaces) == "---" else {
            var note = plainNote(lines, fileDate: fileDate)
            note.zone = defaultNotebook ?? Note.defaultZone
            return note
        }
        guard
            let close = (1..<lines.items.count).first(where: {
                lines.content($0).trimmingCharacters(in: .whitespaces) == "---"
            })
        else {
            throw FormatError(line: 1, message: "the front matter block has no closing ---")
        }
        var id = UUID()
        var title: String?
        var tags: [String] = []
        var favorite = false
        var notebook = defaultNotebook ?? Note.defaultZone
        var created: Date?
        var modified: Date?
        var deleted: Date?
        for index in 1..<close {
            let line = lines.content(index)
            if line.trimmingCharacters(in: .whitespaces).isEmpty || line.hasPrefix("#") { continue }
            guard let colon = line.firstIndex(of: ":") else {
                throw FormatError(line: index + 1, message: "expected `key: value`")
            }
            let key = line[..<colon].trimmingCharacters(in: .whitespaces).lowercased()
            let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            func fail(_ what: String) -> FormatError {
                FormatError(line: index + 1, message: "\(key): expected \(what)")
            }
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
        lines.items.removeSubrange(0...close)
        if let title, !lines.items.isEmpty, lines.content(0) == heading(title) {
            lines.items.removeFirst()
            if lines.items.count > 1, lines.content(0).isEmpty { lines.items.removeFirst() }
        } else if lines.items.count > 1, lines.content(0).isEmpty {
            lines.items.removeFirst()
        }
        lines.dropFinalLineEnd()
        let body = lines.text
        let createdAt = created ?? modified ?? fileDate
        return Note(
            id: id, zone: notebook, title: title ?? Note.derivedTitle(fromBody: body), body: body, tags: tags,
            isFavorite: favorite, createdAt: createdAt, modifiedAt: modified ?? createdAt, deletedAt: deleted)
    }

    private static func jsonOrPlainString(_ value: String) throws -> String? {
        // By scalar: a title starting with a combining mark joins the quote into one Character.
        if value.unicodeScalars.first == "\"" {
            return (try? JSONValue(parsing: Data(value.utf8)))?.stringValue
        }
        return value
    }

    private static func plainNote(_ file: Lines, fileDate: Date) -> Note {
        var lines = file
        var title = ""
        if lines.content(0).hasPrefix("# ") {
            title = String(lines.content(0).dropFirst(2)).trimmingCharacters(in: .whitespaces)
            lines.items.removeFirst()
            while lines.items.count > 1, lines.content(0).isEmpty { lines.items.removeFirst() }
        }
        lines.dropFinalLineEnd()
        let body = lines.text
        return Note(
            title: title.isEmpty ? Note.derivedTitle(fromBody: body) : title, body: body, createdAt: fileDate,
            modifiedAt: fileDate)
    }
}
