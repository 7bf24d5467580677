import CloudFolder
import Foundation
import NotesCore

/// Device-id clone rotation (SYNC-FORMAT rule 10).
///
/// A copied data directory or a restored backup brings this device's id along: two stores
/// would then write one log. Whichever copy finds a file under the shared id that it did not
/// write (beyond the seq it recorded as published, or at the seq it is about to publish)
/// moves to a new random id: it keeps the old id's files as another device's log (read from
/// the last seq it wrote itself), queues every revision it stamped with the old id again, and
/// publishes from seq 1 under the new id. Nothing is overwritten; the copy that keeps the old
/// id never notices.
extension SyncEngine {
    /// Why this store looks like a clone, or nil: a log file under our id beyond what we
    /// recorded as published (the in-flight batch excepted: it may be ours).
    func cloneEvidence(_ folder: any CloudFolder) throws -> String? {
        for (zone, zoneState) in state.zones.sorted(by: { $0.key < $1.key }) {
            let head: Int64
            do {
                head = try folder.logHead(zone: zone, device: device, after: zoneState.published)
            } catch let error as CloudError where error.code == .zoneNotFound {
                continue
            }
            if head > zoneState.published && state.inFlight.map({ $0.zone == zone && $0.seq == head }) != true {
                return "zone \(zone) holds log files of device id \(device) beyond seq \(zoneState.published) that "
                    + "this device did not write (a copied data directory or a restored backup)"
            }
        }
        return nil
    }

    /// Moves this device to a new random id (rule 10). The old id's log stays in the folder as
    /// another device's: our token keeps it read through the last seq we published ourselves,
    /// so the other copy's files after it are fetched like any device's. Every revision stamped
    /// with the old id goes out again under the new one (what we published may have been
    /// shadowed by the other copy); the in-flight batch is dropped (its rows are still pending).
    func rotateDeviceID(because reason: String) throws {
        let old = device
        let new = DeviceID.random()
        var next = state
        next.deviceID = new
        next.rotatedFrom.append(old)
        next.inFlight = nil
        next.deviceFileWritten = nil
        for (zone, zoneState) in next.zones {
            var token = zoneState.token
            token[old] = min(token[old], zoneState.published)
            next.zones[zone] = SyncEngineState.Zone(token: token)
        }
        let queued = try store.rotateDeviceID(from: old.rawValue, to: new.rawValue, engineState: next.serialized)
        state = next
        device = new
        knownZones = []
        warn(
            "\(reason): this device now publishes as \(new) instead of \(old) and queued \(queued) of its "
                + "revision(s) to send again")
        emit(.stateUpdate(state))
    }

    /// What `status` says about past rotations, from the saved state.
    var rotationWarnings: [String] {
        guard let last = state.rotatedFrom.last else { return [] }
        let earlier = state.rotatedFrom.dropLast().map(\.rawValue)
        return [
            "this data directory was a copy of device \(last) (a copied data directory or a restored backup) "
                + "and now publishes as device \(device)"
                + (earlier.isEmpty ? "" : "; earlier ids: \(earlier.joined(separator: ", "))")
        ]
    }
}

/// Our own next log file already holds another writer's bytes (rule 10): the engine rotates.
/// Its description is the sentence a user sees should it ever reach one (a second clone in
/// one pass), never a debug dump.
struct OwnLogTaken: Error, CustomStringConvertible {
    var zone: ZoneID
    var seq: Int64
    var message: String

    var description: String {
        "log file \(seq) of this device in zone \(zone) holds another writer's bytes even after a new device id "
            + "(\(message)); the next sync tries again"
    }
}
