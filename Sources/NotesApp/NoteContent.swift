import Foundation
import NotesCore

/// A whole note as the editor needs it (`Action.noteLoaded`); text is raw and untrusted.
public struct NoteContent: Equatable, Sendable {
    public var id: UUID
    public var title: String
    public var body: String
    public var isFavorite: Bool
    public var modifiedAt: Date
    /// The head revision this text is; the editor's saves go on top of it.
    public var headRevision: String?
    public var syncState: Note.SyncState
    /// The note is in the trash (moved there elsewhere while the editor had it open, or shown
    /// by the Trash view).
    public var isTrashed: Bool
    /// The note's attachments (the preview lists them; `o` opens one).
    public var attachments: [Attachment]
    /// The display name of the note's notebook (the preview shows it; nil when not loaded).
    public var notebook: String?
    /// Titles of the notes that link to this one (the preview lists them).
    public var backlinks: [String]
    /// The body's task-list items (`- [ ]`, `- [x]`), read off the loop with the preview, so
    /// Space can tick one and `[` `]` move between them (issue 25, tasks across notes).
    public var tasks: [TaskItem]
    /// Who shares this note's notebook with this account read-only (issue 24): the editor shows
    /// the note read-only and says so. Nil: this account may edit it.
    public var readOnlyOwner: String?
    /// Where the preview's Markdown reader can start deep in the body (made with the preview,
    /// off the loop; nil: the preview reads from the top). Space's tick keeps it true: a box
    /// keeps its length.
    public var markdownIndex: MarkdownIndex?

    public init(
        id: UUID, title: String, body: String, isFavorite: Bool = false, modifiedAt: Date,
        headRevision: String? = nil, syncState: Note.SyncState = .synced, isTrashed: Bool = false,
        attachments: [Attachment] = [], notebook: String? = nil, backlinks: [String] = [], tasks: [TaskItem] = []
    ) {
        self.tasks = tasks
        self.notebook = notebook
        self.backlinks = backlinks
        self.id = id
        self.title = title
        self.body = body
        self.isFavorite = isFavorite
        self.modifiedAt = modifiedAt
        self.headRevision = headRevision
        self.syncState = syncState
        self.isTrashed = isTrashed
        self.attachments = attachments
    }

    /// The editor's text: the title as the first line, then the body.
    /// The line break is the body's own (CRLF when the body's first one is), so an unchanged
    /// note compares equal to what the editor gives back.
    public var editorText: String {
        guard !body.isEmpty else { return title }
        let crlf = body.first(where: { $0 == "\n" || $0 == "\r\n" }) == "\r\n"
        return title + (crlf ? "\r\n" : "\n") + body
    }

    /// Splits editor text into title (the first line) and body (everything after the first LF).
    public static func split(_ text: String) -> (title: String, body: String) {
        guard let newline = text.firstIndex(where: { $0 == "\n" || $0 == "\r\n" }) else { return (text, "") }
        return (String(text[..<newline]), String(text[text.index(after: newline)...]))
    }
}

/// What the store holds after `Effect.saveNote` (`Action.noteSaved`): the text may differ
/// from what the editor sent when the runtime merged it with a remote change.
public struct SavedNote: Equatable, Sendable {
    public var id: UUID
    public var title: String
    public var body: String
    public var headRevision: String?
    public var modifiedAt: Date
    /// True when the store's head had moved on and the text was merged with it.
    public var merged: Bool
    /// The merge kept both versions (conflict markers, or two titles): the note is flagged ⚠.
    public var conflict: Bool
    /// The note is in the trash after the save (it was trashed elsewhere, and no edit of this
    /// save brought it back).
    public var isTrashed: Bool
    /// The note the save was for, when it was no longer in the store (purged while open): the
    /// text was kept as the new note `id`.
    public var keptFrom: UUID?

    public init(
        id: UUID, title: String, body: String, headRevision: String?, modifiedAt: Date, merged: Bool = false,
        conflict: Bool = false, isTrashed: Bool = false, keptFrom: UUID? = nil
    ) {
        self.keptFrom = keptFrom
        self.id = id
        self.title = title
        self.body = body
        self.headRevision = headRevision
        self.modifiedAt = modifiedAt
        self.merged = merged
        self.conflict = conflict
        self.isTrashed = isTrashed
    }
}
