import CloudFolder
import Foundation
import NotesCore

/// Sending pending record zone changes: SYNC-FORMAT rules 1–3 and 13, §4.
extension SyncEngine {
    /// A record over this many bytes of text may be over the limit once JSON-escaped; only
    /// those are measured before planning.
    var recordSizeCheckThreshold: Int { configuration.maxRecordBytes / 6 }

    /// Publishes every pending change that can go, in batches of at most 400 records / 2 MB,
    /// one log file each. A record over 1 MB stays local (`limitExceeded`, in `status` and the
    /// summary) together with its later revisions, so no device ever waits for a parent that
    /// will not come; the other records go out.
    /// Holds the data directory's sync lock while it runs (`exclusive`).
    public func sendChanges() async throws -> SendSummary {
        try await exclusive { try await sendChangesLocked() }
    }

    /// `sendChanges` under the sync lock.
    func sendChangesLocked() async throws -> SendSummary {
        let folder = try prepareAccount()
        emit(.willSendChanges)
        defer { emit(.didSendChanges) }
        var summary = SendSummary()
        do {
            try sendPending(folder, &summary)
        } catch let taken as OwnLogTaken {
            // Another copy of this data directory took our next seq: rotate, send again.
            try rotateDeviceID(
                because: "log file \(taken.seq) of device id \(device) in zone \(taken.zone) holds another writer's "
                    + "bytes (\(taken.message))")
            try sendPending(folder, &summary)
        }
        try sendNotebookChanges(folder)
        if !summary.failed.isEmpty {
            emit(.sentRecordZoneChanges(zone: ZoneID.notes, saved: [], failed: summary.failed))
        }
        return summary
    }

    /// Publishes the in-flight batch, then every pending change (see `sendChanges`). A note held
    /// back by a revision over the limit whose head is publishable again has its unpublished
    /// revisions replaced by one (`SyncStore.supersedeUnpublishable`), which then goes out.
    private func sendPending(_ folder: any CloudFolder, _ summary: inout SendSummary) throws {
        if let flight = state.inFlight { try republish(flight, folder, &summary) }
        var held = try sendQueued(folder, &summary)
        var superseded = false
        for (recordID, _) in held.sorted(by: { $0.key.uuidString < $1.key.uuidString }) {
            if try store.supersedeUnpublishable(recordID, isPublishable: { oversize($0) == nil }) != nil {
                held[recordID] = nil
                superseded = true
            }
        }
        if superseded { held.merge(try sendQueued(folder, &summary)) { first, _ in first } }
        limitExceeded = held.mapValues(\.message)
        state.held = Dictionary(uniqueKeysWithValues: held.map { ($0.key.lowercasedString, $0.value.message) })
        for (recordID, error) in held.sorted(by: { $0.key.uuidString < $1.key.uuidString }) {
            warn(error.message)
            summary.failed.append(SyncEvent.FailedRecord(recordID: recordID, error: error))
        }
    }

    /// One pass over the outbox: publishes what can go; returns the notes held back by a
    /// revision over the limit (with that revision's error).
    private func sendQueued(_ folder: any CloudFolder, _ summary: inout SendSummary) throws -> [UUID: CloudError] {
        var after: Int64 = 0
        var held: [UUID: CloudError] = [:]
        let total = (try? store.pendingCount()) ?? 0
        // Zones this pass has published to: the log end was checked before the pass's first
        // batch of each (ensureZone's two probes) and is where that batch left it.
        var publishedTo = Set<ZoneID>()
        while true {
            let rows = try store.pendingRecordZoneChanges(after: after, limit: ChangeBatch.maxRecords)
            guard let last = rows.last else { break }
            after = last.outboxSeq
            var groups: [(zone: ZoneID, rows: [(outboxSeq: Int64, revision: Revision)])] = []
            for row in rows {
                let revision = row.revision
                if held[revision.recordID] != nil { continue }
                if let error = oversize(revision) {
                    held[revision.recordID] = error
                    continue
                }
                guard let zone = ZoneID(row.zone) else {
                    warn("a pending change names an invalid zone \"\(row.zone)\"; it stays local")
                    continue
                }
                if let index = groups.firstIndex(where: { $0.zone == zone }) {
                    groups[index].rows.append((row.outboxSeq, revision))
                } else {
                    groups.append((zone, [(row.outboxSeq, revision)]))
                }
            }
            for group in groups {
                let (revisions, seqsByRevision) = Self.unique(group.rows)
                for batch in ChangeBatch.plan(revisions, maxRecordBytes: configuration.maxRecordBytes).batches {
                    let seqs = batch.records.flatMap { seqsByRevision[$0.revision.id] ?? [] }
                    try publish(
                        batch, zone: group.zone, outboxSeqs: seqs, folder, &summary,
                        checkZone: !publishedTo.contains(group.zone))
                    publishedTo.insert(group.zone)
                    setPhase(.syncing(done: summary.sent, total: max(total, summary.sent)))
                }
            }
        }
        return held
    }

    /// The limitExceeded error when a revision's record is over the limit, measured only for large ones.
    func oversize(_ revision: Revision) -> CloudError? {
        guard let fields = revision.fields,
            fields.body.utf8.count + fields.title.utf8.count > recordSizeCheckThreshold
        else { return nil }
        do {
            _ = try ChangeRecord(revision).json(estimating: true, maxBytes: configuration.maxRecordBytes)
            return nil
        } catch let error as CloudError {
            return error
        } catch {
            return CloudError(.internalError, "\(error)")
        }
    }

    /// Revisions in outbox order without repeats, and the outbox seqs of each.
    static func unique(_ rows: [(outboxSeq: Int64, revision: Revision)]) -> ([Revision], [String: [Int64]]) {
        var revisions: [Revision] = []
        var seqs: [String: [Int64]] = [:]
        for row in rows {
            if seqs[row.revision.id] == nil { revisions.append(row.revision) }
            seqs[row.revision.id, default: []].append(row.outboxSeq)
        }
        return (revisions, seqs)
    }

    /// Publishes one batch as the next seq of this device's log in `zone`: the batch is written
    /// to the state first (in flight), then to the folder, then the outbox rows are marked sent
    /// with the new seq in one transaction (rule 2). `checkZone` false: this pass has just
    /// published the zone's previous seq, so `ensureZone` is not asked again (on a bucket its
    /// probes were 3 of a batch's 6 requests); the publication still checks the zone folder and
    /// never overwrites a file.
    func publish(
        _ batch: ChangeBatch, zone: ZoneID, outboxSeqs: [Int64], _ folder: any CloudFolder,
        _ summary: inout SendSummary, checkZone: Bool = true
    ) throws {
        if checkZone { try ensureZone(zone, folder) }
        let seq = (state.zones[zone]?.published ?? 0) + 1
        let hlc = batch.records.map(\.revision.hlc).max() ?? .zero
        let flight = SyncEngineState.InFlight(zone: zone, seq: seq, hlc: hlc, outboxSeqs: outboxSeqs)
        state.inFlight = flight
        try store.saveEngineState(state.serialized)
        try finish(flight, batch: batch, folder, &summary)
    }

    /// After a crash: publishes the in-flight batch again, built from the same outbox rows in
    /// the same order, so the bytes are identical and an earlier success reads as `alreadyPublished`.
    func republish(_ flight: SyncEngineState.InFlight, _ folder: any CloudFolder, _ summary: inout SendSummary) throws {
        let wanted = Set(flight.outboxSeqs)
        let low = (flight.outboxSeqs.min() ?? 1) - 1
        let span = Int((flight.outboxSeqs.max() ?? 0) - low)
        let rows = try store.pendingRecordZoneChanges(after: low, limit: max(span, 1))
            .filter { wanted.contains($0.outboxSeq) }
        guard !rows.isEmpty else {
            state.inFlight = nil
            try store.saveEngineState(state.serialized)
            return
        }
        let (revisions, _) = Self.unique(rows.map { ($0.outboxSeq, $0.revision) })
        let batch = ChangeBatch(records: revisions.map { ChangeRecord($0) })
        try ensureZone(flight.zone, folder)
        try finish(
            SyncEngineState.InFlight(
                zone: flight.zone, seq: flight.seq, hlc: flight.hlc, outboxSeqs: rows.map(\.outboxSeq)),
            batch: batch, folder, &summary)
    }

    private func finish(
        _ flight: SyncEngineState.InFlight, batch: ChangeBatch, _ folder: any CloudFolder, _ summary: inout SendSummary
    ) throws {
        do {
            _ = try folder.publish(batch, zone: flight.zone, device: device, seq: flight.seq, hlc: flight.hlc)
        } catch let error as CloudError where error.code == .serverRecordChanged {
            // Nothing was overwritten; another writer uses our id (rule 10).
            throw OwnLogTaken(zone: flight.zone, seq: flight.seq, message: error.message)
        }
        var zoneState = state.zones[flight.zone] ?? SyncEngineState.Zone()
        zoneState.published = flight.seq
        // Our own log need not be read back: the token covers it up to what we published.
        if zoneState.token[device] == flight.seq - 1 { zoneState.token[device] = flight.seq }
        state.zones[flight.zone] = zoneState
        state.inFlight = nil
        try store.markSent(outboxSeqs: flight.outboxSeqs, engineState: state.serialized)
        summary.sent += batch.records.count
        summary.batches += 1
        emit(.sentRecordZoneChanges(zone: flight.zone, saved: batch.records.map(\.revision.id), failed: []))
    }

    /// Creates the zone folder the first time this device writes to it.
    func ensureZone(_ zone: ZoneID, _ folder: any CloudFolder) throws {
        if let known = state.zones[zone], known.published > 0 {
            // Our log must still end where we left it: two probes per batch.
            if try folder.logHead(zone: zone, device: device, after: known.published - 1) == known.published { return }
            if case .missing = try folder.zoneStatus(zone) {
                try recreate(zone, folder)
            } else {
                try forgetRewoundLogs(zone, folder)
            }
            return
        }
        if state.zones[zone] != nil, knownZones.contains(zone) { return }
        switch try folder.zoneStatus(zone) {
        case .present:
            break
        case .deleted(let by):
            warn(
                "zone \(zone) was deleted on purpose by \(by.map(\.rawValue).joined(separator: ", ")); changes to it still go out"
            )
        case .missing:
            if let known = state.zones[zone], known.published > 0 || !known.token.seqByDevice.isEmpty {
                try recreate(zone, folder)
            } else {
                _ = try folder.createZone(
                    ZoneInfo(zone: zone, displayName: zone.rawValue, createdBy: device),
                    hlc: HLC(millis: configuration.now().millisecondsSince1970))
            }
        }
        knownZones.insert(zone)
    }
}
