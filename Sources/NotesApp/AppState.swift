import Foundation
import NotesCore
import TerminalUI

/// Everything the TUI shows, as a value: `update` changes it, `view` draws it.
public struct AppState: Equatable, Sendable {
    /// The part of the list in memory: only the visible window plus a margin is loaded.
    public var listWindow = ListWindow(offset: 0, rows: [], favoriteCount: 0, totalCount: 0)
    /// The window last asked for with `Effect.loadList`, so scrolling does not ask twice.
    var requestedWindow: Range<Int>?
    /// Results for `searchText` while a search is active (nil: show the whole list), in the
    /// store's ranked order: one list, favorites where their rank puts them.
    public var searchResults: [NoteRow]?
    /// The query `searchResults` answer (a new query and a reload of the same one differ).
    var resultsQuery: String?
    /// How many results the current search asked for; grows as the selection nears the end.
    var searchLimit = 0
    /// The limit the loaded results were asked with: fewer results than that are all there are.
    var searchAnsweredLimit = 0
    /// A result past the loaded ones the selection is heading for (`G`, `PgDn`, held `j`):
    /// more are asked for, and the selection moves on as they arrive. Keys pressed before
    /// they arrive move from here, not from the last loaded row.
    var searchWanted: SearchTarget?
    /// The selected note: the selection is a note, not a row (ARCHITECTURE §6). It stays on
    /// this note while the note is listed, wherever it moves; nil while the row under
    /// `selection` is not loaded yet, or the list is empty.
    public var selectedID: UUID?
    /// Index of the selected row among all rows (favorites, then the others, or the results):
    /// derived from `selectedID` when its row is known, else where the selection waits.
    public var selection = 0
    /// First list line (section headers count as lines) drawn at the top of the list pane.
    public var scrollOffset = 0
    /// What takes the keys, with the state of the overlay that has them (`AppState+Focus.swift`).
    public var focus: Focus = .list
    /// The passphrase dialog, over whatever is focused, while it is open.
    public var unlock: UnlockPrompt?
    /// Sync waits for the passphrase of an encrypted cloud folder (`s` opens the dialog).
    public var syncLocked = false
    public var searchText = ""
    /// The search field's cursor, in characters of `searchText` (clamped to its end when read).
    var searchCursorStorage = 0
    public var searchCursor: Int {
        get { max(0, min(searchCursorStorage, searchText.count)) }
        set { searchCursorStorage = newValue }
    }
    public var syncStatus: SyncStatus = .localOnly
    /// A one-line message in the status bar, shown instead of the key hints.
    public var message: StatusMessage?
    public internal(set) var messageGeneration = 0
    /// The message's time is up and it waits for a key: a message stays its few seconds and
    /// until the person presses a key, so one that came while they looked away is still read.
    var messageAwaitsKey = false
    /// A key was pressed since the message was shown: its timer then clears it.
    var keyedSinceMessage = false
    /// The notes `d` sent to the trash, oldest first (at most `undoDepth`): each `u` brings
    /// back the last one, until the undo line expires 15 s after the last `d` or `u`.
    public var undoableTrashes: [UUID] = []
    /// How many trashings `u` can undo in a row.
    public static let undoDepth = 20
    /// The note `u` brings back next.
    public var undoableTrash: UUID? { undoableTrashes.last }
    var undoGeneration = 0
    /// The `messageGeneration` of the undo line: its expiry clears that line only, never a
    /// message shown after it (the Trash view's "Deleted … forever").
    var undoMessageGeneration = 0
    /// The selected note as the preview pane shows it (its whole body), when loaded.
    public var preview: NoteContent?
    /// The preview shows the body as written rather than rendered as Markdown (`r` toggles).
    public var previewShowsRaw = false
    /// Which of the preview's attachments `o` opens (`a` moves it).
    public var attachmentIndex = 0
    /// The saved searches marked to notify, with their changes since last shown (status bar).
    public var viewNotices: [ViewNotice] = []
    /// Which of the preview's tasks Space ticks (`[` and `]` move it).
    public var taskIndex = 0
    /// The preview follows the task cursor: `[`, `]` or Space was pressed on this note.
    var taskCursorMoved = false
    /// The note and version last asked for with `Effect.loadPreview`, so it is asked once.
    var previewRequested: PreviewKey?
    /// The store changed since the preview was loaded: another note may link to it now (its
    /// backlinks line), so it is asked for again though its own version did not move.
    var previewStale = false
    /// The note open in the editor pane, loading or loaded (`EditorSlot`).
    public var editor = EditorSlot.closed
    /// The editor's clipboard (cut, copied or killed text, LF line breaks), kept across notes.
    public var clipboard = ""
    /// What `q` (or a signal) is waiting for before the app exits.
    public var quitting: Quitting = .no
    /// The question about links to a retitled note's old title, while the status bar asks it.
    public var linkUpdate: LinkUpdatePrompt?
    /// How many `Effect.countTitleLinks` are not answered yet: quitting waits for them, so a
    /// retitle followed at once by `q` still asks.
    public var linkCountsPending = 0
    /// Display names of notebooks by zone id, as the notebook picker last loaded them: the
    /// search line shows the name of the notebook an `in:` filter keeps.
    public var notebookNames: [String: String] = [:]
    /// The clock, for relative times; advanced by `Action.tick`.
    public var now: Date
    /// The terminal size, from `Action.resize`; `update` needs it for paging and scrolling.
    public var size: Size
    /// Draw ASCII stand-ins for every non-ASCII glyph (the locale is not UTF-8).
    public var asciiOnly = false
    /// Colours by meaning (from the config's theme; all default under NO_COLOR).
    public var theme = Theme.standard
    /// How long after the last keystroke the editor saves (config `autosaveSeconds`).
    public var autosaveDelay = Duration.milliseconds(1500)
    /// The longest typed text waits for a save while the typing never pauses for
    /// `autosaveDelay` (config `autosaveMaxSeconds`): a crash loses at most this much typing.
    public var autosaveMaxWait = Duration.seconds(5)

    /// Quitting is a little protocol: unsaved text is saved first, and a failed save asks again.
    public enum Quitting: Equatable, Sendable {
        case no
        /// Quit once the save in flight is acknowledged.
        case afterSave
        /// The last save failed: the next `q` quits without saving.
        case confirmWithoutSaving
        /// Quit once the links to a retitled note are counted and, if any, the question about
        /// them is answered (`n` quits, `y` updates them first); a second quit does not wait.
        case afterLinks
        /// Quit once the links `y` asked to update are updated.
        case afterLinkUpdate
    }

    public init(now: Date, size: Size = Size(width: 80, height: 24)) {
        self.now = now
        self.size = size
    }

    /// How many rows the list has in all: search results, or the whole list in the store.
    public var rowCount: Int { searchResults?.count ?? listWindow.totalCount }

    /// How many of those rows are favorites (they come first); none in search results, which
    /// are one ranked list.
    public var favoriteCount: Int { searchResults == nil ? listWindow.favoriteCount : 0 }

    /// Row `index` (over favorites then notes) when it is loaded.
    public func row(at index: Int) -> NoteRow? {
        if let results = searchResults { return results.indices.contains(index) ? results[index] : nil }
        let i = index - listWindow.offset
        return listWindow.rows.indices.contains(i) ? listWindow.rows[i] : nil
    }

    /// The selected note's row, when loaded. While a changed list is being searched for the
    /// selected note (another note is at its old row), nothing is selected, so no key acts
    /// on the wrong note.
    public var selectedRow: NoteRow? {
        guard let row = row(at: selection) else { return nil }
        return selectedID == nil || row.id == selectedID ? row : nil
    }

    /// True when the editor pane shows the open note (else it previews the selected row).
    public var paneShowsEditor: Bool {
        guard let id = editor.noteID else { return false }
        return focus == .editor || id == selectedRow?.id
    }

    /// The loaded rows in order (the window, or the search results).
    public var rows: [NoteRow] { searchResults ?? listWindow.rows }
}

/// A status-line message and how loudly to show it (ARCHITECTURE §6: errors become state, never reach `view` raw).
public struct StatusMessage: Equatable, Sendable {
    public enum Severity: Equatable, Sendable {
        case info, warning, error
    }

    public var text: String
    public var severity: Severity

    public init(_ text: String, severity: Severity = .info) {
        self.text = text
        self.severity = severity
    }
}
