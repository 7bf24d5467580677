import CloudFolder
import Foundation
import NotesCore
import Synchronization

/// Sync behind the app: an automatic engine over the cloud folder in force, local writes (the
/// app's and other processes') noticed through the data directory, and the engine's status for
/// the status bar, handed to the app as a `SyncClient`.
///
/// The composition root (the executable's `TUI`) says which folder and how to unlock it, as
/// closures; this type owns what happens between them, so it is tested with an in-memory folder
/// and a test clock. An encrypted folder whose key is not remembered waits, locked, for the
/// app's passphrase dialog; a failure to start shows in the status bar and the app runs on the
/// local store.
public final class BackgroundSync: Sendable {
    /// A running engine, as `makeEngine` makes it.
    public struct Started: Sendable {
        public var engine: SyncEngine
        /// The cloud folder shares the data directory's disk (`SyncStatus.cloudOnThisDisk`).
        public var cloudOnThisDisk: Bool

        public init(engine: SyncEngine, cloudOnThisDisk: Bool = false) {
            self.engine = engine
            self.cloudOnThisDisk = cloudOnThisDisk
        }
    }

    /// Makes the engine, with the seal an unlock gave (nil: none needed); nil: no folder.
    public typealias MakeEngine = @Sendable (_ unlocked: FolderSeal?) throws -> Started?
    /// Derives the folder's key from a passphrase; throws when it is wrong.
    public typealias Unlock = @Sendable (_ passphrase: String) throws -> FolderSeal

    /// The status bar says this while the folder waits for its passphrase.
    public static let lockedMessage = "sync is locked: s to type the passphrase"

    private let localWrites: String
    private let lastSendWait: DispatchTimeInterval
    private let makeEngine: MakeEngine
    private let describe: @Sendable (any Error) -> String
    private let status: AsyncStream<SyncStatus>
    private let continuation: AsyncStream<SyncStatus>.Continuation
    /// In a mutex: the dialog's unlock runs on the runtime's read queue, `stop` on the main thread.
    private let state: Mutex<State>

    private struct State {
        var engine: SyncEngine?
        var localWrites: FolderWatcher?
        /// Set while the folder waits for its passphrase.
        var unlock: Unlock?
        var stopped = false
    }

    /// Starts sync at once, or with `locked` waits for `unlock(passphrase:)`.
    ///
    /// - Parameters:
    ///   - localWrites: the data directory, watched for the store's writes.
    ///   - locked: how to unlock an encrypted folder whose key is not remembered; nil: it is not.
    ///   - describe: one sentence for an error of `makeEngine` or `locked`.
    ///   - lastSendWait: how long `stop` waits for its last send.
    public init(
        localWrites: String, locked: Unlock? = nil,
        describe: @escaping @Sendable (any Error) -> String = CloudError.userMessage,
        lastSendWait: DispatchTimeInterval = .seconds(3), makeEngine: @escaping MakeEngine
    ) {
        self.localWrites = localWrites
        self.lastSendWait = lastSendWait
        self.makeEngine = makeEngine
        self.describe = describe
        (status, continuation) = AsyncStream<SyncStatus>.makeStream()
        state = Mutex(State(unlock: locked))
        if locked != nil {
            continuation.yield(SyncStatus(phase: .error(message: Self.lockedMessage)))
        } else {
            start(unlocked: nil)
        }
    }

    /// The app's view of this sync.
    public var client: SyncClient {
        SyncClient(
            status: status, startsLocked: isLocked, syncNow: { self.syncNow() },
            unlock: { self.unlock(passphrase: $0) }, stop: { self.stop() })
    }

    /// Whether the folder waits for its passphrase.
    public var isLocked: Bool { state.withLock { $0.unlock != nil } }

    /// Starts the engine; a failure shows in the status bar.
    private func start(unlocked: FolderSeal?) {
        do {
            guard let started = try makeEngine(unlocked) else { return }
            let engine = started.engine
            // The app's saves reach sync through this watcher: without it nothing would be sent
            // until a restart, so its failure turns sync off, said in the status bar (below).
            let writes = try engine.watchLocalWrites(in: localWrites)
            let stopped = state.withLock { state in
                if !state.stopped { (state.engine, state.localWrites) = (engine, writes) }
                return state.stopped
            }
            guard !stopped else {
                writes.stop()
                return
            }
            let (continuation, onThisDisk) = (continuation, started.cloudOnThisDisk)
            Task {
                for await var status in engine.statusUpdates {
                    status.cloudOnThisDisk = onThisDisk
                    continuation.yield(status)
                }
            }
            Task { await engine.start() }
        } catch {
            continuation.yield(SyncStatus(phase: .error(message: "sync is off: \(describe(error))")))
        }
    }

    /// The dialog's passphrase: nil when it unlocked the folder and sync started, else why not.
    public func unlock(passphrase: String) -> String? {
        guard let unlock = state.withLock({ $0.unlock }) else { return nil }
        do {
            let seal = try unlock(passphrase)
            state.withLock { $0.unlock = nil }
            start(unlocked: seal)
            return nil
        } catch {
            return describe(error)
        }
    }

    /// Starts a sync at once (`s`); nothing while locked or off.
    public func syncNow() {
        guard let engine = state.withLock({ $0.engine }) else { return }
        Task { _ = await engine.syncNow() }
    }

    /// Stops the engine after one last send, waiting for it at most `lastSendWait`, so a note
    /// saved on quit usually reaches the cloud folder now rather than at the next start (it
    /// stays pending otherwise). Blocks the calling thread: call it off the cooperative pool.
    public func stop() {
        let (engine, watcher) = state.withLock { state in
            state.stopped = true
            return (state.engine, state.localWrites)
        }
        watcher?.stop()
        continuation.finish()
        guard let engine else { return }
        let done = DispatchSemaphore(value: 0)
        Task {
            // A failed last send loses nothing: the changes stay queued for the next sync.
            _ = try? await engine.sendChanges()
            await engine.stop()
            done.signal()
        }
        _ = done.wait(timeout: .now() + lastSendWait)
    }
}
