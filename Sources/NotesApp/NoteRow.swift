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
    /// Character ranges of `title` that match the search (SearchHighlighter); empty outside a search.
    public var titleMatches: [Range<Int>]
    /// Character ranges of `snippet` that match the search.
    public var snippetMatches: [Range<Int>]
    /// When the note went to the trash (rows of the Trash view); nil for listed notes.
    public var deletedAt: Date?

    public init(
        id: UUID, title: String, snippet: String = "", modifiedAt: Date, isFavorite: Bool = false,
        syncState: Note.SyncState = .synced, titleMatches: [Range<Int>] = [], snippetMatches: [Range<Int>] = [],
        deletedAt: Date? = nil
    ) {
        self.id = id
        self.title = title
        self.snippet = snippet
        self.modifiedAt = modifiedAt
        self.isFavorite = isFavorite
        self.syncState = syncState
        self.titleMatches = titleMatches
        self.snippetMatches = snippetMatches
        self.deletedAt = deletedAt
    }
}
