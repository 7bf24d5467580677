import Foundation
import TerminalUI

/// The note loaded in the editor pane: its text being edited and what the store last had.
public struct EditorState: Equatable, Sendable {
    public var noteID: UUID
    /// The text being edited, its cursor and selection.
    var textEditor: TextEditor<SafeGlyphs>
    /// The store's head revision the editor's text is based on; saves go on top of it.
    public var baseRevision: String?
    /// The text as the store last had it (loaded or saved): a save is needed when the editor's differs.
    var storedText = ""
    /// The editor's `changeCount` when the text last equalled `storedText`.
    var cleanChangeCount = 0
    /// The text of the save the runtime is running; one save per note at a time.
    var savingText: String?
    /// The note changed in the store while a save was running: look again once it is answered.
    var reloadAfterSave = false
    /// The autosave timer's generation: only the newest scheduled timer saves.
    var autosaveGeneration = 0
    /// The longest wait for a save while typing goes on (`AppState.autosaveMaxWait`).
    var saveDeadline = SaveDeadline.none
    /// The deadline timer's generation: only the newest deadline saves.
    var deadlineGeneration = 0
    /// The title links to the note were last known by (its title when loaded, or when last
    /// asked about): leaving the editor with another title offers to update those links.
    var linkTitle: String?
    /// Created by `n` in this session: left empty, it is discarded rather than kept.
    var isNew = false
    /// A save with text in it was sent: the note is the user's now, even if emptied later.
    var savedWithContent = false
    /// The note is in the trash (moved there elsewhere while open here: the CLI, sync). The
    /// editor says so for as long as it is, and `^R` restores it with the editor's text.
    public var isTrashed = false
    /// The note is no longer in the store (purged elsewhere while open here): the editor keeps
    /// its text, and the next save keeps it as a new note (`SavedNote.keptFrom`).
    public var isGone = false
    /// Why the note is shown but not edited here (moving and copying work, typing is refused
    /// with a message saying why); nil: it is edited.
    public var readOnly: ReadOnly?
    public var isReadOnly: Bool { readOnly != nil }

    /// Why a note opens read-only.
    public enum ReadOnly: Equatable, Sendable {
        /// Larger than the editor edits (`AppState.editableBytes`): `$EDITOR` (`e`) edits it.
        case tooLarge(bytes: Int)
        /// In a notebook shared with this account read-only (issue 24); `owner` names who shares it.
        case shared(owner: String)
    }

    /// Where the editor stands with the maximum wait for a save: typing that never pauses for
    /// the quiet delay is still saved at least this often (issue 22, item 1).
    enum SaveDeadline: Equatable, Sendable {
        /// Nothing typed since the last save was sent: no deadline runs.
        case none
        /// The first change since the last save started the deadline timer of this generation.
        case running(generation: Int)
        /// The deadline passed while a save was running: its answer saves again at once.
        case overdue
    }

    /// The note `opening` as the store had it (`content`), its text (`text`, the content's
    /// `editorText`) laid out for an editor of `viewport` cells.
    init(_ opening: OpeningNote, content: NoteContent, text: String, viewport: Size) {
        noteID = opening.noteID
        isNew = opening.isNew
        textEditor = TextEditor(text, measure: SafeGlyphs(), viewport: viewport)
        storedText = text
        baseRevision = content.headRevision
        linkTitle = content.title
        isTrashed = content.isTrashed
    }

    /// The editor's text (title line, then the body).
    public var text: String { textEditor.text }

    public var cursor: TextPosition { textEditor.cursor }

    /// The selected range, when something is selected (or a mark is set).
    public var selection: Range<TextPosition>? { textEditor.selection }

    /// True when the text may differ from the store's (cheap: no text comparison).
    public var hasUnsavedEdits: Bool { textEditor.changeCount != cleanChangeCount }
}
