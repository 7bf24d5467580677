import Foundation

/// What the app holds of sync: the engine's status, and the few things it asks of the engine.
///
/// A value of closures, made by the composition root: `BackgroundSync.client` (NotesSync) over a
/// live engine, `localOnly` without a cloud folder, any closures in a test. So the runtime builds
/// and is tested without an engine, and the engine's wiring is tested without a terminal
/// (ARCHITECTURE §1). It lives in NotesCore, beside `SyncStatus`, because NotesRuntime, which
/// holds it, and NotesSync, which makes it, import nothing of each other.
public struct SyncClient: Sendable {
    /// The engine's status for the status bar; nil: local only (the bar says so).
    public var status: AsyncStream<SyncStatus>?
    /// The cloud folder is encrypted and its key is not remembered: the app opens with the
    /// passphrase dialog.
    public var startsLocked: Bool
    /// Starts a sync at once (`s`); nil when sync is off.
    public var syncNow: (@Sendable () -> Void)?
    /// Tries a passphrase: nil when it unlocked the folder and sync started, else why not, in one
    /// line. Nil: there is nothing to unlock here.
    public var unlock: (@Sendable (_ passphrase: String) -> String?)?
    /// Ends sync for this session, after one last bounded send (called once the app has quit).
    public var stop: @Sendable () -> Void

    public init(
        status: AsyncStream<SyncStatus>? = nil, startsLocked: Bool = false, syncNow: (@Sendable () -> Void)? = nil,
        unlock: (@Sendable (_ passphrase: String) -> String?)? = nil, stop: @escaping @Sendable () -> Void = {}
    ) {
        self.status = status
        self.startsLocked = startsLocked
        self.syncNow = syncNow
        self.unlock = unlock
        self.stop = stop
    }

    /// No cloud folder: the status bar says "local only" and `s` says sync is not set up.
    public static let localOnly = SyncClient()
}
