import CloudFolder
import Foundation
import NotesCore

/// Rejoining a container re-created after its folder was emptied (`sync init --restore`,
/// SYNC-FORMAT "Restoring an emptied folder").
extension SyncEngine {
    /// The container carries another `restored` stamp than the one this store last synced
    /// with: the files this store's tokens and published seqs describe are gone. Every revision
    /// it holds is queued again (content addressing makes the copies other devices send harmless,
    /// rule 6) and the engine starts over in the container: no tokens, nothing published, the
    /// same device id. Queued first, then saved: a kill between the two queues them again next
    /// time, never leaves a fresh state with nothing queued.
    func rejoinRestoredContainer(_ info: ContainerInfo) throws {
        var queued = 0
        for zone in state.zones.keys.sorted() { queued += try store.requeueZone(zone.rawValue) }
        try store.requeueNotebookNames()
        // The synced settings held here go out again to the new place (SYNC-FORMAT "Settings").
        try store.updateSettings { settings in
            settings.requeue()
            settings.seen = []
        }
        var fresh = SyncEngineState()
        fresh.containerID = info.containerID
        fresh.containerRestored = info.restored
        fresh.deviceID = state.deviceID
        fresh.rotatedFrom = state.rotatedFrom
        fresh.deviceNames = state.deviceNames
        try store.saveEngineState(fresh.serialized)
        state = fresh
        knownZones = []
        warn(
            "the cloud folder was emptied and re-created (restored by \(info.restored.map { String($0.prefix(16)) } ?? "?")): "
                + "this device sends its \(queued) revision(s) again, so what only it had is there again")
        emit(.stateUpdate(state))
    }
}
