import CloudFolder
import Foundation
import Logging
import NotesCore
import NotesStore
import NotesSync

/// Wires a sync engine for a command: which cloud folder, which store, which options.
enum SyncSetup {
    /// The cloud folder in force: the one `sync init` bound this data directory to, else the
    /// config's (nil: local only).
    static func folderPath(_ context: Context, _ store: NoteStore) throws -> String? {
        try store.boundCloudFolder() ?? context.config.cloudFolder
    }

    /// Refuses a data directory inside the cloud folder.
    static func checkOutside(_ store: NoteStore, cloudFolder absolute: String) throws {
        if Context.path(store.directory, isInside: URL(fileURLWithPath: absolute, isDirectory: true)) {
            throw CLIError(
                "the data directory \(store.directory.path) is inside the cloud folder \(absolute); the database must never live in the cloud folder"
            )
        }
    }

    /// Whether the cloud folder at `path` is a directory on the same file system as the data
    /// directory: then nothing "synced" there is safe anywhere else (the out-of-the-box folder
    /// under XDG paths; issue 21 item 11). A bucket, or a folder that is not there, is not.
    static func isOnThisDisk(_ path: String, _ store: NoteStore) -> Bool {
        guard !CloudLocation.isURL(path) else { return false }
        var cloud = stat()
        var data = stat()
        guard stat(path, &cloud) == 0, stat(store.directory.path, &data) == 0 else { return false }
        return cloud.st_dev == data.st_dev
    }

    /// What `sync status` and the app say while the cloud folder shares the data's disk.
    static let onThisDiskHint =
        "the cloud folder is on the same disk as the data directory, so your notes are not safe anywhere else; "
        + "run 'cloudnotes sync init PATH' with a folder on another disk or s3://BUCKET/PREFIX to keep a copy elsewhere"

    /// An engine over the folder in force, or nil when none is configured.
    ///
    /// An unbound store whose folder does not exist yet gets the folder created (then a
    /// container in it, rule 12: only an empty folder a store is not bound to). A bound store
    /// never creates anything: a missing folder is `temporarilyUnavailable`.
    static func engine(
        _ context: Context, _ store: NoteStore, path: String? = nil, automatic: Bool = false, debounce: Double? = nil,
        createsContainer: Bool = true, progress: SyncProgress? = nil, asksPassphrase: Bool = true,
        unlocked: FolderSeal? = nil
    ) throws -> (engine: SyncEngine, folder: String)? {
        guard let path = try path ?? folderPath(context, store) else { return nil }
        var followed = try followMove(
            CloudLocation.resolve(path, environment: context.environment, s3: context.config.s3), context, store)
        var unlocked = unlocked
        // A plain folder encrypted in place (`sync encrypt`): this device moves, then helps finish.
        if asksPassphrase {
            if let (sealed, seal) = try EncryptInPlace.follow(followed, context, store) {
                followed = sealed
                unlocked = unlocked ?? seal
            }
            EncryptInPlace.finish(followed, context, store, inactiveAfter: CompactionPolicy().inactiveAfter)
        }
        let location = followed
        let absolute = location.name
        if !location.isRemote { try checkOutside(store, cloudFolder: absolute) }
        let state = try store.engineState().map(SyncEngineState.init(serialized:))
        if !location.isRemote, createsContainer, state?.containerID == nil,
            !FileManager.default.fileExists(atPath: absolute)
        {
            try FileManager.default.createDirectory(
                atPath: absolute, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        }
        let poll = context.config.pollIntervalSeconds
        var configuration = SyncEngine.Configuration(
            folder: try FolderAccess.open(location, context, store, asking: asksPassphrase, unlocked: unlocked),
            deviceName: context.config.deviceName,
            conflictStrategy: context.config.conflictStrategy, automaticallySync: automatic,
            debounceSeconds: debounce ?? context.config.syncDebounceSeconds, createsContainer: createsContainer,
            makeWatcher: { onChange in
                // A bucket has no inotify: a watcher that only polls (ARCHITECTURE §4).
                location.isRemote
                    ? try FolderWatcher.pollingOnly(pollInterval: poll, onChange: onChange)
                    : try FolderWatcher(root: absolute, pollInterval: poll, onChange: onChange)
            })
        // One sync at a time per data directory, whichever process runs it (SYNC-FORMAT "One
        // sync at a time"): the lock file lives beside the database, never in the cloud folder.
        configuration.maxRecordBytes = context.config.maxNoteBytes
        configuration.passLock = SyncPassLock(path: store.directory.appendingPathComponent("sync.lock").path)
        // Commands print the engine's warnings and errors themselves.
        configuration.logger.logLevel = .critical
        if let progress { configuration.onStatus = { progress.update($0) } }
        return (try SyncEngine(store: store, configuration: configuration), absolute)
    }

    /// A folder another device moved (`sync move`) says where it went: a data directory bound
    /// to it follows, rebinding itself, one hop per start (SYNC-FORMAT "Moving").
    static func followMove(_ location: CloudLocation, _ context: Context, _ store: NoteStore) throws -> CloudLocation {
        guard try store.boundCloudFolder() == location.name, let moved = location.folder().movedTo() else {
            return location
        }
        let next = try CloudLocation.resolve(moved, environment: context.environment, s3: context.config.s3)
        try store.bindCloudFolder(next.name)
        Output.info(
            "the cloud folder moved from \(location.name) to \(next.name) (its moved.json says so); this data directory syncs there now"
        )
        return next
    }

    /// Watches the data directory, where SQLite writes its WAL, so writes by this process or
    /// another one (`cloudnotes add`, the TUI) reach the engine as pending changes, sent after
    /// its debounce.
    static func watchLocalWrites(of store: NoteStore, for engine: SyncEngine) throws -> FolderWatcher {
        try FolderWatcher(root: store.directory.path, pollInterval: 3600, maxDepth: 0, events: .writes) {
            Task { await engine.pendingChangesAdded() }
        }
    }
}

/// Runs async work from a synchronous command and waits for it.
enum Blocking {
    static func value<T: Sendable>(_ body: @escaping @Sendable () async -> T) -> T {
        let box = ResultBox<T>()
        let done = DispatchSemaphore(value: 0)
        Task {
            box.value = await body()
            done.signal()
        }
        done.wait()
        return box.value!
    }

    static func run<T: Sendable>(_ body: @escaping @Sendable () async throws -> T) throws -> T {
        let box = ResultBox<T>()
        let done = DispatchSemaphore(value: 0)
        Task {
            do {
                box.result = .success(try await body())
            } catch {
                box.result = .failure(error)
            }
            done.signal()
        }
        done.wait()
        return try box.result!.get()
    }
}

/// A result written by one task and read after it signalled.
private final class ResultBox<T>: @unchecked Sendable {
    var result: Result<T, Error>?
    var value: T?
}
