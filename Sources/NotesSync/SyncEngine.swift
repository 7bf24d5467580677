import CloudFolder
import Foundation
import Logging
import NotesCore

/// The sync engine: CKSyncEngine's shape over a cloud folder (ARCHITECTURE §4).
///
/// Local edits reach the store first; the engine sends its pending record zone changes in
/// batches (`sendChanges`, debounced after edits when `automaticallySync` is on, at once on
/// `syncNow`) and fetches remote changes with change tokens (`fetchChanges`, on start, when the
/// watcher sees the folder change, on its fallback poll, on `syncNow`). Fetched changes and the
/// state that covers them are applied in one store transaction; concurrent heads are resolved
/// by `ConflictResolver`. Errors carry CKError's codes and set the account status and the
/// `SyncStatus` the UI shows; retryable ones are retried with backoff and jitter.
///
/// Sending is in `SyncEngine+Send.swift`, fetching in `+Fetch.swift`, account checks and error
/// strategies in `+Account.swift`, the automatic scheduling in `+Automatic.swift`.
public actor SyncEngine {
    /// How an engine runs; the defaults are the app's.
    public struct Configuration: Sendable {
        /// The cloud folder; nil is local only (`noAccount`).
        public var folder: (any CloudFolder)?
        /// This device's name, as the device file shows it to others.
        public var deviceName: String
        public var conflictStrategy: ConflictStrategy
        /// Sync on its own: debounced sends, fetches on folder changes, retries (on in the app,
        /// off in tests, which call `sendChanges`/`fetchChanges` themselves).
        public var automaticallySync: Bool
        /// Seconds from the last edit to the send.
        public var debounceSeconds: Double
        public var retry: RetryPolicy
        /// Creates the container in an empty folder when the store is not bound yet (rule 12).
        public var createsContainer: Bool
        /// The wall clock.
        public var now: @Sendable () -> Date
        /// What the debounce and the retry backoff sleep on (a test clock in unit tests).
        public var clock: any Clock<Duration> = ContinuousClock()
        /// Starts a folder watcher that calls back on changes; nil: no watcher.
        public var makeWatcher: (@Sendable (@escaping @Sendable () -> Void) throws -> any ChangeWatcher)?
        /// When snapshots are written and this device's own log files deleted (rule 11).
        public var compaction = CompactionPolicy()
        /// Called on the engine's executor with every change of `status`, before it is streamed
        /// (a CLI's progress line; the UI uses `statusUpdates`).
        public var onStatus: (@Sendable (SyncStatus) -> Void)?
        /// Where warnings and errors are logged (a CLI that prints them itself raises the level).
        public var logger = Logger(label: "cloudnotes.sync")
        /// One sync at a time per data directory (`SyncPassLock`); nil: no lock (tests with
        /// one engine per store).
        public var passLock: SyncPassLock?
        /// How long a pass waits for another process's pass to end before it gives up with
        /// "a sync is already running"; an automatic engine does not wait (it retries later).
        public var passLockWaitSeconds: Double = 30
        /// The largest note (canonical fields) that syncs; a larger one stays on this device
        /// (`limitExceeded`, rule 13). Up to 1 GB; notes over 256 KB travel as assets (rule 15).
        public var maxRecordBytes = ChangeRecord.maxFieldsBytes

        public init(
            folder: (any CloudFolder)?, deviceName: String = "device", conflictStrategy: ConflictStrategy = .merge,
            automaticallySync: Bool = false, debounceSeconds: Double = 2, retry: RetryPolicy = RetryPolicy(),
            createsContainer: Bool = true, now: @escaping @Sendable () -> Date = Date.init,
            makeWatcher: (@Sendable (@escaping @Sendable () -> Void) throws -> any ChangeWatcher)? = nil
        ) {
            self.folder = folder
            self.deviceName = deviceName
            self.conflictStrategy = conflictStrategy
            self.automaticallySync = automaticallySync
            self.debounceSeconds = debounceSeconds
            self.retry = retry
            self.createsContainer = createsContainer
            self.now = now
            self.makeWatcher = makeWatcher
        }
    }

    public let store: any SyncStore
    public let configuration: Configuration
    /// The device id this engine publishes under: the store's, or a new one after a clone
    /// rotation (rule 10, `SyncEngine+Clone.swift`).
    public internal(set) var device: DeviceID
    let resolver: ConflictResolver
    var logger: Logger { configuration.logger }

    public internal(set) var state: SyncEngineState
    public internal(set) var accountStatus: AccountStatus
    public internal(set) var status: SyncStatus
    /// Things the user should hear about: skipped files, clock skew, notes over the limit.
    public internal(set) var warnings: [String] = []
    /// Notes that stay local because a revision is over the record limit, or did not fit in a
    /// full cloud folder, with the message.
    public internal(set) var limitExceeded: [UUID: String] = [:]
    /// Notes that did not fit in a full cloud folder, not tried again before their time.
    var roomWaits: [UUID: RoomWait] = [:]
    /// Files the last fetch waited at (`SyncStatus.waitingCount`, with the waiting records).
    var waitingFiles = 0
    /// The chunks this engine's device file last announced it waits for (nil: not written yet
    /// by this engine), and when it last looked for chunks of its own that others wait for.
    var announcedWaiting: [String]?
    var lastDamageCheck: Int64?
    /// When this engine last listed the cloud's settings (SYNC-FORMAT "Settings"; nil: not yet).
    var lastSettingsCheck: Int64?
    /// Chunks this device wrote that others wait for and that do not check out (rule 15).
    public internal(set) var damagedChunks: [DamagedChunk] = []

    /// Events for the delegate, as CKSyncEngine hands them to `handleEvent`.
    public nonisolated let events: AsyncStream<SyncEvent>
    /// Every change of `status`, for the UI.
    public nonisolated let statusUpdates: AsyncStream<SyncStatus>
    let eventSink: AsyncStream<SyncEvent>.Continuation
    let statusSink: AsyncStream<SyncStatus>.Continuation

    var preparedSession = false
    /// Whether the running fetch deferred the store's indexes (a new device's first sync).
    var bulkIndexes = BulkIndexes.unchecked
    /// Zones seen in the folder this session (so a send does not stat the zone every time).
    var knownZones = Set<ZoneID>()
    var debounceTask: Task<Void, Never>?
    var retryTask: Task<Void, Never>?
    var fetchScheduled = false
    var retryAttempt = 0
    var watcher: (any ChangeWatcher)?
    var random = SystemRandomNumberGenerator()
    /// How many `exclusive` calls are running (the lock is taken by the outermost).
    var passLockDepth = 0
    /// The folder scoped to the running pass (`exclusive`), and its container once opened.
    var passFolder: (any CloudFolder)?
    var passContainer: ContainerInfo?

    public init(store: any SyncStore, configuration: Configuration) throws {
        let state = try store.engineState().map(SyncEngineState.init(serialized:)) ?? SyncEngineState()
        guard let device = state.deviceID ?? DeviceID(store.deviceID) else {
            throw CloudError(.internalError, "the store's device id \(store.deviceID) is not a valid device id")
        }
        self.store = store
        self.configuration = Self.withAttachmentContent(configuration, store)
        self.device = device
        self.resolver = ConflictResolver(strategy: configuration.conflictStrategy)
        self.state = state
        self.accountStatus = configuration.folder == nil ? .noAccount : .available
        let lastSync = state.lastSync.map(Date.init(millisecondsSince1970:))
        self.status = SyncStatus(
            phase: configuration.folder == nil ? .localOnly : Self.settled(lastSync: lastSync, held: state.held.values),
            // Counts for the status only.
            pendingCount: (try? store.pendingCount()) ?? 0, conflictCount: (try? store.conflictCount()) ?? 0,
            heldCount: state.held.count,
            heldReason: state.held.isEmpty ? nil : Self.heldReason(configuration.maxRecordBytes, state.held.values))
        (events, eventSink) = AsyncStream.makeStream(of: SyncEvent.self, bufferingPolicy: .bufferingNewest(512))
        (statusUpdates, statusSink) = AsyncStream.makeStream(of: SyncStatus.self, bufferingPolicy: .bufferingNewest(64))
    }

    /// The folder reads and writes attachment content through the store's (SYNC-FORMAT rule
    /// 15) when the store keeps it (`NoteStore` does, where the layers meet).
    static func withAttachmentContent(_ configuration: Configuration, _ store: any SyncStore) -> Configuration {
        guard let content = store as? any AttachmentContent, var folder = configuration.folder as? DirectoryCloudFolder
        else { return configuration }
        var wired = configuration
        folder.attachments = content
        wired.folder = folder
        return wired
    }

    /// One "sync now": send, fetch, and send again what the fetch merged. Errors become the
    /// account status and `status` (and, when syncing automatically, a retry); they are returned
    /// in the summary, never thrown.
    @discardableResult
    public func syncNow() async -> SyncSummary {
        var summary = SyncSummary()
        debounceTask?.cancel()
        do {
            try await exclusive {
                do {
                    try await pass(&summary)
                } catch {
                    rememberFailure(error)
                    throw error
                }
            }
        } catch {
            summary.error = record(error)
        }
        summary.pending = status.pendingCount
        summary.conflicts = status.conflictCount
        return summary
    }

    private func pass(_ summary: inout SyncSummary) async throws {
        do {
            summary.sent = try await sendChanges()
            // What the first send left: notes held back and what waits behind them.
            let left = try store.pendingCount()
            summary.fetched = try await fetchChanges()
            // Merges made by the fetch, or a zone queued again for upload (a note that did not
            // fit in a full cloud folder is not tried twice a pass for what waits behind it).
            let pending = try store.pendingCount()
            if summary.fetched.merged > 0 || pending > left {
                summary.sent.add(try await sendChanges())
            }
            let now = configuration.now().millisecondsSince1970
            state.lastSync = now
            try writeDeviceFileIfDue(now: now)
            try checkDamagedChunksIfDue(now: now)
            summary.compacted = compactIfDue()
            state.warnings = Array(warnings.suffix(20))
            state.lastError = nil
            try store.saveEngineState(state.serialized)
            emit(.stateUpdate(state))
            if configuration.automaticallySync, !roomWaits.isEmpty {
                // A folder given room again says nothing: notes that wait for it are tried on the
                // retry policy's backoff.
                scheduleRetry()
            } else {
                retryAttempt = 0
            }
            setPhase(Self.settled(lastSync: Date(millisecondsSince1970: now), held: state.held.values))
        }
    }

    /// Runs `body` holding the data directory's sync lock (`SyncPassLock`), with the engine state
    /// reloaded from the store once it is held; nested calls (a sync's sends and fetch) take it
    /// once. Throws `zoneBusy` ("a sync is already running") when another process holds it past
    /// the wait.
    /// The outermost call scopes the folder to the pass (`passFolder`).
    func exclusive<T: Sendable>(_ body: () async throws -> T) async throws -> T {
        guard passLockDepth == 0 else {
            passLockDepth += 1
            defer { passLockDepth -= 1 }
            return try await body()
        }
        let lock = configuration.passLock
        if let lock {
            guard try lock.acquire(timeout: configuration.automaticallySync ? 0 : configuration.passLockWaitSeconds)
            else {
                throw CloudError(
                    .zoneBusy,
                    "a sync is already running for this data directory (another cloudnotes process); try again when it ends"
                )
            }
        }
        defer { lock?.release() }
        passLockDepth += 1
        passFolder = configuration.folder?.scopedToOnePass()
        defer {
            passLockDepth -= 1
            passFolder = nil
            passContainer = nil
        }
        if lock != nil { try reloadState() }
        return try await body()
    }

    /// The cloud folder as the running pass uses it (`CloudFolder.scopedToOnePass`), or as
    /// configured outside a pass.
    var folder: (any CloudFolder)? { passFolder ?? configuration.folder }

    /// Keeps why this sync failed in the saved state until a sync succeeds (`status` shows it).
    /// Best effort: the store may be what failed.
    func rememberFailure(_ error: Error) {
        let cloud = CloudError.wrapping(error)
        let kind: String
        switch cloud.code {
        case .quotaExceeded: kind = "full"
        case .permissionFailure: kind = cloud.message.contains("read-only") ? "read-only" : "permission"
        case .accountTemporarilyUnavailable, .networkUnavailable, .networkFailure, .unknownItem, .zoneNotFound:
            kind = "gone"
        case .limitExceeded: kind = "limit"
        case .notAuthenticated: kind = "sign-in"
        default: kind = "error"
        }
        let failure = SyncEngineState.LastError(
            kind: kind, code: cloud.code.rawValue, message: cloud.message,
            at: configuration.now().millisecondsSince1970)
        state.lastError = failure
        // Into the state as saved, not the in-memory one: that may hold steps the store never
        // committed, and the saved state only ever covers what is committed with it.
        guard var saved = try? store.engineState().map(SyncEngineState.init(serialized:)) ?? SyncEngineState() else {
            return
        }
        saved.lastError = failure
        // The failure is also in memory (`state.lastError`), which status reads; saving it is best effort.
        try? store.saveEngineState(saved.serialized)
    }

    /// Takes the state another process's pass may have saved since this engine last looked.
    func reloadState() throws {
        guard let saved = try store.engineState().map(SyncEngineState.init(serialized:)), saved != state else { return }
        state = saved
        if let id = saved.deviceID, id != device {
            device = id
            preparedSession = false
        }
        knownZones = []
    }

    // MARK: Status and events

    func emit(_ event: SyncEvent) { eventSink.yield(event) }

    /// `pendingCount`: the changes waiting to be sent, when the caller knows it (else counted).
    func setPhase(_ phase: SyncStatus.Phase, pendingCount known: Int? = nil) {
        var next = status
        next.phase = phase
        // Counts for the status only: a failed read keeps the last count.
        next.pendingCount = known ?? (try? store.pendingCount()) ?? next.pendingCount
        next.conflictCount = (try? store.conflictCount()) ?? next.conflictCount
        next.heldCount = limitExceeded.isEmpty ? state.held.count : limitExceeded.count
        let reasons = limitExceeded.isEmpty ? Array(state.held.values) : Array(limitExceeded.values)
        next.heldReason = next.heldCount == 0 ? nil : Self.heldReason(configuration.maxRecordBytes, reasons)
        next.waitingCount = waitingFiles + state.waiting.count
        next.attachmentWaitingCount = state.waiting.count { $0.record.attachment != nil }
        next.damagedChunkCount = damagedChunks.count
        guard next != status else { return }
        status = next
        configuration.onStatus?(next)
        statusSink.yield(next)
    }

    /// Why held notes stay here, for the status bar: a full cloud folder when any waits for
    /// room (issue 21 item 13), else a record over the size limit (SYNC-FORMAT rule 13).
    static func heldReason(_ limit: Int, _ reasons: some Sequence<String>) -> String {
        reasons.contains(where: isWaitingForRoom) ? fullCloudFolder : "over the \(ChangeRecord.describe(limit)) limit"
    }

    /// What a held note's reason says when it waits for room in a full cloud folder.
    static let fullCloudFolder = "the cloud folder is full"

    /// Whether a held note's reason is a full cloud folder (`waitsForRoom`), not the size limit.
    public static func isWaitingForRoom(_ reason: String) -> Bool { reason.contains(fullCloudFolder) }

    /// The phase after a pass that ended well: idle, unless notes wait for room in a full cloud
    /// folder, which is then an error a person sees (never "✓ Synced" while something waits).
    static func settled(lastSync: Date?, held: some Sequence<String>) -> SyncStatus.Phase {
        let waiting = held.filter(isWaitingForRoom).count
        guard waiting > 0 else { return .idle(lastSync: lastSync) }
        return .error(message: "\(fullCloudFolder): \(waiting) note(s) wait on this device until there is room")
    }

    func warn(_ message: String) {
        logger.warning("\(message)")
        if !warnings.contains(message) { warnings.append(message) }
        if warnings.count > 50 { warnings.removeFirst(warnings.count - 50) }
    }
}

/// What one `syncNow` did.
public struct SyncSummary: Sendable, Equatable {
    public var sent = SendSummary()
    public var fetched = FetchSummary()
    /// What automatic compaction did after the sync (nil: it was not due).
    public var compacted: CompactionSummary?
    /// The error that stopped it, if any (already reflected in the engine's status).
    public var error: CloudError?
    public var pending = 0
    public var conflicts = 0

    public init() {}
}

/// What `sendChanges` did.
public struct SendSummary: Sendable, Equatable {
    /// Revisions published.
    public var sent = 0
    /// Log files written.
    public var batches = 0
    /// Records left out (over the record limit).
    public var failed: [SyncEvent.FailedRecord] = []

    public init() {}

    mutating func add(_ other: SendSummary) {
        sent += other.sent
        batches += other.batches
        // A sync sends twice (before and after fetching): a note held back is listed once.
        failed += other.failed.filter { record in !failed.contains { $0.recordID == record.recordID } }
    }
}

/// What `fetchChanges` did.
public struct FetchSummary: Sendable, Equatable {
    /// Revisions read from other devices' logs (duplicates included).
    public var received = 0
    /// Notes that changed here.
    public var changed: [UUID] = []
    /// Merge revisions made (to be sent).
    public var merged = 0
    /// Revisions waiting for their parents.
    public var buffered = 0
    /// Remote stamps more than a day ahead.
    public var clockSkew = 0
    /// Files that did not check out (waited for, not skipped).
    public var notArrived = 0
    /// Changes waiting for an attachment's chunk after this fetch (SYNC-FORMAT rule 15).
    public var waitingForAttachments = 0
    /// Notes held by a change waiting for a chunk (rule 15); the rest of their streams applied.
    public var waitingNotes = 0
    /// Snapshots loaded because the token pointed at compacted log files (`changeTokenExpired`).
    public var snapshotsLoaded = 0

    /// Settings another device changed, now in force here (SYNC-FORMAT "Settings").
    public var settingsChanged: [String] = []
    public init() {}
}
