import CloudFolder
import Foundation
import NotesCore

/// Notebook names and deletions: SYNC-FORMAT rules 12 and 16.
extension SyncEngine {
    /// Publishes the names set here (one write-once `names/` file each), then the deletion
    /// markers of notebooks deleted here, once every change (their notes' moves to the trash
    /// among them) has gone out.
    func sendNotebookChanges(_ folder: any CloudFolder) throws {
        for var name in try store.pendingNotebookNames() {
            guard let zone = ZoneID(name.zone) else { continue }
            try ensureZone(zone, folder)
            name.device = device.rawValue
            try folder.publishNotebookName(name, zone: zone, device: device)
            try store.markNotebookNamePublished(name)
        }
        let deletions = try store.pendingZoneDeletions()
        guard !deletions.isEmpty, try store.pendingCount() == 0 else { return }
        for text in deletions {
            guard let zone = ZoneID(text) else { continue }
            if case .present = try folder.zoneStatus(zone) {
                try folder.markZoneDeleted(
                    zone, device: device, hlc: HLC(millis: configuration.now().millisecondsSince1970))
            }
            // Our own marker must not send notes restored here later to the trash (rule 12).
            state.deletedZones.insert(zone)
            try store.saveEngineState(state.serialized)
            try store.markZoneDeletionPublished(text)
        }
    }

    /// Writes the zone's name held here again, under this device's id with its original stamp:
    /// the zone folder was recreated (rule 12) and its `names/` files went with the old one, so a
    /// device that joins later would otherwise show the zone's id (rule 16). Identical bytes when
    /// the file is still there, which is harmless (rule 1).
    func republishNotebookName(_ zone: ZoneID, _ folder: any CloudFolder) throws {
        guard var name = try store.notebookName(zone: zone.rawValue) else { return }
        name.device = device.rawValue
        try folder.publishNotebookName(name, zone: zone, device: device)
        try store.markNotebookNamePublished(name)
    }

    /// Takes the zone's newest display name when it is newer than the one held here (rule 16).
    func fetchNotebookName(_ zone: ZoneID, _ folder: any CloudFolder) throws {
        let held = try store.notebookName(zone: zone.rawValue)
        guard let newer = try folder.latestNotebookName(zone: zone, after: held) else { return }
        try store.applyNotebookName(newer)
    }
}
