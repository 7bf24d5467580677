import Foundation
import NotesCore
import TerminalUI

/// Everything that can happen to the app: input from the terminal and messages from workers.
public enum Action: Equatable, Sendable {
    /// A key, paste, mouse action or resize from the terminal backend.
    case input(InputEvent)
    /// The list window asked for by `Effect.loadList`.
    case rowsLoaded(ListWindow)
    /// Answer to `Effect.locateInList`: `row` is the note's row now (nil when it is not
    /// listed any more) and `window` the rows around it (or around the row asked for).
    case listLocated(id: UUID, row: Int?, window: ListWindow)
    /// Results of `Effect.search` for `query`, at most `limit` (the limit asked for: fewer
    /// means these are all); results for an older query are ignored.
    case searchResults(query: String, rows: [NoteRow], limit: Int)
    /// Answer to `Effect.loadTrash`: the first trashed notes (most recently trashed first) and
    /// how many the trash holds in all.
    case trashLoaded(rows: [NoteRow], total: Int)
    /// Answer to `Effect.loadConflicts`: the notes in conflict.
    case conflictsLoaded([NoteRow])
    case syncStatusChanged(SyncStatus)
    /// The clock moved on (relative times are redrawn).
    case tick(Date)
    case resize(Size)
    /// Answer to `Effect.createNote`: the new note's id (it opens in the editor).
    case noteCreated(UUID)
    /// Answer to `Effect.loadNote`: the whole note.
    case noteLoaded(NoteContent)
    /// Answer to `Effect.loadNote` when the note is no longer in the store (purged by the CLI,
    /// or on another device): an editor open on it keeps its text, and its next save keeps it
    /// as a new note.
    case noteGone(UUID)
    /// Answer to `Effect.loadPreview`: the note, or nil when it is no longer there.
    case previewLoaded(UUID, NoteContent?)
    /// Answer to `Effect.saveNote`: what the store holds now.
    case noteSaved(SavedNote)
    /// `Effect.saveNote` failed; the editor keeps its text and says why.
    case saveFailed(UUID, message: String)
    /// A timer from `Effect.scheduleTimer` fired.
    case timerFired(TimerID)
    /// Answer to `Effect.loadHistory`: the note's revisions, newest first.
    case historyLoaded(UUID, [HistoryEntry])
    /// Answer to `Effect.restoreRevision`.
    case revisionRestored(UUID)
    /// Answer to `Effect.loadConflict`.
    case conflictLoaded(ConflictVersions)
    /// Answer to `Effect.resolveConflict`.
    case conflictResolved(UUID)
    /// Notes changed in the store behind the app's back (sync, another process, `$EDITOR`):
    /// the runtime sends the ids it knows, or `[]` for "anything may have changed". `update`
    /// reloads the visible window and the note open in the editor.
    case storeChanged([UUID])
    /// Settings changed while the app runs (synced from another device, or set by the CLI).
    case settingsChanged(LiveSettings)
    /// The answer to `Effect.countViewChanges`: each view marked to notify, with its count.
    case viewChangesCounted([ViewNotice])
    /// Answer to `Effect.loadNotebooks` and `Effect.loadTags`: the picker opens with them.
    case pickerLoaded(PickerState.Kind, [PickerItem])
    /// Answer to `Effect.openToday` and `Effect.followLink`: select the note and open it.
    case openNote(UUID)
    /// Answer to `Effect.countTitleLinks`.
    case titleLinksCounted(noteID: UUID, oldTitle: String, newTitle: String, count: Int)
    /// Answer to `Effect.updateTitleLinks`: how many notes were rewritten.
    case titleLinksUpdated(noteID: UUID, count: Int)
    /// SIGTERM or SIGHUP: save what is unsaved, then quit.
    case terminate
    /// An effect failed; the message is for the status bar.
    case effectFailed(String)
    /// The cloud folder is encrypted and its key is not remembered: ask for the passphrase.
    case unlockNeeded
    /// The answer to `Effect.unlock`: nil when sync runs now, else why not ("wrong passphrase").
    case unlockFinished(error: String?)
    /// Answer to `Effect.openAttachment`: the program was started on it.
    case attachmentOpened(String)

    /// A plain character key, as in `.key("j")`.
    public static func key(_ character: Character) -> Action { .input(.char(character)) }
    /// A named key, as in `.key(.down)`.
    public static func key(_ key: InputEvent.Key) -> Action { .input(.key(key)) }
}
