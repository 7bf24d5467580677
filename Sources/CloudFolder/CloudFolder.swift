import NotesCore

/// The storage side of sync: a cloud folder in format v1 (SYNC-FORMAT), as the engine sees it.
///
/// The analog of a CloudKit database: containers, zones, and per-device change logs read
/// with change tokens. Every call is synchronous and may block on the file system; the sync
/// engine calls it off the UI. Errors are `CloudError`s.
public protocol CloudFolder: Sendable {
    /// Creates `container.json` with a random containerID; only in an empty folder (rule 12).
    func createContainer(device: DeviceID, hlc: HLC) throws -> ContainerInfo
    /// Reads `container.json`. When the local store is bound (`boundTo` is its containerID) and
    /// the file is missing, throws `accountTemporarilyUnavailable` and creates nothing (rule 12).
    /// A different containerID is returned as is: the caller treats it as `switchAccounts`.
    func openContainer(boundTo: String?) throws -> ContainerInfo

    /// Publishes a batch as `log/<dev>/<seg>/<seq>.json`, atomically (rules 1–3).
    func publish(_ batch: ChangeBatch, zone: ZoneID, device: DeviceID, seq: Int64, hlc: HLC) throws -> PublishOutcome
    /// Reads what changed in a zone since `token` (rule 4), at most `limit` of it.
    func fetchChanges(zone: ZoneID, since token: ChangeToken, limit: FetchLimit) throws -> FetchedChanges
    /// Removes the temp files a crash of `device` left behind; never another device's (rules 1, 2).
    func removeOwnTemporaryFiles(device: DeviceID) throws -> [String]
    /// The last seq of a device's log reachable from `after` (rule 10: clone detection).
    func logHead(zone: ZoneID, device: DeviceID, after: Int64) throws -> Int64
    /// Per device, the highest seq at which it wrote a snapshot of `zone` that is listed now
    /// (by name; unreadable listing: none). A device deletes only log files its own snapshot
    /// covers, so its files up to there may be gone (rule 11).
    func ownSnapshotHeads(zone: ZoneID) -> [DeviceID: Int64]
    /// Finds renamed copies of log files whose envelopes check out (rule 9).
    func salvageScan(zone: ZoneID) throws -> SalvageReport

    /// Writes a write-once zone snapshot (rule 11).
    func publishSnapshot(_ snapshot: Snapshot, zone: ZoneID) throws -> PublishOutcome
    func snapshots(zone: ZoneID) throws -> Listing<SnapshotName>
    /// A snapshot, or nil when it is missing or has not fully arrived.
    func readSnapshot(zone: ZoneID, device: DeviceID, seq: Int64) throws -> Snapshot?
    /// Compaction (rule 11): deletes `device`'s own log files with seqs in `seqs` (regular files
    /// only; missing ones are skipped); returns how many were deleted. The caller passes its own
    /// device id and has checked that a snapshot covers them and every active device has read them.
    func removeOwnLogFiles(zone: ZoneID, device: DeviceID, seqs: ClosedRange<Int64>) throws -> Int
    /// Deletes one of `device`'s own snapshots (one a newer snapshot of the same device replaces).
    func removeOwnSnapshot(zone: ZoneID, device: DeviceID, seq: Int64) throws
    /// Deletes the chunks `device` wrote itself that no log file or snapshot in the folder and no
    /// note's head names, and none has named for `unreferencedFor` ms up to `now` (rule 15).
    /// The caller holds no publication half done.
    func collectOwnChunks(device: DeviceID, now: Int64, unreferencedFor: Int64) throws -> ChunkCollection

    func zones() throws -> Listing<ZoneID>
    func zoneStatus(_ zone: ZoneID) throws -> ZoneStatus
    /// The devices whose deletion markers of the zone check out (rule 12), sorted; empty when
    /// there are none or no zone folder. What `zoneStatus` says `.deleted(by:)` with, for less.
    func deletedBy(zone: ZoneID) throws -> [DeviceID]
    /// Creates a zone folder and its write-once `zone.json`; returns the zone as the folder has it.
    func createZone(_ info: ZoneInfo, hlc: HLC) throws -> ZoneInfo
    /// Writes `deleted/<dev>-<hlc>.json`: the zone was deleted on purpose (rule 12).
    func markZoneDeleted(_ zone: ZoneID, device: DeviceID, hlc: HLC) throws
    /// Writes `names/<dev>-<hlc>.json`: the zone's display name as of a rename (rule 16).
    func publishNotebookName(_ name: NotebookName, zone: ZoneID, device: DeviceID) throws
    /// The newest display name of the zone, by `(hlc, device)`, among the name files that check
    /// out and are newer than `after`; nil when there is none (rule 16).
    func latestNotebookName(zone: ZoneID, after: NotebookName?) throws -> NotebookName?

    /// Writes `private/settings/<dev>-<hlc>.json`: one write of a setting (SYNC-FORMAT "Settings").
    func publishSetting(_ setting: SyncedSetting, device: DeviceID) throws
    /// The setting files in the folder by `(device, hlc)`, ignoring every other name.
    func settingFiles() throws -> [(device: DeviceID, hlc: HLC)]
    /// One setting write; nil when the file is missing, has not fully arrived or does not check out.
    func readSetting(device: DeviceID, hlc: HLC) throws -> SyncedSetting?

    func devices() throws -> Listing<DeviceID>
    /// A device's file, or nil when it is missing or has not fully arrived.
    func readDevice(_ device: DeviceID) throws -> DeviceInfo?
    /// Rewrites our own device file (temp + rename); the only file ever rewritten (rule 1).
    func writeDevice(_ info: DeviceInfo, device: DeviceID, hlc: HLC) throws

    /// The folder as one sync pass uses it: checks it may make once per pass instead of once
    /// per call (a bucket's `container.json` and zone folders, `PassSightings`). By default, itself.
    func scopedToOnePass() -> any CloudFolder
    /// Whether each listing is a billed request (a bucket), so that what changes rarely (the
    /// settings) is listed less often than every pass. By default, false.
    var listingsAreRequests: Bool { get }
}

extension CloudFolder {
    public func scopedToOnePass() -> any CloudFolder { self }
    public var listingsAreRequests: Bool { false }
}

/// What a publication did.
public enum PublishOutcome: Sendable, Equatable {
    case published
    /// The file was already there with identical bytes (a retry after a crash): harmless.
    case alreadyPublished
}

/// Names found in a folder: the valid ones, and everything else (ignored, counted).
public struct Listing<Item: Sendable & Equatable>: Sendable, Equatable {
    public var items: [Item]
    public var ignored: [String]

    public init(items: [Item], ignored: [String]) {
        self.items = items
        self.ignored = ignored
    }
}

/// One log file read by a fetch.
public struct FetchedBatch: Sendable, Equatable {
    public var device: DeviceID
    public var seq: Int64
    public var hlc: HLC
    public var batch: ChangeBatch

    public init(device: DeviceID, seq: Int64, hlc: HLC, batch: ChangeBatch) {
        self.device = device
        self.seq = seq
        self.hlc = hlc
        self.batch = batch
    }
}

/// A log file that exists but does not check out yet: the stream of its device stops there.
public struct NotArrivedFile: Sendable, Equatable {
    public var device: DeviceID
    public var seq: Int64
    public var path: String
    public var reason: String

    public init(device: DeviceID, seq: Int64, path: String, reason: String) {
        self.device = device
        self.seq = seq
        self.path = path
        self.reason = reason
    }
}

/// How much one `fetchChanges` reads before it stops with `moreComing`: what a reader applies in
/// one store transaction and holds in memory meanwhile. A log file is never split: the files read
/// stop once they hold `records` records (waiting ones included), or number `batches`.
public struct FetchLimit: Sendable, Equatable {
    public var batches: Int
    public var records: Int

    public init(batches: Int = .max, records: Int = .max) {
        self.batches = batches
        self.records = records
    }

    public static let unlimited = FetchLimit()

    /// Whether `changes` holds as much as this limit allows.
    func isReached(by changes: FetchedChanges) -> Bool {
        guard changes.batches.count < batches else { return true }
        guard records < .max else { return false }
        return changes.batches.reduce(0) { $0 + $1.batch.records.count + $1.batch.waiting.count } >= records
    }
}

/// The result of `fetchChanges`.
public struct FetchedChanges: Sendable, Equatable {
    /// In order per device; devices one after another.
    public var batches: [FetchedBatch] = []
    /// The token after these batches: apply them and save it in one transaction.
    public var token: ChangeToken
    /// Files that stopped a device's stream (torn, corrupt, refused): waited for, counted.
    public var notArrived: [NotArrivedFile] = []
    /// Names under `log/` that are not device folders (relative to the zone): ignored, counted.
    public var ignored: [String] = []
    /// True when the `FetchLimit` stopped the fetch before every stream was read.
    public var moreComing = false
    /// `changeTokenExpired` (rule 11): devices whose next file after the token is missing while
    /// the device's own snapshot at a higher seq is listed (compaction may have deleted the
    /// files up to it), with that seq. Their streams stopped there; the reader loads a snapshot
    /// that covers them, then fetches again.
    public var expired: [DeviceID: Int64] = [:]
    /// Renamed copies of log files (rule 9) found in the segment folders this fetch read, whose
    /// envelope checks out against the name they copy: their records are applied like any
    /// (content addressing makes repeats harmless).
    public var copies: [RenamedCopy] = []
    /// Renamed copies that do not check out (torn or damaged): never applied, and reported so
    /// the user can remove them (rule 9); they stop no stream.
    public var refusedCopies: [NotArrivedFile] = []
    /// Files in `notArrived` that a snapshot of their device's own covers: their devices are in
    /// `expired`, and the reader loads the snapshot instead of waiting for them.
    public var coveredDamage: [NotArrivedFile] = []

    public init(token: ChangeToken) { self.token = token }
}

/// A log file a replicator renamed, and whether the file at its original name holds the same
/// batch (a copy that differs means two writers used one device id at one seq: a clone).
public struct RenamedCopy: Sendable, Equatable {
    public var batch: FetchedBatch
    /// Relative to the zone, e.g. `log/<dev>/000000000000/000000000007.sync-conflict-….json`.
    public var name: String
    public var differsFromOriginal: Bool

    public init(batch: FetchedBatch, name: String, differsFromOriginal: Bool) {
        self.batch = batch
        self.name = name
        self.differsFromOriginal = differsFromOriginal
    }
}

/// What a salvage scan found.
public struct SalvageReport: Sendable, Equatable {
    /// Renamed copies whose envelope checks out against the name they copy.
    public var salvaged: [FetchedBatch] = []
    /// Names (relative to the zone) that are not ours: ignored, counted.
    public var ignored: [String] = []

    public init() {}
}

/// The state of a zone in the folder (rule 12).
public enum ZoneStatus: Sendable, Equatable {
    /// The zone folder exists; `info` is nil while `zone.json` has not arrived.
    case present(ZoneInfo?)
    /// A deletion marker exists: the zone was deleted on purpose.
    case deleted(by: [DeviceID])
    /// No zone folder. For a zone the engine has synced before, that is `userDeletedZone`.
    case missing
}

extension CloudFolder {
    /// Everything that changed since `token`.
    public func fetchChanges(zone: ZoneID, since token: ChangeToken) throws -> FetchedChanges {
        try fetchChanges(zone: zone, since: token, limit: .unlimited)
    }
}
