import Foundation
import NotesApp
import NotesCore

/// What the runtime runs with besides the store and the terminal.
public struct RuntimeOptions: Sendable {
    /// The editor for `e` (see `ExternalEditor.command`).
    public var editorCommand: String
    /// How often relative times ("2m") are redrawn.
    public var tickInterval: Duration
    /// How often to check for commits by other processes (`PRAGMA data_version`).
    public var externalChangeInterval: Duration
    /// Sync as the app sees it: its status, `s`, the passphrase dialog's unlock (`localOnly`:
    /// the status bar says "local only").
    public var sync: SyncClient
    /// Called after another connection committed (sync, the CLI): the settings in force now, when
    /// they differ from the last ones it gave (`LiveSettings`), else nil. Nil: settings are fixed.
    public var reloadSettings: (@Sendable () -> LiveSettings?)?
    /// Whether SIGTERM, SIGHUP and SIGINT save and quit (off in tests, which share a process).
    public var handlesSignals: Bool
    /// Draw ASCII stand-ins for ★ ✓ ↻ ⚠ and the like: the locale cannot show them.
    public var asciiOnly: Bool
    /// Colours by meaning: the config's theme, or none under NO_COLOR.
    public var theme: Theme
    /// How long after the last keystroke the editor saves (config `autosaveSeconds`).
    public var autosaveDelay = Duration.milliseconds(1500)
    /// The longest the editor waits to save while typing goes on (config `autosaveMaxSeconds`).
    public var autosaveMaxWait = Duration.seconds(5)
    /// Where timers run (autosave, undo expiry, messages, the relative-time tick, the check for
    /// other processes' commits); a test's clock in unit tests.
    public var timers: any TimerScheduler = ClockTimers()
    /// Where effects' store work runs; `ManualWorkQueues` in a test that steps the runtime.
    public var queues: any WorkQueues = DispatchWorkQueues()
    /// The wall clock for the day's note (`t`); tests fix it.
    public var now: @Sendable () -> Date = Date.init
    /// How the heads of a note are merged (SYNC-FORMAT rule 8: the sync engine's
    /// `ConflictResolver`), for a save whose note changed under the editor: the edit and the
    /// other change are merged as sync merges them, and a merge with conflict markers flags
    /// the note. Nil (tests without sync): no merge, both versions stay and the note is flagged.
    public var resolveHeads: HeadsMerge?
    public typealias HeadsMerge =
        @Sendable (_ heads: [Revision], _ history: RevisionHistory) -> (
            merged: Revision?, conflict: Bool
        )
    /// The live notes folder (`files on`), kept in step while the app runs: a step called every
    /// `notesFolderInterval` on a lane of its own, never two at once, that mirrors what changed
    /// either way (the app's saves reach their files; a file saved by another program becomes a
    /// revision, which the app shows as it shows sync's arrivals) and says what it did
    /// (`NotesFolderTick`: whether it wrote notes, a line for the status bar). Nil: no folder.
    public var notesFolder: (@Sendable () -> NotesFolderTick)?
    /// How often `notesFolder` is called.
    public var notesFolderInterval = Duration.milliseconds(250)
    /// The names devices go by (from sync's state), read when history, a conflict or a preview
    /// is loaded; nil: devices are shown by id prefix.
    public var deviceLabels: (@Sendable () -> DeviceLabels)?

    public init(
        editorCommand: String = "vi", tickInterval: Duration = .seconds(30),
        externalChangeInterval: Duration = .milliseconds(300), sync: SyncClient = .localOnly,
        handlesSignals: Bool = true, asciiOnly: Bool = false,
        theme: Theme = .standard,
        resolveHeads: HeadsMerge? = nil
    ) {
        self.editorCommand = editorCommand
        self.tickInterval = tickInterval
        self.externalChangeInterval = externalChangeInterval
        self.sync = sync
        self.handlesSignals = handlesSignals
        self.asciiOnly = asciiOnly
        self.theme = theme
        self.resolveHeads = resolveHeads
    }
}

/// What one step of the live notes folder (`RuntimeOptions.notesFolder`) tells the app.
public struct NotesFolderTick: Sendable {
    /// A line for the status bar (a failure, another process keeping the folder); nil: none.
    public var line: String?
    /// Whether the step wrote notes (files read into the store): the app shows them at once,
    /// without waiting for the store's observation, which arrives from another thread.
    public var changedNotes: Bool

    public init(line: String? = nil, changedNotes: Bool = false) {
        self.line = line
        self.changedNotes = changedNotes
    }
}
