import ArgumentParser
import Foundation
import NotesCore
import NotesStore

/// A note in JSON as export writes it or `corpus.py --jsonl` does (`notebook` optional).
struct ImportedNote: Decodable {
    var id: String
    var title: String
    var body: String
    var tags: [String]?
    var isFavorite: Bool?
    var notebook: String?
    var createdAt: String
    var modifiedAt: String?
    var deletedAt: String?

    /// The note; `notebook` when the JSON names none (the subfolder's, in a folder import).
    func note(notebook folderNotebook: String? = nil) throws -> Note {
        guard let uuid = UUID(uuidString: id) else { throw CLIError("\"id\" is not a UUID") }
        guard let created = ISODate.parse(createdAt) else { throw CLIError("\"createdAt\" is not an ISO 8601 date") }
        var modified = created
        if let modifiedAt {
            guard let m = ISODate.parse(modifiedAt) else { throw CLIError("\"modifiedAt\" is not an ISO 8601 date") }
            modified = m
        }
        var deleted: Date?
        if let deletedAt {
            guard let d = ISODate.parse(deletedAt) else { throw CLIError("\"deletedAt\" is not an ISO 8601 date") }
            deleted = d
        }
        return Note(
            id: uuid, zone: notebook ?? folderNotebook ?? Note.defaultZone, title: title, body: body, tags: tags ?? [],
            isFavorite: isFavorite ?? false, createdAt: created, modifiedAt: modified, deletedAt: deleted)
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
