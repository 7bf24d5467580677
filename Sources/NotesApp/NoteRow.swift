import Foundation
import NotesCore

/// One note as the list pane shows it: what a list query returns, not the whole note.
///
/// Rows arrive through `Action.rowsLoaded` and `Action.searchResults`; text in them is raw
/// (untrusted) and is sanitized only when drawn.
public struct NoteRow: Equatable, Sendable, Identifiable {
    public var id: UUID
    public var title: String
    /// A one-line excerpt of the body.
    public var snippet: String
    public var modifiedAt: Date
    public var isFavorite: Bool
    public var syncState: Note.SyncState

    public init(
        id: UUID, title: String, snippet: String = "", modifiedAt: Date, isFavorite: Bool = false,
        syncState: Note.SyncState = .synced
    ) {
        self.id = id
        self.title = title
        self.snippet = snippet
        self.modifiedAt = modifiedAt
        self.isFavorite = isFavorite
        self.syncState = syncState
    }
}
