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

    func note() throws -> Note {
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
            id: uuid, zone: notebook ?? Note.defaultZone, title: title, body: body, tags: tags ?? [],
            isFavorite: isFavorite ?? false, createdAt: created, modifiedAt: modified, deletedAt: deleted)
    }
}

extension DecodingError {
    var shortDescription: String {
        switch self {
        case .keyNotFound(let key, _): return "missing \"\(key.stringValue)\""
        case .typeMismatch(_, let c), .valueNotFound(_, let c):
            return "\"\(c.codingPath.map(\.stringValue).joined(separator: "."))\": \(c.debugDescription)"
        case .dataCorrupted(let c): return c.debugDescription
        @unknown default: return "\(self)"
        }
    }
}
