import CloudFolder
import Foundation
import NotesCore

/// Records waiting for a chunk (SYNC-FORMAT rule 15, "Reading"): a record whose chunk is
/// missing or does not check out holds only its note. The rest of its file, and the files after
/// it, are applied; the record is kept in the engine state and tried again at every fetch.
extension SyncEngine {
    /// At most this many records wait at once, and at most this many bytes of them (the engine
    /// state holds them whole): past that, a stream waits at the file, as for any file that does
    /// not check out, until some of them arrive.
    static let maxWaitingRecords = 256
    static let maxWaitingBytes = 4 * 1_048_576
    /// Waiting records named in a warning each at every sync; the rest are counted in one.
    static let waitingNamed = 10

    /// What of a fetch is applied now: its batches up to where a stream was held, the token
    /// that covers them, and the records of theirs that wait for a chunk.
    struct HeldChanges {
        var batches: [FetchedBatch] = []
        var token: ChangeToken
        var waiting: [SyncEngineState.Waiting] = []
        /// A stream stopped at a file because too many records wait already.
        var stopped = false
    }

    /// Splits a fetch's batches into what applies now and the records that wait (each one once,
    /// by revision id). Renamed copies' waiting records are kept when there is room (they are
    /// duplicates of their original, which is read anyway).
    func holdWaiting(_ changes: FetchedChanges, zone: ZoneID, _ summary: inout FetchSummary) -> HeldChanges {
        var held = HeldChanges(token: changes.token)
        var seen = Set(state.waiting.map(\.record.rev))
        var count = state.waiting.count
        var bytes = state.waiting.reduce(0) { $0 + $1.record.record.canonicalBytes.count }
        var stoppedAt: [DeviceID: Int64] = [:]
        func fits(_ records: [WaitingRecord]) -> Bool {
            let size = records.reduce(0) { $0 + $1.record.canonicalBytes.count }
            guard count + records.count <= Self.maxWaitingRecords, bytes + size <= Self.maxWaitingBytes else {
                return false
            }
            count += records.count
            bytes += size
            return true
        }
        for fetched in changes.batches where stoppedAt[fetched.device] == nil {
            let fresh = fetched.batch.waiting.filter { !seen.contains($0.rev) }
            guard fits(fresh) else {
                stoppedAt[fetched.device] = fetched.seq
                held.token[fetched.device] = fetched.seq - 1
                summary.notArrived += 1
                warn(
                    "waiting for \(Self.logPath(zone, fetched.device, fetched.seq)): \(count) change(s) already "
                        + "wait for chunks here, as many as this device keeps; it is read once some of them arrive")
                continue
            }
            for record in fresh where seen.insert(record.rev).inserted {
                held.waiting.append(
                    SyncEngineState.Waiting(zone: zone, device: fetched.device, seq: fetched.seq, record: record))
            }
            held.batches.append(fetched)
        }
        for copy in changes.copies {
            let fresh = copy.batch.batch.waiting.filter { !seen.contains($0.rev) }
            guard !fresh.isEmpty, fits(fresh) else { continue }
            for record in fresh where seen.insert(record.rev).inserted {
                held.waiting.append(
                    SyncEngineState.Waiting(zone: zone, device: copy.batch.device, seq: copy.batch.seq, record: record))
            }
        }
        held.stopped = !stoppedAt.isEmpty
        return held
    }

    /// Tries every waiting record again and applies those that now read (their chunks arrived
    /// or were repaired), in one transaction with the engine state that no longer lists them.
    /// A waiting record a later revision of its note names as a parent is history: it applies
    /// without its attachments' content, as a snapshot's history record does (rule 15), so the
    /// later revision is not held behind it; one whose text is in the missing chunk goes on
    /// waiting, and its note with it. `readThisPass`: records read (and found waiting) by this
    /// very fetch, not read twice. Order needs nothing more: the store applies by ancestry, so a
    /// record that applies after its note's later revisions never takes their place.
    func retryWaiting(_ folder: any CloudFolder, readThisPass: Set<String>, _ summary: inout FetchSummary) throws {
        guard !state.waiting.isEmpty else { return }
        let assets = folder as? any AssetStore
        let presence = try store.revisionPresence(state.waiting.map(\.record.rev))
        var ready: [Revision] = []
        var keep: [SyncEngineState.Waiting] = []
        for var entry in state.waiting {
            let rev = entry.record.rev
            // Arrived another way (a snapshot, a renamed copy): nothing waits any more.
            if presence.known.contains(rev) { continue }
            do {
                if !readThisPass.contains(rev) {
                    do {
                        let read = try ChangeRecord(json: entry.record.record, assets: assets)
                        if let revision = applicable(read, entry) { ready.append(revision) }
                        continue
                    } catch let missing as AssetUnavailable {
                        entry.record.reason = WaitingRecord.reason(missing)
                        entry.record.chunk = missing.chunk
                    }
                }
                if presence.awaited.contains(rev), let history = try entry.record.withoutContent(assets: assets) {
                    if let revision = applicable(history, entry) { ready.append(revision) }
                    continue
                }
            } catch is AssetUnavailable {
                // Its text is in the chunk itself: it goes on waiting.
            } catch {
                warn(
                    "refused a change of note \(entry.record.recordID) in \(Self.logPath(entry.zone, entry.device, entry.seq)) "
                        + "once its chunk arrived (\(Self.sentence(error))); it no longer waits")
                continue
            }
            // Named one by one up to a point, so that they do not push every other warning out.
            if keep.count < Self.waitingNamed {
                warn(
                    "note \(entry.record.recordID) is waiting for \(entry.record.reason) (written by \(entry.device) "
                        + "in zone \(entry.zone)); the rest of that device's changes were applied, and the device "
                        + "that wrote it can write the chunk again with `cloudnotes sync --repair`")
            }
            keep.append(entry)
        }
        if keep.count > Self.waitingNamed {
            let more = keep.count - Self.waitingNamed
            warn("\(more) more change(s) wait for chunks (`cloudnotes status` lists them all)")
        }
        guard keep != state.waiting else { return }
        var next = state
        next.waiting = keep
        let applied = try store.applyFetchedRevisions(ready, engineState: next.serialized, resolve: resolver.resolve)
        state = next
        summary.received += ready.count
        summary.changed += applied.changed
        summary.merged += applied.merged
        summary.buffered = applied.buffered
    }

    /// A waiting record's revision when this engine applies it (a note whose notebook name is
    /// valid, as `accepted` checks a batch's), else nil with a warning.
    private func applicable(_ record: ChangeRecord, _ entry: SyncEngineState.Waiting) -> Revision? {
        guard record.recordType == ChangeRecord.recordType,
            record.revision.fields.map({ ZoneID($0.zone) != nil }) ?? true
        else {
            warn("skipped a record of an unknown type or notebook from device \(entry.device)")
            return nil
        }
        return record.revision
    }

    /// A log file's path as warnings name it.
    static func logPath(_ zone: ZoneID, _ device: DeviceID, _ seq: Int64) -> String {
        "private/zones/\(zone)/log/\(device)/\(CloudLayout.padded(CloudLayout.segment(of: seq)))/"
            + "\(CloudLayout.padded(seq)).json"
    }

    /// An error reading a record as a sentence a user reads: a `CloudError`'s message, a
    /// refusal's reason; never a type's debug description.
    static func sentence(_ error: any Error) -> String {
        if let cloud = error as? CloudError { return cloud.message }
        if let refused = error as? ChangeRecord.OutOfRange { return refused.description }
        return "it does not read as a change"
    }
}
