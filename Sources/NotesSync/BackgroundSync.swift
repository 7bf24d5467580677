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
/// local store. The shared notebooks joined here (issue 24) sync beside it, each with its own
/// engine, whether or not the cloud folder is locked, off or set up at all; the status bar
/// shows them combined (`SyncStatus.combined`).
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

    /// A shared notebook's engine, as `makeShared` makes it, with the notebook's name.
    public struct Shared: Sendable {
        public var name: String
        public var engine: SyncEngine

        public init(name: String, engine: SyncEngine) {
            self.name = name
            self.engine = engine
        }
    }

    /// Makes the engine, with the seal an unlock gave (nil: none needed); nil: no folder.
    public typealias MakeEngine = @Sendable (_ unlocked: FolderSeal?) throws -> Started?
    /// Makes the engines of the shared notebooks joined here, and says in a line each why a
    /// place cannot be synced now (shown in the status bar).
    public typealias MakeShared = @Sendable () -> (engines: [Shared], problems: [String])
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
        /// The shared notebooks' engines and their watchers of the data directory.
        var shared: [Shared] = []
        var sharedWrites: [FolderWatcher] = []
        /// The latest status of each engine, combined for the status bar.
        var primaryStatus: SyncStatus?
        var sharedStatus: [Int: SyncStatus] = [:]
        var sharedProblem: String?
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
    ///   - makeShared: the engines of the shared notebooks joined here (none by default).
    public init(
        localWrites: String, locked: Unlock? = nil,
        describe: @escaping @Sendable (any Error) -> String = CloudError.userMessage,
        lastSendWait: DispatchTimeInterval = .seconds(3), makeShared: MakeShared? = nil,
        makeEngine: @escaping MakeEngine
    ) {
        self.localWrites = localWrites
        self.lastSendWait = lastSendWait
        self.makeEngine = makeEngine
        self.describe = describe
        (status, continuation) = AsyncStream<SyncStatus>.makeStream()
        state = Mutex(State(unlock: locked))
        if locked != nil {
            publish(primary: SyncStatus(phase: .error(message: Self.lockedMessage)))
        } else {
            start(unlocked: nil)
        }
        // Reading each place's membership may wait on the network: the app starts meanwhile.
        if let makeShared { DispatchQueue.global().async { self.startShared(makeShared) } }
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
            let onThisDisk = started.cloudOnThisDisk
            Task {
                for await var status in engine.statusUpdates {
                    status.cloudOnThisDisk = onThisDisk
                    self.publish(primary: status)
                }
            }
            Task { await engine.start() }
        } catch {
            publish(primary: SyncStatus(phase: .error(message: "sync is off: \(describe(error))")))
        }
    }

    /// Starts the shared notebooks' engines, each noticing the store's writes as the cloud
    /// folder's engine does; a place that cannot be synced is said in the status bar.
    private func startShared(_ makeShared: MakeShared) {
        let (engines, problems) = makeShared()
        var running: [Shared] = []
        var watchers: [FolderWatcher] = []
        var problem = problems.first
        for shared in engines {
            do {
                watchers.append(try shared.engine.watchLocalWrites(in: localWrites))
                running.append(shared)
            } catch {
                problem = problem ?? "shared notebook “\(shared.name)”: sync is off: \(describe(error))"
            }
        }
        let stopped = state.withLock { state in
            if !state.stopped { (state.shared, state.sharedWrites, state.sharedProblem) = (running, watchers, problem) }
            return state.stopped
        }
        guard !stopped else {
            for watcher in watchers { watcher.stop() }
            return
        }
        if problem != nil { publish() }
        for (index, shared) in running.enumerated() {
            Task {
                for await status in shared.engine.statusUpdates { self.publish(shared: index, status) }
            }
            Task { await shared.engine.start() }
        }
    }

    /// Takes an engine's new status and yields the combined one.
    private func publish(primary: SyncStatus? = nil, shared index: Int? = nil, _ status: SyncStatus? = nil) {
        let combined = state.withLock { state -> SyncStatus in
            if let primary { state.primaryStatus = primary }
            if let index, let status { state.sharedStatus[index] = status }
            let shared = state.shared.indices.compactMap { index in
                state.sharedStatus[index].map { (name: state.shared[index].name, status: $0) }
            }
            var combined = SyncStatus.combined(state.primaryStatus ?? .localOnly, shared: shared)
            if let problem = state.sharedProblem, case .idle = combined.phase {
                combined.phase = .error(message: problem)
            }
            return combined
        }
        continuation.yield(combined)
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

    /// Starts a sync at once (`s`) of the cloud folder (nothing while locked or off) and of
    /// every shared notebook.
    public func syncNow() {
        let (engine, shared) = state.withLock { ($0.engine, $0.shared) }
        if let engine { Task { _ = await engine.syncNow() } }
        for other in shared { Task { _ = await other.engine.syncNow() } }
    }

    /// Stops the engine after one last send, waiting for it at most `lastSendWait`, so a note
    /// saved on quit usually reaches the cloud folder now rather than at the next start (it
    /// stays pending otherwise). Blocks the calling thread: call it off the cooperative pool.
    public func stop() {
        let (engine, watchers, shared) = state.withLock { state in
            state.stopped = true
            return (state.engine, [state.localWrites].compactMap { $0 } + state.sharedWrites, state.shared)
        }
        for watcher in watchers { watcher.stop() }
        continuation.finish()
        let engines = [engine].compactMap { $0 } + shared.map(\.engine)
        guard !engines.isEmpty else { return }
        let done = DispatchSemaphore(value: 0)
        Task {
            await withTaskGroup(of: Void.self) { group in
                for engine in engines {
                    group.addTask {
                        // A failed last send loses nothing: the changes stay queued for the next sync.
                        _ = try? await engine.sendChanges()
                        await engine.stop()
                    }
                }
            }
            done.signal()
        }
        _ = done.wait(timeout: .now() + lastSendWait)
    }
}
