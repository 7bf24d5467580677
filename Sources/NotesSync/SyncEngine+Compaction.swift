import CloudFolder
import Foundation
import NotesCore

/// Compaction, the writing side (SYNC-FORMAT rule 11).
///
/// Per zone this device publishes to: 1. a snapshot `snapshots/<dev>-<seq>.json` at our own
/// published seq, holding every revision of the zone we hold (`SnapshotContent`) and the
/// change token it covers; 2. with the newest of our snapshots that has been in the folder for
/// `snapshotVisibleFor`, our own log files through
/// `min(its seq, what every active device acknowledged of our log, published - 1)` are
/// announced as pruned in our device file, the database is made durable, and the files are
/// deleted; our snapshots older than it go too. Readers tell the deleted files from a gap by that
/// snapshot's name (`SyncEngine+Snapshots.swift`). Only our own files are ever deleted (rule 1),
/// and the file at `published` always stays: it is where this device, and clone detection, see
/// the end of our log.
extension SyncEngine {
    /// Compacts every zone this device has published to; returns what it did and why not more.
    /// Holds the data directory's sync lock while it runs (`exclusive`).
    public func compact() async throws -> CompactionSummary {
        try await exclusive { try await compactLocked() }
    }

    /// `compact` under the sync lock.
    func compactLocked() async throws -> CompactionSummary {
        let folder = try prepareAccount()
        return try compactZones(folder) { _ in true }
    }

    /// After a sync: compacts the zones the policy says are due. A failure is a warning, never a
    /// failed sync.
    func compactIfDue() -> CompactionSummary? {
        guard let threshold = configuration.compaction.automaticAfterFiles, let folder else {
            return nil
        }
        let due = state.zones.filter { _, zone in
            let unsnapshotted = zone.published - (zone.snapshots.last?.seq ?? 0)
            let undeleted = (zone.snapshots.last?.seq ?? 0) - zone.deletedThrough
            return unsnapshotted >= threshold || undeleted >= threshold
        }
        guard !due.isEmpty else { return nil }
        do {
            return try compactZones(folder) { due[$0] != nil }
        } catch {
            warn("compaction failed (nothing is lost; it is tried again later): \(CloudError.userMessage(error))")
            return nil
        }
    }

    func compactZones(_ folder: any CloudFolder, where isDue: (ZoneID) -> Bool) throws -> CompactionSummary {
        let now = configuration.now().millisecondsSince1970
        var summary = CompactionSummary()
        var devices: [DeviceID: DeviceInfo?]?
        for zone in state.zones.keys.sorted() where isDue(zone) {
            guard let zoneState = state.zones[zone], zoneState.published > 1 else { continue }
            var result = CompactionSummary.Zone()
            if state.inFlight?.zone == zone {
                result.waiting = "a batch is still being published; sync first"
            } else if case .present = try folder.zoneStatus(zone) {
                try writeSnapshotIfNeeded(zone, folder, now: now, &result)
                if devices == nil { devices = try deviceFiles(folder) }
                try pruneOwnLog(zone, folder, now: now, devices: devices ?? [:], &result)
            } else {
                result.waiting = "the zone is not in the cloud folder"
            }
            summary.zones[zone] = result
        }
        try store.saveEngineState(state.serialized)
        // Chunks go after the log files that named them (rule 15); never while a batch whose
        // chunks are written is not yet published.
        if state.inFlight == nil {
            summary.chunks = try folder.collectOwnChunks(
                device: device, now: now, unreferencedFor: Int64(configuration.compaction.chunkUnreferencedFor * 1000))
        }
        return summary
    }

    /// Writes a snapshot at our published seq unless we have one there already.
    func writeSnapshotIfNeeded(
        _ zone: ZoneID, _ folder: any CloudFolder, now: Int64, _ result: inout CompactionSummary.Zone
    ) throws {
        guard var zoneState = state.zones[zone], (zoneState.snapshots.last?.seq ?? 0) < zoneState.published else {
            return
        }
        let seq = zoneState.published
        let revisions = try store.snapshotRevisions(zone: zone.rawValue)
        var covers = zoneState.token
        covers[device] = seq
        let (content, count) = SnapshotContent.state(revisions, assets: folder as? any AssetStore, device: device)
        let snapshot = Snapshot(device: device, seq: seq, hlc: HLC(millis: now), covers: covers, state: content)
        do {
            _ = try folder.publishSnapshot(snapshot, zone: zone)
            zoneState.snapshots.append(SyncEngineState.OwnSnapshot(seq: seq, written: now))
            result.snapshotSeq = seq
            result.snapshotRevisions = count
        } catch let error as CloudError where error.code == .serverRecordChanged {
            // One of ours at this seq from before a lost state (write-once: it stands). Adopted
            // when it checks out and covers our log through the seq; else another writer uses
            // our id, and the next session rotates.
            guard let existing = try folder.readSnapshot(zone: zone, device: device, seq: seq),
                existing.covers[device] == seq
            else { throw error }
            zoneState.snapshots.append(SyncEngineState.OwnSnapshot(seq: seq, written: existing.hlc.millis))
        }
        state.zones[zone] = zoneState
        try store.saveEngineState(state.serialized)
    }

    /// Announces and deletes what may go of our own log (see the type's comment).
    func pruneOwnLog(
        _ zone: ZoneID, _ folder: any CloudFolder, now: Int64, devices: [DeviceID: DeviceInfo?],
        _ result: inout CompactionSummary.Zone
    ) throws {
        guard var zoneState = state.zones[zone], let oldest = zoneState.snapshots.first else { return }
        result.prunedThrough = zoneState.deletedThrough
        let policy = configuration.compaction
        let visibleFor = Int64(policy.snapshotVisibleFor * 1000)
        guard let snapshot = zoneState.snapshots.last(where: { now - $0.written >= visibleFor }) else {
            result.waiting =
                "snapshot \(oldest.seq) has been in the folder for \((now - oldest.written) / 60_000) min; log files "
                + "go once it has been there for \(visibleFor / 60_000) min"
            return
        }
        var active = devices.filter { id, info in
            id != device && (info.map { now - $0.lastSeen <= Int64(policy.inactiveAfter * 1000) } ?? true)
        }
        // A device whose log we have read but whose device file has not arrived (replicators
        // deliver in any order) is active and has acknowledged nothing.
        for other in zoneState.token.seqByDevice.keys where other != device && devices[other] == nil {
            active[other] = .some(nil)
        }
        let acknowledged = active.mapValues { $0?.acknowledged[zone]?[device] ?? 0 }
        let floor = min(snapshot.seq, acknowledged.values.min() ?? .max, zoneState.published - 1)
        let behind = acknowledged.filter { $0.value < snapshot.seq }.keys.sorted()
        if !behind.isEmpty {
            result.waiting =
                "device(s) \(behind.map(\.rawValue).joined(separator: ", ")) have not read this device's log through "
                + "seq \(snapshot.seq) yet"
        }
        if floor > zoneState.pruned {
            // Announced (for people and other programs) before anything is deleted.
            zoneState.pruned = floor
            state.zones[zone] = zoneState
            try writeDeviceFileIfDue(now: now, force: true)
            try store.saveEngineState(state.serialized)
        }
        if zoneState.pruned > zoneState.deletedThrough {
            try store.makeDurable()
            result.deleted = try folder.removeOwnLogFiles(
                zone: zone, device: device, seqs: (zoneState.deletedThrough + 1)...zoneState.pruned)
            zoneState.deletedThrough = zoneState.pruned
            state.zones[zone] = zoneState
            try store.saveEngineState(state.serialized)
        }
        result.prunedThrough = zoneState.deletedThrough
        for name in try folder.snapshots(zone: zone).items where name.device == device && name.seq < snapshot.seq {
            try folder.removeOwnSnapshot(zone: zone, device: device, seq: name.seq)
        }
        zoneState.snapshots.removeAll { $0.seq < snapshot.seq }
        state.zones[zone] = zoneState
    }

    /// Every device file by device; nil for one that does not check out (torn, not arrived),
    /// which compaction counts as an active device that has acknowledged nothing.
    func deviceFiles(_ folder: any CloudFolder) throws -> [DeviceID: DeviceInfo?] {
        var files: [DeviceID: DeviceInfo?] = [:]
        for id in try folder.devices().items { files[id] = try? folder.readDevice(id) }
        remember(files.compactMapValues { $0?.name })
        return files
    }
}
