import CloudFolder
import Foundation
import NotesCore
import NotesStore
import NotesSync

/// The store as the engine of one shared place sees it (SYNC-FORMAT "Notes in a shared place"):
/// the changes of its notebook only, its own engine state, and a guard that nothing from the
/// place touches a note of another notebook.
struct SharedZoneStore: SyncStore, AttachmentContent {
    let base: NoteStore
    /// The shared notebook's zone (`s-<share>`).
    let zone: String
    let stateKey: String

    init(_ base: NoteStore, share: String) {
        self.base = base
        self.zone = NotebookSlug.sharedZone(share: share)
        self.stateKey = NoteStore.sharedEngineStateKey(share)
    }

    var deviceID: String { base.deviceID }

    /// A read-only member sends nothing: the others would refuse it (rule 20).
    func pendingRecordZoneChanges(after outboxSeq: Int64, limit: Int) throws -> [(
        outboxSeq: Int64, zone: String, revision: Revision
    )] {
        guard try base.readOnlyOwner(zone) == nil else { return [] }
        return try base.pendingRecordZoneChanges(after: outboxSeq, limit: limit, inZone: zone)
    }

    func pendingCount() throws -> Int { try base.pendingCount(inZone: zone) }

    func markSent(outboxSeqs: [Int64], engineState: String) throws {
        try base.markSent(outboxSeqs: outboxSeqs, engineState: engineState, stateKey: stateKey)
    }

    func engineState() throws -> String? { try base.engineState(stateKey: stateKey) }
    func saveEngineState(_ state: String) throws { try base.saveEngineState(state, stateKey: stateKey) }

    /// A place is joined by `share create` or `share accept`, never bound like the cloud folder.
    func bindCloudFolder(_ path: String, engineState: String) throws {
        try base.saveEngineState(engineState, stateKey: stateKey)
    }

    /// Applies what the place holds, but never a revision of a note this device keeps in another
    /// notebook: a member of the share may write any record id, and must not reach a private note.
    func applyFetchedRevisions(
        _ revisions: [Revision], engineState: String,
        resolve: (_ heads: [Revision], _ history: RevisionHistory) -> (merged: Revision?, conflict: Bool)
    ) throws -> (changed: [UUID], buffered: Int, merged: Int, clockSkew: Int) {
        let elsewhere = try base.notesOutsideZone(zone, among: Set(revisions.map(\.recordID)))
        let allowed = elsewhere.isEmpty ? revisions : revisions.filter { !elsewhere.contains($0.recordID) }
        return try base.applyFetchedRevisions(allowed, engineState: engineState, stateKey: stateKey, resolve: resolve)
    }

    func revisionPresence(_ ids: [String]) throws -> (known: Set<String>, awaited: Set<String>) {
        try base.revisionPresence(ids)
    }

    func conflictCount() throws -> Int { try base.conflictCount() }
    func requeueZone(_ zone: String) throws -> Int { try base.requeueZone(zone) }
    func trashZone(_ zone: String) throws -> Int { try base.trashZone(zone) }
    func snapshotRevisions(zone: String) throws -> [Revision] { try base.snapshotRevisions(zone: zone) }
    func makeDurable() throws { try base.makeDurable() }

    func supersedeUnpublishable(_ recordID: UUID, isPublishable: (Revision) -> Bool) throws -> Revision? {
        try base.supersedeUnpublishable(recordID, isPublishable: isPublishable)
    }

    func rotateDeviceID(from old: String, to new: String, engineState: String) throws -> Int {
        try base.rotateDeviceID(from: old, to: new, engineState: engineState, stateKey: stateKey)
    }

    func forEachLargeFields(over bytes: Int, _ body: ([UInt8]) throws -> Void) throws {
        try base.forEachLargeFields(over: bytes, body)
    }

    func pendingNotebookNames() throws -> [NotebookName] { try base.pendingNotebookNames(inZone: zone) }
    func markNotebookNamePublished(_ name: NotebookName) throws { try base.markNotebookNamePublished(name) }
    func notebookName(zone: String) throws -> NotebookName? { try base.notebookName(zone: zone) }

    /// Only the shared notebook's name is taken from its place.
    func applyNotebookName(_ name: NotebookName) throws -> Bool {
        name.zone == zone ? try base.applyNotebookName(name) : false
    }

    /// A shared notebook is left (`share leave`), never deleted through its place.
    func pendingZoneDeletions() throws -> [String] { [] }
    func markZoneDeletionPublished(_ zone: String) throws {}
    func requeueNotebookNames() throws { try base.requeueNotebookNames() }

    /// Settings follow the person through the private cloud folder only.
    func settingsState() throws -> SettingsState { SettingsState() }
    func updateSettings<T>(_ change: (inout SettingsState) throws -> T) throws -> T {
        var scratch = SettingsState()
        return try change(&scratch)
    }

    // MARK: AttachmentContent

    func hasAttachmentContent(sha256: String) -> Bool { base.hasAttachmentContent(sha256: sha256) }

    func readAttachmentContent(sha256: String, chunkSize: Int, _ body: (ArraySlice<UInt8>) throws -> Void) throws
        -> Bool
    {
        try base.readAttachmentContent(sha256: sha256, chunkSize: chunkSize, body)
    }

    func receiveAttachmentContent(
        sha256: String, size: Int64, _ fill: ((ArraySlice<UInt8>) throws -> Void) throws -> Void
    ) throws {
        try base.receiveAttachmentContent(sha256: sha256, size: size, fill)
    }

    func cloudChunks(sha256: String, folder: String) throws -> [String]? {
        try base.cloudChunks(sha256: sha256, folder: folder)
    }

    func rememberCloudChunks(_ names: [String], sha256: String, folder: String) throws {
        try base.rememberCloudChunks(names, sha256: sha256, folder: folder)
    }

    func rememberOwnChunks(_ names: [String], folder: String) throws {
        try base.rememberOwnChunks(names, folder: folder)
    }
    func ownChunks(folder: String) throws -> Set<String> { try base.ownChunks(folder: folder) }
    func forgetOwnChunks(_ names: [String], folder: String) throws { try base.forgetOwnChunks(names, folder: folder) }
    func ownChunksUnreferenced(folder: String) throws -> [String: Int64] {
        try base.ownChunksUnreferenced(folder: folder)
    }

    func markOwnChunksUnreferenced(_ unreferenced: Set<String>, since: Int64, folder: String) throws {
        try base.markOwnChunksUnreferenced(unreferenced, since: since, folder: folder)
    }

    func liveAttachmentContents() throws -> Set<String> { try base.liveAttachmentContents() }
}
