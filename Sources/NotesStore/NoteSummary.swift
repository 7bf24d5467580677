import Foundation
import NotesCore

/// A note as a list row needs it: everything but the full body.
public struct NoteSummary: Sendable, Equatable, Identifiable {
    public var id: UUID
    public var zone: String
    public var title: String
    /// The first characters of the body (at most `NoteSummary.previewLength`).
    public var preview: String
    public var tags: [String]
    public var isFavorite: Bool
    public var createdAt: Date
    public var modifiedAt: Date
    public var deletedAt: Date?
    public var syncState: Note.SyncState
    public var bodyLength: Int

    public static let previewLength = 240

    public var idString: String { id.lowercasedString }

    /// The first non-empty line of the preview that is not the title repeated.
    public var snippet: String {
        let lines = preview.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }
        return lines.first { !$0.isEmpty && $0 != title } ?? ""
    }
}
