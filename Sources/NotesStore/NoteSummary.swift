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
    ///
    /// Line by line until one qualifies, each trimmed by `Whitespace.trimmed`: every list row of
    /// the app's first screen asks, and splitting all of the preview and trimming each line
    /// through NSString was 2.3 ms of that screen's 90 rows (release, issue 27).
    public var snippet: String {
        var rest = preview[...]
        while !rest.isEmpty {
            let end = rest.firstIndex(where: \.isNewline) ?? rest.endIndex
            let line = Whitespace.trimmed(String(rest[..<end]))
            if !line.isEmpty && line != title { return line }
            rest = end == rest.endIndex ? rest[end...] : rest[rest.index(after: end)...]
        }
        return ""
    }
}
