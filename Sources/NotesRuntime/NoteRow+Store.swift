import NotesApp
import NotesStore

extension NoteRow {
    /// A list row for a store summary.
    init(_ summary: NoteSummary) {
        self.init(
            id: summary.id, title: summary.title, snippet: summary.snippet, modifiedAt: summary.modifiedAt,
            isFavorite: summary.isFavorite, syncState: summary.syncState, deletedAt: summary.deletedAt)
    }

    /// A search result row, with the match ranges to highlight.
    init(_ hit: SearchHit) {
        self.init(
            id: hit.note.id, title: hit.note.title, snippet: hit.snippet, modifiedAt: hit.note.modifiedAt,
            isFavorite: hit.note.isFavorite, syncState: hit.note.syncState, titleMatches: hit.titleMatches,
            snippetMatches: hit.snippetMatches)
    }
}
