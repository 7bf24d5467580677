import CloudFolder
import Foundation
import NotesCore

/// Compaction, the reading side: `changeTokenExpired` (SYNC-FORMAT rule 11).
///
/// A fetch that finds a device's next file missing below a snapshot of that device's own (it
/// may have deleted its files up to there) loads the snapshots that cover them: the snapshot's
/// revisions go through the normal apply path (known ones are skipped, content addressing
/// dedups, new heads merge with our pending edits, which stay queued and go out as usual), and
/// for each expired device the token becomes the larger of ours and the snapshot's (the other
/// devices' logs are read as usual: a snapshot only fills the hole compaction left). The fetch
/// then continues from there. Without a covering snapshot nothing is skipped: the stream waits.
extension SyncEngine {
    /// Loads covering snapshots, newest first; returns whether any was loaded.
    func loadCoveringSnapshots(
        _ zone: ZoneID, _ folder: any CloudFolder, expired: [DeviceID: Int64], _ summary: inout FetchSummary
    ) throws -> Bool {
        var remaining = expired
        let devices = expired.keys.sorted().map(\.rawValue).joined(separator: ", ")
        warn(
            "changeTokenExpired: in zone \(zone) the log of \(devices) was compacted past what this device had read; "
                + "loading a snapshot")
        var candidates = try folder.snapshots(zone: zone).items.reversed().map { $0 }
        var loaded = false
        while !remaining.isEmpty {
            let token = state.zones[zone]?.token ?? .empty
            var best: (index: Int, snapshot: Snapshot, resolves: Int)?
            for (index, name) in candidates.enumerated() {
                guard let snapshot = try folder.readSnapshot(zone: zone, device: name.device, seq: name.seq) else {
                    continue
                }
                let resolves = remaining.filter { max(token[$0.key], snapshot.covers[$0.key]) >= $0.value }.count
                if resolves > (best?.resolves ?? 0) { best = (index, snapshot, resolves) }
                if resolves == remaining.count { break }
            }
            guard let best else { break }
            candidates.remove(at: best.index)
            if try load(best.snapshot, zone: zone, for: Set(remaining.keys), &summary) { loaded = true }
            let after = state.zones[zone]?.token ?? .empty
            remaining = remaining.filter { $0.value > after[$0.key] }
        }
        if !remaining.isEmpty {
            warn(
                "zone \(zone): no snapshot covering the compacted log of "
                    + "\(remaining.keys.sorted().map(\.rawValue).joined(separator: ", ")) has arrived yet; waiting for one"
            )
        }
        return loaded
    }

    /// Applies one snapshot, moving the tokens of `expired` devices up to what it covers; false
    /// when its content does not check out (it is then skipped).
    func load(_ snapshot: Snapshot, zone: ZoneID, for expired: Set<DeviceID>, _ summary: inout FetchSummary) throws
        -> Bool
    {
        let batch: ChangeBatch
        do {
            batch = try SnapshotContent.revisions(snapshot.state, assets: folder as? any AssetStore)
        } catch {
            warn(
                "snapshot \(snapshot.device)-\(snapshot.seq) of zone \(zone) does not check out (\(CloudError.userMessage(error))); skipped"
            )
            return false
        }
        let fetched = FetchedBatch(
            device: snapshot.device, seq: snapshot.seq, hlc: snapshot.hlc, batch: batch)
        var zoneState = state.zones[zone] ?? SyncEngineState.Zone()
        // Our own log is never expired for us (we never delete the file at our published seq).
        for other in expired where other != device && snapshot.covers[other] > zoneState.token[other] {
            zoneState.token[other] = snapshot.covers[other]
        }
        let file = "private/zones/\(zone)/snapshots/\(snapshot.device)-\(CloudLayout.padded(snapshot.seq)).json"
        try apply(accepted(fetched, zone: zone, file: file), zone: zone, zoneState: zoneState, &summary)
        summary.snapshotsLoaded += 1
        logger.info(
            "loaded snapshot \(snapshot.device)-\(snapshot.seq) of zone \(zone): \(batch.records.count) revision(s)")
        return true
    }
}
