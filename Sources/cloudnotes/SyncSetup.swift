import CloudFolder
import Foundation
import Logging
import NotesCore
import NotesStore
import NotesSync
import Synchronization

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
        unlocked: FolderSeal? = nil, notices: ((String) -> Void)? = nil
    ) throws -> (engine: SyncEngine, folder: String)? {
        guard let path = try path ?? folderPath(context, store) else { return nil }
        let notify = notices ?? { Output.warn($0) }
        if let mismatch = configMismatch(context, bound: try store.boundCloudFolder()) { notify(mismatch) }
        let (location, unlocked) = try follow(
            CloudLocation.resolve(path, environment: context.environment, s3: context.config.s3), context, store,
            asksPassphrase: asksPassphrase, unlocked: unlocked, notify: notify, refusalsAreNotices: notices != nil)
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

    /// Where this data directory's container is now, from the place it is bound to: forward
    /// pointers (`followMove`) and encryption in place (`EncryptInPlace.follow`, which needs the
    /// passphrase: only with `asksPassphrase`) followed in turn until neither applies, so one
    /// command reaches where the other devices are. Every command that changes the container
    /// (sync, move, encrypt, passphrase) starts here, so none acts on a place left behind.
    static func follow(
        _ start: CloudLocation, _ context: Context, _ store: NoteStore, asksPassphrase: Bool = true,
        unlocked: FolderSeal? = nil, notify: (String) -> Void, refusalsAreNotices: Bool = false
    ) throws -> (location: CloudLocation, seal: FolderSeal?) {
        var (followed, unlocked) = try followMove(
            start, context, store, asking: asksPassphrase, unlocked: unlocked, notify: notify,
            refusalsAreNotices: refusalsAreNotices)
        var steps = 0
        while asksPassphrase, steps < ForwardChain.maxHops,
            let (sealed, seal) = try EncryptInPlace.follow(followed, context, store)
        {
            steps += 1
            EncryptInPlace.finish(sealed, context, store, inactiveAfter: CompactionPolicy().inactiveAfter)
            (followed, unlocked) = try followMove(
                sealed, context, store, asking: asksPassphrase, unlocked: seal, notify: notify,
                refusalsAreNotices: refusalsAreNotices)
            unlocked = unlocked ?? seal
        }
        // A device on `sealed/` helps finish: marks itself moved, removes the plain files last.
        if asksPassphrase {
            EncryptInPlace.finish(followed, context, store, inactiveAfter: CompactionPolicy().inactiveAfter)
        }
        return (followed, unlocked)
    }

    /// A folder another device moved (`sync move`) says where it went: a data directory bound
    /// to it follows the forward pointers to their end (`ForwardChain`: each checked, a loop
    /// refused), copies there whatever was published at its old place after the move copied it,
    /// and rebinds itself (SYNC-FORMAT "Moving"). A pointer that does not check out is not
    /// followed and is said (`notify`). Returns the place to sync with and the seal the pointers
    /// were read with. A refusal throws, or with `refusalsAreNotices` (`status`) is said and
    /// leaves the binding as it is.
    static func followMove(
        _ location: CloudLocation, _ context: Context, _ store: NoteStore, asking: Bool = true,
        unlocked: FolderSeal? = nil, notify: (String) -> Void, refusalsAreNotices: Bool = false
    ) throws -> (location: CloudLocation, seal: FolderSeal?) {
        let state = try store.engineState().map(SyncEngineState.init(serialized:))
        let pointer = location.root + "/" + DirectoryCloudFolder.movedFileName
        guard try store.boundCloudFolder() == location.name,
            (try? location.io.kind(pointer)) != nil  // an unreadable root: the engine reports it
        else { return (location, unlocked) }
        let start = try FolderAccess.open(location, context, store, asking: asking, unlocked: unlocked)
        // A data directory bound here but not yet synced with this container (just rebound to
        // the encrypted one, or just initialized) follows the container that is here.
        guard let containerID = state?.containerID ?? (try? start.readContainer(boundTo: nil).containerID) else {
            return (location, unlocked)
        }
        let end: ForwardChain.End
        // A place along the chain may hold a key started after this device's (`--new-key`):
        // its passphrase gives every key, for that place's pointer and the places after it.
        var seal = start.seal
        do {
            end = try ForwardChain.follow(from: start, name: location.name, containerID: containerID) { place in
                let next = try CloudLocation.resolve(place, environment: context.environment, s3: context.config.s3)
                do {
                    let folder = try FolderAccess.current(next.folder(seal: seal), at: next, context, store, asking)
                    seal = folder.seal
                    return folder
                } catch let error as CLIError {
                    throw CloudError(.notAuthenticated, error.message)  // said whole in the refusal
                }
            }
        } catch let error as CloudError {
            guard refusalsAreNotices else { throw CLIError(error.message) }
            notify(error.message)
            return (location, start.seal)
        }
        if let ignored = end.ignored { notify(ignored) }
        guard let last = end.places.last else { return (location, start.seal) }
        let next = try CloudLocation.resolve(last, environment: context.environment, s3: context.config.s3)
        // What devices published at the old place after the move copied it goes along (write-once
        // files it lacks), so no edit stays behind; only from the same container.
        if (try? start.readContainer(boundTo: nil).containerID) == containerID,
            let device = state?.deviceID ?? DeviceID(store.deviceID)
        {
            do {
                let copied = try start.copyMissing(to: end.folder, device: device)
                if !copied.differing.isEmpty {
                    notify(
                        "\(copied.differing.count) file(s) at \(location.name) differ from the same file(s) at "
                            + "\(next.name) and were left there (for example \(copied.differing[0]))")
                }
            } catch let error as CloudError {
                throw CLIError(
                    "the cloud folder moved to \(next.name), but what was published at \(location.name) after the "
                        + "move could not be copied there (\(error.userMessage)); this data directory stays bound "
                        + "to \(location.name) until a sync copies it")
            }
        }
        try store.bindCloudFolder(next.name)
        let via = end.places.count > 1 ? " (via \(end.places.dropLast().joined(separator: ", ")))" : ""
        Output.info(
            "the cloud folder moved from \(location.name) to \(next.name)\(via) (its moved.json says so); this data "
                + "directory syncs there now"
        )
        return (next, seal)
    }

    /// A `cloudFolder` the config file names that is not the place this data directory is
    /// bound to: said, never silently ignored (the binding wins).
    static func configMismatch(_ context: Context, bound: String?) -> String? {
        guard let bound, context.loaded.keysFromFile.contains("cloudFolder"),
            let configured = context.config.cloudFolder,
            CloudLocation.normalizedName(configured) != bound
        else { return nil }
        return "the config names cloudFolder \(configured), but this data directory is bound to \(bound) and syncs "
            + "there; to move the notes there run 'cloudnotes sync move \(configured)', or set cloudFolder to \(bound) "
            + "(or remove it) in the config"
    }

    /// The way back from an emptied cloud folder, for a message that says the folder is empty.
    static func recoveryHint(_ message: String, place: String) -> String? {
        message.contains("the cloud folder is empty") ? recoveryHint(place: place) : nil
    }

    /// The way back from an emptied cloud folder at `place`.
    static func recoveryHint(place: String) -> String {
        "to re-create it from this device's notes run 'cloudnotes sync init --restore \(place)' (the other "
            + "devices then send what only they had); if it is on a disk that is not mounted, mount it instead"
    }
}

/// Runs async work from a synchronous command and waits for it.
enum Blocking {
    static func value<T: Sendable>(_ body: @escaping @Sendable () async -> T) -> T {
        let box = ResultBox<T>()
        let done = DispatchSemaphore(value: 0)
        Task {
            box.set(.success(await body()))
            done.signal()
        }
        done.wait()
        // The task sets the value before it signals.
        guard case .success(let value) = box.get() else {
            preconditionFailure("Blocking.value: the task signalled without a value")
        }
        return value
    }

    static func run<T: Sendable>(_ body: @escaping @Sendable () async throws -> T) throws -> T {
        let box = ResultBox<T>()
        let done = DispatchSemaphore(value: 0)
        Task {
            do {
                box.set(.success(try await body()))
            } catch {
                box.set(.failure(error))
            }
            done.signal()
        }
        done.wait()
        // The task sets the result before it signals.
        guard let result = box.get() else { preconditionFailure("Blocking.run: the task signalled without a result") }
        return try result.get()
    }
}

/// A result written by one task and read after it signalled.
private final class ResultBox<T: Sendable>: Sendable {
    private let result = Mutex<Result<T, any Error>?>(nil)

    func set(_ result: Result<T, any Error>) { self.result.withLock { $0 = result } }
    func get() -> Result<T, any Error>? { result.withLock { $0 } }
}
