import Foundation

/// Work `update` asks the runtime to do: plain data, so tests compare it by value.
///
/// The runtime runs the effects of one `update` call in order (a save listed before `quit`
/// finishes before the app exits) and answers each with the `Action` named in its comment.
/// Any effect that fails is answered with `Action.effectFailed(message)` unless a more
/// specific failure action is named; the message is shown in the status bar, so it must say
/// what failed in words a user understands ("cannot save “Groceries”: disk full").
public enum Effect: Equatable, Sendable {
    /// Load `limit` list rows from `offset`, counted over FAVORITES then NOTES as one list
    /// (the visible window plus a margin). -> `Action.rowsLoaded(ListWindow)`.
    case loadList(offset: Int, limit: Int)
    /// Find note `id` in FAVORITES then NOTES and load `limit` rows around it, from
    /// `ListWindow.offset(around:limit:)` of its row; when it is not listed (deleted, trashed),
    /// around row `row` instead. -> `Action.listLocated(id:, row:, window:)` (ARCHITECTURE §6:
    /// the selection is a note, not a row, so a note that moved out of the loaded window is found).
    case locateInList(id: UUID, row: Int, limit: Int)
    /// Search for `query` (ARCHITECTURE §5 syntax), best `limit` hits. -> `Action.searchResults`
    /// with rows carrying the title and snippet match ranges.
    case search(query: String, limit: Int)
    /// Load the first `limit` notes of the trash, most recently trashed first (rows with
    /// `deletedAt`), and how many it holds. -> `Action.trashLoaded(rows:, total:)`.
    case loadTrash(limit: Int)
    /// Load the notes in conflict (sync state `conflict`), newest first. -> `Action.conflictsLoaded`.
    case loadConflicts(limit: Int)
    /// Load the whole note for the editor. -> `Action.noteLoaded(NoteContent)`, or
    /// `Action.noteGone(id)` when it is no longer in the store.
    case loadNote(UUID)
    /// Load the whole note for the preview pane (the list's selected note, while no note is
    /// open there). -> `Action.previewLoaded(id, content)`, content nil when the note is gone.
    /// Asked by `AppState.requestPreview()` once the input is drained, so holding `j` loads
    /// only the note the selection settles on.
    case loadPreview(UUID)
    /// Create an empty note. -> `Action.noteCreated(id)`; `update` then opens it in the editor.
    case createNote
    /// Save the editor's text: `title` is its first line, `body` the rest (after the first LF).
    ///
    /// `baseRevision` is the head revision the editor's text started from. When the note's
    /// head is still that revision, store title and body as a new revision on top of it.
    /// When the head moved on (sync or another process changed the note meanwhile), never
    /// write this text over the other change: store it as a local revision whose parent is
    /// `baseRevision`, merged with the head (NotesCore `TextMerge` of base, this text and the
    /// head; a conflicting merge keeps both, as sync does), so nothing typed or fetched is
    /// lost. When the note is no longer in the store at all (purged while the editor had it
    /// open), the text is kept as a new note (`SavedNote.keptFrom` is `id`), never dropped.
    /// -> `Action.noteSaved(SavedNote)` with what the store now holds, or
    /// `Action.saveFailed(id, message)`; in both cases the editor keeps its text.
    case saveNote(id: UUID, title: String, body: String, baseRevision: String?)
    /// Answer `Action.timerFired(timer)` once, `after` from now. Used for the autosave debounce,
    /// status-message expiry and the trash-undo line; a timer id carries a generation, and
    /// `update` ignores a fired timer it no longer waits for, so there is no cancel.
    case scheduleTimer(TimerID, after: Duration)
    case toggleFavorite(UUID)
    /// Count, for each saved search marked to notify, the notes that started or stopped
    /// matching it or changed since it was last shown; the one whose query is `shownQuery` is
    /// shown now and starts again at 0. -> `Action.viewChangesCounted`.
    case countViewChanges(shownQuery: String?)
    /// Mark the task on body line `line` done (`[x]`) or open (`[ ]`), an ordinary edit on the
    /// note's head that syncs and merges. -> `Action.storeChanged([id])`, or
    /// `Action.effectFailed` when that line is no longer a task in the other state.
    case setTask(noteID: UUID, line: Int, done: Bool)
    /// Move the note to the trash. -> `Action.storeChanged([id])` (or effectFailed).
    case trash(UUID)
    /// Take the note back out of the trash (the undo of `trash`, and the Trash view's restore).
    /// -> `Action.storeChanged([id])`.
    case undoTrash(UUID)
    /// Delete the note for good (the Trash view, after the user answered `y`), only while it is
    /// still in the trash: a note restored meanwhile (elsewhere, by sync) is kept, and the
    /// answer is effectFailed saying so. -> `Action.storeChanged([id])`.
    case purge(UUID)
    /// Suspend the TUI (`TerminalBackend.suspend`), run `$EDITOR` on the note's text in a
    /// private temporary file, store what comes back if it changed, resume and repaint.
    /// `update` puts a `saveNote` of the pane's text before it in the same batch: read the note
    /// only once the writes asked for before are done, or `$EDITOR` opens the older text.
    /// -> `Action.storeChanged([id])`, or effectFailed with the editor's exit status.
    case openExternalEditor(UUID)
    /// Open attachment `name` (content `sha256`) of the note with `$OPENER`, else `xdg-open`,
    /// on a copy named `name` in a private temporary folder, without waiting for the program.
    /// -> `Action.attachmentOpened(name)`, or effectFailed (content not on this device yet, no
    /// opener).
    case openAttachment(noteID: UUID, name: String, sha256: String)
    /// Load the note's revisions, newest first. -> `Action.historyLoaded(id, [HistoryEntry])`.
    case loadHistory(UUID)
    /// Make revision `revision` of the note its current text (a new revision on top of the
    /// head, so history keeps everything). -> `Action.revisionRestored(id)`.
    case restoreRevision(noteID: UUID, revision: String)
    /// Load both sides of the note's conflict (and their common ancestor when there is one).
    /// -> `Action.conflictLoaded(ConflictVersions)`.
    case loadConflict(UUID)
    /// Resolve the note's conflict as the user chose. -> `Action.conflictResolved(id)`.
    case resolveConflict(UUID, ConflictResolution)
    /// Put `text` on the terminal's clipboard too (OSC 52, `TerminalBackend.setClipboard`), after
    /// the editor cut or copied it. Answers nothing.
    case setClipboard(String)
    /// Delete the note for good if it is still empty (a new note left without a word typed;
    /// nothing to undo). -> `Action.storeChanged([id])`.
    case discardIfEmpty(UUID)
    /// Load the notebooks with their note counts. -> `Action.pickerLoaded(.notebook, items)`.
    case loadNotebooks
    /// Load the tags with their note counts. -> `Action.pickerLoaded(.tag, items)`.
    case loadTags
    /// Find the day's note, creating it from the Daily template when missing (NotesStore
    /// `dailyNote`). -> `Action.openNote(id)`.
    case openToday
    /// Find the note a link names (`target`, the folder its path names, from the note `from`),
    /// as `links` resolves it. -> `Action.openNote(id)`, or effectFailed naming the target.
    case followLink(target: String, folder: String?, from: UUID)
    /// How many notes link to `oldTitle` in a way that led to note `noteID` before it was
    /// retitled `newTitle` in the editor (NotesStore `notesLinking(to:byOldTitle:)`), after the
    /// writes asked for before. -> `Action.titleLinksCounted(noteID:, oldTitle:, newTitle:, count:)`.
    case countTitleLinks(noteID: UUID, oldTitle: String, newTitle: String)
    /// Rewrite those links to the note's title now, as `rename --update-links` does (NotesStore
    /// `updateLinks(to:fromOldTitle:)`). -> `Action.titleLinksUpdated(noteID:, count:)`.
    case updateTitleLinks(noteID: UUID, oldTitle: String)
    /// Sync now (send, then fetch), whatever the debounce.
    case syncNow
    /// Unlock the encrypted cloud folder with this passphrase and start sync.
    /// -> `Action.unlockFinished(error:)`.
    case unlock(passphrase: String)
    /// Leave: restore the terminal and exit 0. Always the last effect of its batch.
    case quit
}

/// A timer `update` waits for, with a generation so a rescheduled timer makes older ones stale.
public enum TimerID: Hashable, Sendable {
    /// Save the editor's text: the debounce after the last keystroke.
    case autosave(generation: Int)
    /// Save the editor's text though the typing goes on: the maximum wait since the first
    /// change after the last save (`AppState.autosaveMaxWait`).
    case autosaveDeadline(generation: Int)
    /// Clear the status-bar message.
    case clearMessage(generation: Int)
    /// Forget the trash-undo line (`u` no longer undoes).
    case expireUndo(generation: Int)
}

/// How the user resolved a conflict in the resolver.
public enum ConflictResolution: Equatable, Sendable {
    case keepMine
    case keepTheirs
    /// Both texts, one after the other, each under its label.
    case keepBoth
    /// Text the user edited in the resolver: first line the title, the rest the body.
    case edited(title: String, body: String)
}
