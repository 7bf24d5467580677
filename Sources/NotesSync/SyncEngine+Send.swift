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
    /// back by a revision over the limit whose head is publishable again, or by a revision that
    /// did not fit in a full cloud folder when the note has changed since (an attachment
    /// detached, the note purged), has its unpublished revisions replaced by one
    /// (`SyncStore.supersedeUnpublishable`), which then goes out.
    private func sendPending(_ folder: any CloudFolder, _ summary: inout SendSummary) throws {
        if let flight = state.inFlight {
            do {
                try republish(flight, folder, &summary)
            } catch let error as CloudError where error.code == .quotaExceeded {
                // What did not fit is sent again below, a note at a time (issue 21 item 13).
                try forgetFlightThatDidNotFit(error, folder)
            }
        }
        var didNotFit: [UUID: String] = [:]
        var held = try sendQueued(folder, &summary, didNotFit: &didNotFit)
        var superseded = false
        for (recordID, _) in held.sorted(by: { $0.key.uuidString < $1.key.uuidString }) {
            let stuck = didNotFit[recordID]
            let replacement = try store.supersedeUnpublishable(
                recordID, isPublishable: { oversize($0) == nil && $0.id != stuck })
            if replacement != nil {
                held[recordID] = nil
                superseded = true
            }
        }
        if superseded {
            held.merge(try sendQueued(folder, &summary, didNotFit: &didNotFit)) { first, _ in first }
        }
        roomWaits = roomWaits.filter { held[$0.key] != nil }
        limitExceeded = held.mapValues(\.message)
        state.held = Dictionary(uniqueKeysWithValues: held.map { ($0.key.lowercasedString, $0.value.message) })
        for (recordID, error) in held.sorted(by: { $0.key.uuidString < $1.key.uuidString }) {
            warn(error.message)
            summary.failed.append(SyncEvent.FailedRecord(recordID: recordID, error: error))
        }
    }

    /// One pass over the outbox: publishes what can go; returns the notes held back by a
    /// revision over the limit or one that did not fit in a full cloud folder (with its error).
    ///
    /// Once a batch does not fit (`quotaExceeded`), the rest of the pass goes a revision per log
    /// file, so what fits still goes out: a revision that does not fit holds only its note
    /// (`didNotFit` names that revision), whose later revisions wait behind it. When even a
    /// revision with nothing large (no attachment, fields inline) does not fit, the cloud folder
    /// is full for everything and the error ends the pass.
    private func sendQueued(
        _ folder: any CloudFolder, _ summary: inout SendSummary, didNotFit: inout [UUID: String]
    ) throws -> [UUID: CloudError] {
        var after: Int64 = 0
        var held: [UUID: CloudError] = [:]
        // For the progress line only. While the pass publishes, the status's pending count is
        // this less the outbox rows sent, not the outbox counted again after each batch (a
        // scan of it: a fifth of the publishing thread of 100k notes); what is saved meanwhile
        // is counted when the pass ends.
        let total = (try? store.pendingCount()) ?? 0
        var rowsSent = 0
        // Zones this pass has published to: the log end was checked before the pass's first
        // batch of each (ensureZone's two probes) and is where that batch left it.
        var publishedTo = Set<ZoneID>()
        var oneByOne = false
        // The next rows are read on another thread while these are published (a publish of many
        // notes spent a third of its time reading them). Outbox rows are only ever added after
        // the last one or deleted, so the rows read ahead are the ones a read after the
        // publication would give, but for rows added meanwhile, which come in a later read;
        // an empty read ahead is read again before the pass ends, for the same reason.
        // Each record is encoded there too (`encodedOnce`), for the plan and the log file.
        let store = self.store
        @Sendable func read(after: Int64) throws -> Pending {
            let rows = try store.pendingRecordZoneChanges(after: after, limit: ChangeBatch.maxRecords)
            var records: [String: ChangeRecord] = [:]
            for row in rows where records[row.revision.id] == nil {
                records[row.revision.id] = ChangeRecord(row.revision).encodedOnce()
            }
            return Pending(rows: rows, records: records)
        }
        var ahead: BackgroundResult<Pending>?
        while true {
            var pending = try ahead?.get() ?? Pending(rows: [], records: [:])
            if pending.rows.isEmpty { pending = try read(after: after) }
            let rows = pending.rows
            guard let last = rows.last else { break }
            after = last.outboxSeq
            ahead = BackgroundResult { [after] in try read(after: after) }
            var groups: [(zone: ZoneID, rows: [(outboxSeq: Int64, revision: Revision)])] = []
            for row in rows {
                let revision = row.revision
                if held[revision.recordID] != nil { continue }
                if let wait = roomWaits[revision.recordID] {
                    // Still the revision that did not fit, and not yet its time: waits again.
                    if wait.revisionID == revision.id, configuration.now().millisecondsSince1970 < wait.notBefore {
                        held[revision.recordID] = wait.error
                        didNotFit[revision.recordID] = revision.id
                        continue
                    }
                }
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
                let records = revisions.map { pending.records[$0.id] ?? ChangeRecord($0) }
                for batch in ChangeBatch.plan(records, maxRecordBytes: configuration.maxRecordBytes).batches {
                    let parts =
                        oneByOne ? batch.records.map { ChangeBatch(records: [$0]) } : [batch]
                    for part in parts {
                        if oneByOne, let record = part.records.first, held[record.revision.recordID] != nil {
                            continue
                        }
                        let seqs = part.records.flatMap { seqsByRevision[$0.revision.id] ?? [] }
                        do {
                            try publish(
                                part, zone: group.zone, outboxSeqs: seqs, folder, &summary,
                                checkZone: !publishedTo.contains(group.zone))
                        } catch let error as CloudError where error.code == .quotaExceeded {
                            try forgetFlightThatDidNotFit(error, folder)
                            if !oneByOne {
                                // Again a revision at a time, this batch's first.
                                oneByOne = true
                                try publishOneByOne(
                                    part, zone: group.zone, seqsByRevision, folder, &summary,
                                    held: &held, didNotFit: &didNotFit)
                                continue
                            }
                            try holdWhatDidNotFit(part, error, held: &held, didNotFit: &didNotFit)
                            continue
                        }
                        publishedTo.insert(group.zone)
                        rowsSent += seqs.count
                        setPhase(
                            .syncing(done: summary.sent, total: max(total, summary.sent)),
                            pendingCount: max(0, total - rowsSent))
                    }
                }
            }
        }
        return held
    }

    /// Publishes a batch that did not fit again a revision per log file, skipping the notes
    /// already held; a revision that does not fit holds its note (`holdWhatDidNotFit`).
    private func publishOneByOne(
        _ batch: ChangeBatch, zone: ZoneID, _ seqsByRevision: [String: [Int64]], _ folder: any CloudFolder,
        _ summary: inout SendSummary, held: inout [UUID: CloudError], didNotFit: inout [UUID: String]
    ) throws {
        for record in batch.records where held[record.revision.recordID] == nil {
            let single = ChangeBatch(records: [record])
            do {
                try publish(single, zone: zone, outboxSeqs: seqsByRevision[record.revision.id] ?? [], folder, &summary)
            } catch let error as CloudError where error.code == .quotaExceeded {
                try forgetFlightThatDidNotFit(error, folder)
                try holdWhatDidNotFit(single, error, held: &held, didNotFit: &didNotFit)
            }
        }
    }

    /// Holds the note of a one-revision batch that did not fit, with the reason a person reads;
    /// rethrows when the revision carries nothing large (then nothing fits).
    private func holdWhatDidNotFit(
        _ single: ChangeBatch, _ error: CloudError, held: inout [UUID: CloudError], didNotFit: inout [UUID: String]
    ) throws {
        guard let revision = single.records.first?.revision, Self.needsRoom(revision) else { throw error }
        let waiting = CloudError(.quotaExceeded, Self.waitsForRoom(revision, error))
        held[revision.recordID] = waiting
        didNotFit[revision.recordID] = revision.id
        let attempts = (roomWaits[revision.recordID].map { $0.revisionID == revision.id ? $0.attempts : 0 } ?? 0) + 1
        // The shortest delay the policy draws: a scheduled retry never comes before it is due.
        let delay = configuration.retry.delay(attempt: attempts, unit: 0)
        roomWaits[revision.recordID] = RoomWait(
            revisionID: revision.id, error: waiting, attempts: attempts,
            notBefore: configuration.now().millisecondsSince1970 + Int64(delay * 1000))
    }

    /// Whether a revision carries something large: an attachment, or fields that travel as an asset.
    static func needsRoom(_ revision: Revision) -> Bool {
        guard let fields = revision.fields else { return false }
        return !fields.attachments.isEmpty
            || fields.body.utf8.count + fields.title.utf8.count > ChangeRecord.inlineFieldsBytes / 2
    }

    /// Why a note waits in a full cloud folder, in a person's words. A note in the trash still
    /// carries its attachments (restoring it brings them back), so its removal waits with them;
    /// purging it lets the removal go out at once (D-123, D-143).
    static func waitsForRoom(_ revision: Revision, _ error: CloudError) -> String {
        let size = (revision.fields?.attachments ?? []).reduce(Int64(0)) { $0 + $1.size }
        let megabytes = String(format: "%.1f MB", Double(size) / 1_048_576)
        let what = size > 0 ? "its attachments (\(megabytes))" : "it"
        let id = revision.recordID.lowercasedString
        guard revision.fields?.deletedAt == nil else {
            return "note \(id), in the trash, waits on this device: \(fullCloudFolder) and \(what) did not fit "
                + "(\(error.message)); other devices keep the note until there is room, or until it is purged "
                + "(`cloudnotes purge \(id)`)"
        }
        return "note \(id) waits on this device: \(fullCloudFolder) and \(what) "
            + "did not fit (\(error.message)); it goes out once there is room, or once the large file is detached "
            + "or the note purged"
    }

    /// After a publication that did not fit: forgets the in-flight batch when its log file is not
    /// in the folder (its seq is then free for what goes next); rethrows `error` when it is (the
    /// write got as far as the file, so the same bytes are published again by the next pass).
    private func forgetFlightThatDidNotFit(_ error: CloudError, _ folder: any CloudFolder) throws {
        guard let flight = state.inFlight else { return }
        if try folder.logHead(zone: flight.zone, device: device, after: flight.seq - 1) >= flight.seq { throw error }
        state.inFlight = nil
        try store.saveEngineState(state.serialized)
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

    /// Pending changes as one read gives them, with each revision's record (`encodedOnce`).
    struct Pending: Sendable {
        var rows: [(outboxSeq: Int64, zone: String, revision: Revision)]
        var records: [String: ChangeRecord]
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
