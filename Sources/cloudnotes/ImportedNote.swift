import ArgumentParser
import Crypto
import Foundation
import NotesCore
import NotesStore

/// A note in JSON as export writes it or `corpus.py --jsonl` does, and as other tools write
/// notes: only the text is required (`body`, or `content` / `text`), or a `title`. Without an `id` the note
/// gets one made from its file and text; without dates, the other date or the file's. Keys other tools
/// use are read too (`created`/`updated`/`modified`, `favorite`/`pinned`/`starred`), and the
/// notebook's display name (`notebookName`) beside its id (`notebook`); dates
/// are ISO 8601 in the forms front matter takes, or seconds (or milliseconds) since 1970.
/// Other keys are ignored.
struct ImportedNote: Decodable {
    var id: String?
    var title: String?
    var body: String
    var tags: [String]?
    var isFavorite: Bool?
    var notebook: String?
    /// The notebook's display name (`notebookName`, which JSON export writes beside `notebook`).
    var notebookName: String?
    var createdAt: Date?
    var modifiedAt: Date?
    var deletedAt: Date?
    var frontMatter: String?
    /// The attachments listed (JSON export's `attachments`); nil when the note says nothing of
    /// them, which leaves the ones it has here alone.
    var attachments: [AttachmentJSON]?

    init(
        id: String?, title: String?, body: String, tags: [String]?, isFavorite: Bool?, notebook: String?,
        notebookName: String?, createdAt: Date?, modifiedAt: Date?, deletedAt: Date?, frontMatter: String?,
        attachments: [AttachmentJSON]?
    ) {
        self.id = id
        self.title = title
        self.body = body
        self.tags = tags
        self.isFavorite = isFavorite
        self.notebook = notebook
        self.notebookName = notebookName
        self.createdAt = createdAt
        self.modifiedAt = modifiedAt
        self.deletedAt = deletedAt
        self.frontMatter = frontMatter
        self.attachments = attachments
    }

    /// The keys each field is read from, first found first (`init(from:)` and `parsed`).
    enum Names {
        static let body = ["body", "content", "text"]
        static let favorite = ["isFavorite", "favorite", "pinned", "starred"]
        static let created = ["createdAt", "created", "creationDate", "date"]
        static let modified = ["modifiedAt", "modified", "updatedAt", "updated", "lastModified"]
        static let deleted = ["deletedAt", "deleted"]
    }

    /// A date given as a number: seconds, or milliseconds when past the year 5138 as seconds;
    /// nil when not finite or past 1e15.
    static func date(seconds number: Double) -> Date? {
        guard number.isFinite, abs(number) < 1e15 else { return nil }
        return Date(timeIntervalSince1970: abs(number) >= 1e11 ? number / 1000 : number)
    }

    struct Key: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: Key.self)
        func first<T: Decodable>(_ names: [String], _ type: T.Type) throws -> T? {
            for name in names where c.contains(Key(stringValue: name)) {
                if try c.decodeNil(forKey: Key(stringValue: name)) { continue }
                return try c.decode(T.self, forKey: Key(stringValue: name))
            }
            return nil
        }
        func date(_ names: [String]) throws -> Date? {
            for name in names where c.contains(Key(stringValue: name)) {
                let key = Key(stringValue: name)
                if try c.decodeNil(forKey: key) { continue }
                // A string or a number: a failed try is "not a string", tried as a number below.
                if let text = try? c.decode(String.self, forKey: key) {
                    guard let date = FrontMatter.date(text) else { throw CLIError("\"\(name)\" is not a date") }
                    return date
                }
                guard let date = Self.date(seconds: try c.decode(Double.self, forKey: key)) else {
                    throw CLIError("\"\(name)\" is not a date")
                }
                return date
            }
            return nil
        }
        id = try first(["id"], String.self)
        title = try first(["title"], String.self)
        // A note with a title and no text (a JSON Lines line of a heading) has an empty body.
        guard let text = try first(Names.body, String.self) ?? (title == nil ? nil : "") else {
            throw DecodingError.keyNotFound(
                Key(stringValue: "body"), .init(codingPath: c.codingPath, debugDescription: "no body"))
        }
        body = text
        tags = try first(["tags"], [String].self)
        isFavorite = try first(Names.favorite, Bool.self)
        notebook = try first(["notebook"], String.self)
        notebookName = try first(["notebookName"], String.self)
        createdAt = try date(Names.created)
        modifiedAt = try date(Names.modified)
        deletedAt = try date(Names.deleted)
        frontMatter = try first(["frontMatter"], String.self)
        attachments = try first(["attachments"], [AttachmentJSON].self)
    }

    /// The note of one JSON object read by the strict parser (`JSONValue(parsing:)`), when every
    /// key `init(from:)` reads holds what it wants there: the same note the decoder gives, at a
    /// third of its cost (JSON decoding was most of reading a JSON Lines file). Nil for anything
    /// else, which the decoder then reads and names what is wrong in: text the strict parser
    /// refuses (a float anywhere, a key twice, an integer past 64 bits), a value of another
    /// type, a date that is not one, a note with attachments, a note without text.
    /// `ImportJSONLinesTests` checks that a file of random lines gives the notes its lines give
    /// as one JSON array, which the decoder reads.
    static func parsed(_ data: Data) -> ImportedNote? {
        struct Declined: Error {}
        guard let json = try? JSONValue(parsing: data), case .object(let object) = json else { return nil }
        /// The first of `names` that is there and not null, as `read` takes it; nil when none.
        func first<T>(_ names: [String], _ read: (JSONValue) -> T?) throws -> T? {
            for name in names {
                guard let value = object[name], value != .null else { continue }
                guard let taken = read(value) else { throw Declined() }
                return taken
            }
            return nil
        }
        func date(_ names: [String]) throws -> Date? {
            try first(names) { value -> Date? in
                switch value {
                case .string(let text): return FrontMatter.date(text)
                case .int(let number): return Self.date(seconds: Double(number))
                default: return nil
                }
            }
        }
        do {
            guard try first(["attachments"], { $0 }) == nil else { return nil }
            let title = try first(["title"], \.stringValue)
            guard let body = try first(Names.body, \.stringValue) ?? (title == nil ? nil : "") else {
                return nil
            }
            return ImportedNote(
                id: try first(["id"], \.stringValue), title: title, body: body,
                tags: try first(["tags"]) { value in
                    value.arrayValue.flatMap { items in
                        let tags = items.compactMap(\.stringValue)
                        return tags.count == items.count ? tags : nil
                    }
                },
                isFavorite: try first(Names.favorite, \.boolValue),
                notebook: try first(["notebook"], \.stringValue),
                notebookName: try first(["notebookName"], \.stringValue),
                createdAt: try date(Names.created), modifiedAt: try date(Names.modified),
                deletedAt: try date(Names.deleted), frontMatter: try first(["frontMatter"], \.stringValue),
                attachments: nil)
        } catch {
            return nil
        }
    }

    /// The note; `notebook` when the JSON names none (the subfolder's, in a folder import);
    /// `now` for a note that has no date at all.
    /// `fallbackID`: the id of a note that gives none (made from its source, so that importing
    /// the same file again updates it instead of adding it again); else a new one.
    func note(notebook folderNotebook: String? = nil, now: Date = Date(), fallbackID: UUID? = nil) throws -> Note {
        var uuid = fallbackID ?? UUID()
        if let id {
            guard let parsed = UUID(uuidString: id) else { throw CLIError("\"id\" is not a UUID") }
            uuid = parsed
        }
        let created = createdAt ?? modifiedAt ?? now
        return Note(
            id: uuid, zone: notebook ?? folderNotebook ?? Note.defaultZone,
            title: title ?? Note.derivedTitle(fromBody: body), body: body, tags: tags ?? [],
            isFavorite: isFavorite ?? false, createdAt: created, modifiedAt: modifiedAt ?? created,
            deletedAt: deletedAt, frontMatter: frontMatter)
    }

    /// A UUID made from `text` (SHA-256, version 5 bits): the same source note gets the same id
    /// on every import, so importing an export again updates instead of duplicating.
    static func stableID(_ text: String) -> UUID {
        var bytes = Array(SHA256.hash(data: Data(text.utf8)).prefix(16))
        bytes[6] = bytes[6] & 0x0F | 0x50
        bytes[8] = bytes[8] & 0x3F | 0x80
        return UUID(
            uuid: (
                bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7], bytes[8], bytes[9],
                bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]
            ))
    }
}

extension DecodingError {
    /// One line saying what is wrong and where: `note 3: missing "title"`.
    var shortDescription: String {
        switch self {
        case .keyNotFound(let key, let c): return Self.location(c.codingPath) + "missing \"\(key.stringValue)\""
        case .typeMismatch(_, let c), .valueNotFound(_, let c):
            return Self.location(c.codingPath.dropLast())
                + "\"\(c.codingPath.last?.stringValue ?? "")\": \(c.debugDescription)"
        case .dataCorrupted(let c): return Self.location(c.codingPath) + c.debugDescription
        @unknown default: return "\(self)"
        }
    }

    /// "note 3: " for an array index (counted from 1), "" at the top level.
    private static func location<Path: Collection<CodingKey>>(_ path: Path) -> String {
        guard let index = path.first?.intValue else { return "" }
        return "note \(index + 1): "
    }
}
