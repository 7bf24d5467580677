import CloudFolder
import Foundation
import NotesCore

/// Moving a data directory from a plain container to the encrypted one made in its place
/// (`cloudnotes sync encrypt`, SYNC-FORMAT "Encrypting in place").
extension SyncEngine {
    /// Queues every revision this data directory holds for publication again, then binds it to
    /// `path` (the encrypted container) with a fresh engine state: no container yet (the next
    /// sync joins the one there), no tokens, nothing published. The device id stays. Queued
    /// first: a kill between the two leaves duplicates queued for the plain container, which
    /// content addressing makes harmless (rule 6), never a binding with nothing queued.
    /// Returns how many revisions were queued.
    @discardableResult
    public static func rebindToEncrypted(store: any SyncStore, path: String) throws -> Int {
        let old = try store.engineState().map(SyncEngineState.init(serialized:)) ?? SyncEngineState()
        var queued = 0
        for zone in old.zones.keys.sorted() { queued += try store.requeueZone(zone.rawValue) }
        try store.requeueNotebookNames()
        // The synced settings held here go out again to the new place (SYNC-FORMAT "Settings").
        try store.updateSettings { settings in
            settings.requeue()
            settings.seen = []
        }
        var fresh = SyncEngineState()
        fresh.deviceID = old.deviceID
        fresh.rotatedFrom = old.rotatedFrom
        try store.bindCloudFolder(path, engineState: fresh.serialized)
        return queued
    }
}
