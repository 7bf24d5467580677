import CloudFolder
import Foundation

/// When a device writes zone snapshots and deletes its own log files (SYNC-FORMAT rule 11).
///
/// Conservative by default: a snapshot must have been in the folder for a day before the log
/// files it covers go (replicators have had time to deliver it), every device seen in the last
/// 30 days must have acknowledged them, and nothing happens automatically before this
/// device's own log in a zone holds 1,024 files (one segment folder) a snapshot does not cover.
public struct CompactionPolicy: Sendable, Equatable {
    /// How long our snapshot must have been written before the files it covers are deleted.
    public var snapshotVisibleFor: TimeInterval
    /// A device whose file says it was last seen longer ago than this no longer holds deletion
    /// back (when it returns, its token has expired and it loads a snapshot).
    public var inactiveAfter: TimeInterval
    /// How long an own chunk must have been named by no file and no note before compaction
    /// deletes it (rule 15).
    public var chunkUnreferencedFor: TimeInterval
    /// After a successful `syncNow`, compact a zone once this device has published this many
    /// log files there since its last snapshot, or has this many covered files left to delete;
    /// nil: only when asked (`SyncEngine.compact()`).
    public var automaticAfterFiles: Int64?

    public init(
        snapshotVisibleFor: TimeInterval = 86_400, inactiveAfter: TimeInterval = 30 * 86_400,
        automaticAfterFiles: Int64? = 1024, chunkUnreferencedFor: TimeInterval = 86_400
    ) {
        self.chunkUnreferencedFor = chunkUnreferencedFor
        self.snapshotVisibleFor = snapshotVisibleFor
        self.inactiveAfter = inactiveAfter
        self.automaticAfterFiles = automaticAfterFiles
    }
}

/// What one compaction did, per zone.
public struct CompactionSummary: Sendable, Equatable {
    public struct Zone: Sendable, Equatable {
        /// The seq of the snapshot written now (nil: none was needed).
        public var snapshotSeq: Int64?
        /// Revisions in that snapshot.
        public var snapshotRevisions = 0
        /// Our own log files deleted now, and the seq through which our log is now pruned.
        public var deleted = 0
        public var prunedThrough: Int64 = 0
        /// Why nothing (more) could be deleted yet, for people.
        public var waiting: String?
    }

    public var zones: [ZoneID: Zone] = [:]
    /// This device's own chunks collected after the zones' log files (rule 15); nil when the
    /// collection did not run (a publication half done).
    public var chunks: ChunkCollection?

    public init() {}
}
