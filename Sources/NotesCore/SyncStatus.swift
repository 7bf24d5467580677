import Foundation

/// What the status bar says about sync: the engine's phase plus the counts a user acts on.
///
/// The sync engine publishes this (ARCHITECTURE §4) and the TUI shows it (§6). It lives in NotesCore
/// so the TUI builds and runs with sync off (`localOnly`) and lights up when an engine sends
/// other values.
public struct SyncStatus: Equatable, Sendable {
    /// What the sync engine is doing now.
    public enum Phase: Equatable, Sendable {
        /// No cloud folder is configured: notes live on this device only.
        case localOnly
        /// Nothing to do; `lastSync` is when the last sync finished (nil: never).
        case idle(lastSync: Date?)
        /// A sync is running: `done` of `total` records sent or fetched.
        case syncing(done: Int, total: Int)
        /// The cloud folder cannot be reached; changes queue locally.
        case offline(reason: String)
        /// The cloud refused this device's credentials (wrong or expired keys, a wrong
        /// passphrase); changes queue locally until they are put right.
        case signInFailed(reason: String)
        /// Sync failed in a way the user should see.
        case error(message: String)
    }

    public var phase: Phase
    /// Local changes not yet in the cloud folder (CKSyncEngine's pendingRecordZoneChanges).
    public var pendingCount: Int
    /// Notes with a conflict the user has to resolve.
    public var conflictCount: Int
    /// Notes whose pending changes stay on this device whatever the folder does (SYNC-FORMAT
    /// rule 13: a record over the size limit), and why, in a few words ("over the 1 MB limit").
    public var heldCount: Int
    public var heldReason: String?
    /// Files in the cloud folder the last fetch waited at: not arrived yet, or not checking out
    /// (torn, damaged, a seal that does not verify); `cloudnotes status` names them.
    public var waitingCount: Int
    /// Of those, files whose attachment has not fully arrived (SYNC-FORMAT rule 15): shown as
    /// "↻ waiting for attachment".
    public var attachmentWaitingCount = 0
    /// Chunks this device wrote that other devices wait for and that are missing or damaged in
    /// the cloud folder (SYNC-FORMAT rule 15): `cloudnotes sync --repair` writes them again.
    public var damagedChunkCount = 0
    /// The cloud folder is on the same disk (file system) as the data directory: what is
    /// "synced" there is not safe anywhere else (the out-of-the-box folder under XDG paths).
    public var cloudOnThisDisk = false

    public init(
        phase: Phase, pendingCount: Int = 0, conflictCount: Int = 0, heldCount: Int = 0, heldReason: String? = nil,
        waitingCount: Int = 0
    ) {
        self.phase = phase
        self.pendingCount = pendingCount
        self.conflictCount = conflictCount
        self.heldCount = heldCount
        self.heldReason = heldReason
        self.waitingCount = waitingCount
    }

    /// Sync is off: what the TUI shows until an engine reports.
    public static let localOnly = SyncStatus(phase: .localOnly)
}
