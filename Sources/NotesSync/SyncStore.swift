import Foundation
import NotesCore

/// The local store as the sync engine sees it: the delegate of CKSyncEngine's design (ARCHITECTURE §1, §4).
///
/// NotesSync owns this protocol, so the engine is tested against any store and NotesStore
/// never imports NotesSync. Every requirement is in NotesCore terms; `NoteStore` meets it as
/// it stands (`extension NoteStore: SyncStore {}`). Calls are synchronous and may block on the
/// database; the engine makes them from its own actor, never from the UI.
public protocol SyncStore: Sendable {
    /// The device id local revisions are stamped with (a `DeviceID` of the cloud folder).
    var deviceID: String { get }

    /// Pending record zone changes after outbox seq `after`, oldest first, with their revisions.
    func pendingRecordZoneChanges(after outboxSeq: Int64, limit: Int) throws -> [(
        outboxSeq: Int64, zone: String, revision: Revision
    )]
    /// How many changes wait to be sent.
    func pendingCount() throws -> Int
    /// Removes sent changes and saves the engine state, in one transaction.
    func markSent(outboxSeqs: [Int64], engineState: String) throws

    /// The engine's state serialization, or nil before the first sync.
    func engineState() throws -> String?
    func saveEngineState(_ state: String) throws
    /// Binds the data directory to a cloud folder path and saves the engine state, in one
    /// transaction (`sync init`: both or neither).
    func bindCloudFolder(_ path: String, engineState: String) throws

    /// Applies fetched revisions and saves the engine state that covers them, in one
    /// transaction; records with several heads go through `resolve`, whose merge revision the
    /// store keeps and queues for sending.
    func applyFetchedRevisions(
        _ revisions: [Revision], engineState: String,
        resolve: (_ heads: [Revision], _ history: RevisionHistory) -> (merged: Revision?, conflict: Bool)
    ) throws -> (changed: [UUID], buffered: Int, merged: Int, clockSkew: Int)

    /// What the store can make of fetched revisions before it applies them, off the engine's
    /// thread: the engine calls it where it reads the next group of files while the group before
    /// is applied, and hands the result to `applyFetchedRevisions(_:prepared:…)` with that group
    /// (whose revisions may be fewer: the store uses only what fits them). Nil: nothing.
    func prepareFetched(_ revisions: [Revision]) -> (any Sendable)?
    /// `applyFetchedRevisions` with what `prepareFetched` made of the group (or nil).
    func applyFetchedRevisions(
        _ revisions: [Revision], prepared: (any Sendable)?, engineState: String,
        resolve: (_ heads: [Revision], _ history: RevisionHistory) -> (merged: Revision?, conflict: Bool)
    ) throws -> (changed: [UUID], buffered: Int, merged: Int, clockSkew: Int)

    /// Before a large group of fetched revisions: when the store holds no note (a new device's
    /// first sync), stops keeping the indexes an apply does not read by; whether it did. The
    /// engine calls `restoreDeferredIndexes` when its fetch ends.
    func deferIndexesForFirstSync() throws -> Bool
    /// Builds the indexes `deferIndexesForFirstSync` dropped (nothing when none are).
    func restoreDeferredIndexes() throws

    /// Of revision ids, those the store holds (in history or in the causal buffer), and those a
    /// revision in the causal buffer names as a parent (records waiting for a chunk, rule 15).
    func revisionPresence(_ ids: [String]) throws -> (known: Set<String>, awaited: Set<String>)

    /// How many notes are flagged `conflict`.
    func conflictCount() throws -> Int

    /// Queues every revision of the zone's notes again (the zone folder vanished without a
    /// marker: `userDeletedZone`); returns how many.
    @discardableResult
    func requeueZone(_ zone: String) throws -> Int
    /// Moves the zone's notes to the trash (the zone was deleted on purpose); returns how many.
    @discardableResult
    func trashZone(_ zone: String) throws -> Int

    /// What a zone snapshot holds (rule 11): every revision of the zone's notes except those
    /// still waiting in the outbox, and the causal buffer, read in one transaction.
    func snapshotRevisions(zone: String) throws -> [Revision]
    /// Makes every committed transaction durable (ARCHITECTURE §7: before compaction deletes files).
    func makeDurable() throws
    /// Replaces a note's unpublished revisions by one with its head's fields, when one of them
    /// is over the size limit and the head is publishable again; returns the new revision, or
    /// nil when nothing was replaced (`NoteStore.supersedeUnpublishable`).
    @discardableResult
    func supersedeUnpublishable(_ recordID: UUID, isPublishable: (Revision) -> Bool) throws -> Revision?
    /// Adopts a new device id after a clone was detected (rule 10): the store's id for its next
    /// open, the revisions stamped with the old id queued again, and the engine state, in one
    /// transaction. Returns how many revisions were queued.
    @discardableResult
    func rotateDeviceID(from old: String, to new: String, engineState: String) throws -> Int

    /// Calls `body` with the canonical fields bytes of each stored revision whose fields are
    /// over `bytes` bytes (they travel as chunks, rule 15), one at a time (`NoteStore.forEachLargeFields`).
    func forEachLargeFields(over bytes: Int, _ body: ([UInt8]) throws -> Void) throws

    /// Notebook display names set on this device and not yet published (SYNC-FORMAT rule 16).
    func pendingNotebookNames() throws -> [NotebookName]
    /// The name was published as `name` (its device the engine's id).
    func markNotebookNamePublished(_ name: NotebookName) throws
    /// The stamped display name held for a zone; nil when none was set or received.
    func notebookName(zone: String) throws -> NotebookName?
    /// Takes a name read from the folder when it is newer by `(hlc, device)`; whether it changed.
    @discardableResult
    func applyNotebookName(_ name: NotebookName) throws -> Bool
    /// Zones of notebooks deleted on this device whose deletion marker waits (rule 12).
    func pendingZoneDeletions() throws -> [String]
    func markZoneDeletionPublished(_ zone: String) throws
    /// Marks every stamped notebook name this device holds for publication again (a move to
    /// a new container, SYNC-FORMAT "Encrypting in place").
    func requeueNotebookNames() throws

    /// The settings that follow the person, as held here (SYNC-FORMAT "Settings").
    func settingsState() throws -> SettingsState
    /// Changes them in one transaction; nothing is written when `change` throws.
    @discardableResult
    func updateSettings<T>(_ change: (inout SettingsState) throws -> T) throws -> T
}

/// Stores without notebooks (test doubles) have no names to publish or take.
extension SyncStore {
    public func pendingNotebookNames() throws -> [NotebookName] { [] }
    public func markNotebookNamePublished(_ name: NotebookName) throws {}
    public func notebookName(zone: String) throws -> NotebookName? { nil }
    @discardableResult
    public func applyNotebookName(_ name: NotebookName) throws -> Bool { false }
    public func pendingZoneDeletions() throws -> [String] { [] }
    public func markZoneDeletionPublished(_ zone: String) throws {}
    public func requeueNotebookNames() throws {}
}

/// Stores with nothing to make ahead of an apply (test doubles, a shared notebook's) apply as
/// they are given.
extension SyncStore {
    public func prepareFetched(_ revisions: [Revision]) -> (any Sendable)? { nil }
    public func applyFetchedRevisions(
        _ revisions: [Revision], prepared: (any Sendable)?, engineState: String,
        resolve: (_ heads: [Revision], _ history: RevisionHistory) -> (merged: Revision?, conflict: Bool)
    ) throws -> (changed: [UUID], buffered: Int, merged: Int, clockSkew: Int) {
        try applyFetchedRevisions(revisions, engineState: engineState, resolve: resolve)
    }
}

/// Stores without indexes to defer (test doubles) keep them.
extension SyncStore {
    public func deferIndexesForFirstSync() throws -> Bool { false }
    public func restoreDeferredIndexes() throws {}
}

/// Stores without a history to read back (test doubles) hold no large fields.
extension SyncStore {
    public func forEachLargeFields(over bytes: Int, _ body: ([UInt8]) throws -> Void) throws {}
}

/// Stores without settings (test doubles) hold none and keep none.
extension SyncStore {
    public func settingsState() throws -> SettingsState { SettingsState() }
    @discardableResult
    public func updateSettings<T>(_ change: (inout SettingsState) throws -> T) throws -> T {
        var scratch = SettingsState()
        return try change(&scratch)
    }
}
