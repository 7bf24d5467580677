import CloudFolder
import Foundation
import NotesCore

/// Fetching remote changes: SYNC-FORMAT rules 4, 5, 7 and 9, §4.
extension SyncEngine {
    /// What one store transaction applies of a fetch: log files up to 2,000 records (five full
    /// ones), or 64 small ones. The records of a group and of the next one, read meanwhile, are
    /// held in memory with the search postings of the group: a new device's first sync of 100k
    /// notes peaked at 306-342 MB with groups of 64 full files, and 141 MB with 4 (issue 27).
    static let fetchLimit = FetchLimit(batches: 64, records: 2_000)

    /// Reads every zone's changes since its token and applies them, each group of batches in
    /// one store transaction together with the token that covers it. Merge revisions made on
    /// the way are queued in the outbox (`syncNow` sends them at once).
    /// Holds the data directory's sync lock while it runs (`exclusive`).
    public func fetchChanges() async throws -> FetchSummary {
        try await exclusive { try await fetchChangesLocked() }
    }

    /// `fetchChanges` under the sync lock. Indexes deferred on the way (`apply`) are built again
    /// when it ends, also when it fails (else the next open of the store builds them).
    func fetchChangesLocked() async throws -> FetchSummary {
        bulkIndexes = .unchecked
        do {
            let summary = try await fetchEveryZone()
            try endBulkIndexes()
            return summary
        } catch {
            // The error that stopped the fetch is the one to tell; a failed build is left to the
            // next open of the store, which builds what the marker names.
            try? endBulkIndexes()
            throw error
        }
    }

    private func endBulkIndexes() throws {
        guard bulkIndexes == .deferred else { return }
        bulkIndexes = .kept
        try store.restoreDeferredIndexes()
    }

    private func fetchEveryZone() async throws -> FetchSummary {
        let folder = try prepareAccount()
        emit(.willFetchChanges)
        defer { emit(.didFetchChanges) }
        var summary = FetchSummary()
        let waitedBefore = Set(state.waiting.map(\.record.rev))
        let listing = try folder.zones()
        if !listing.ignored.isEmpty {
            warn("\(listing.ignored.count) unknown name(s) in the zones folder were ignored")
        }
        emit(.fetchedDatabaseChanges(zones: listing.items))
        for zone in listing.items {
            knownZones.insert(zone)
            try actOnDeletionMarker(zone, folder)
            try forgetRewoundLogs(zone, folder)
            try fetch(zone, folder, &summary)
            try fetchNotebookName(zone, folder)
        }
        for (zone, known) in state.zones.sorted(by: { $0.key < $1.key })
        where !listing.items.contains(zone) && (known.published > 0 || !known.token.seqByDevice.isEmpty) {
            try recreate(zone, folder)
        }
        try retryWaiting(folder, readThisPass: Set(state.waiting.map(\.record.rev)).subtracting(waitedBefore), &summary)
        waitingFiles = summary.notArrived
        summary.waitingForAttachments = state.waiting.count { $0.record.attachment != nil }
        summary.waitingNotes = Set(state.waiting.map(\.record.recordID)).count
        learnDeviceNames(folder)
        summary.settingsChanged = try exchangeSettings(folder)
        if summary.received > 0 || !summary.settingsChanged.isEmpty { watcher?.noteActivity() }
        return summary
    }

    /// Rule 12, `userDeletedZone`: the zone folder is gone without a deletion marker. It is
    /// created again and this device's notes in it are queued for upload (queued first, so a
    /// crash in between re-uploads twice rather than never).
    func recreate(_ zone: ZoneID, _ folder: any CloudFolder) throws {
        let queued = try store.requeueZone(zone.rawValue)
        _ = try folder.createZone(
            ZoneInfo(zone: zone, displayName: zone.rawValue, createdBy: device),
            hlc: HLC(millis: configuration.now().millisecondsSince1970))
        state.zones[zone] = SyncEngineState.Zone()
        // Our device file must stop announcing what we deleted of the old zone's log soon.
        state.deviceFileWritten = nil
        try store.saveEngineState(state.serialized)
        knownZones.insert(zone)
        try republishNotebookName(zone, folder)
        warn(
            "zone \(zone) vanished from the cloud folder without a deletion marker (userDeletedZone); "
                + "recreated it and queued \(queued) revision(s) for upload")
    }

    /// A file the token says was read is gone: the zone was deleted and recreated (by another
    /// device's `recreate`) or a log rewound. Every stream of the zone is read again from seq 1
    /// (duplicates are harmless); when this device's own log is gone too, everything of the
    /// zone is uploaded again. (A recreated log that has already grown past the old seq is not
    /// noticed this way; a zone incarnation id would be needed for that.)
    func forgetRewoundLogs(_ zone: ZoneID, _ folder: any CloudFolder) throws {
        guard var zoneState = state.zones[zone] else { return }
        let ownLogGone =
            try zoneState.published > 0
            && folder.logHead(zone: zone, device: device, after: zoneState.published - 1) < zoneState.published
        var rewound = false
        var snapshotHeads: [DeviceID: Int64]?
        for (other, seq) in zoneState.token.seqByDevice.sorted(by: { $0.key < $1.key })
        where seq > 0 && !rewound && !ownLogGone {
            // Our own log up to what we published was just probed (the same probe, once).
            if other == device && seq == zoneState.published { continue }
            guard try folder.logHead(zone: zone, device: other, after: seq - 1) < seq else { continue }
            // A file its device's own snapshot covers may have been compacted away: not a rewind
            // (a recreated zone has lost its snapshots too).
            if snapshotHeads == nil { snapshotHeads = folder.ownSnapshotHeads(zone: zone) }
            rewound = seq > snapshotHeads?[other] ?? 0
        }
        guard rewound || ownLogGone else { return }
        zoneState.token = .empty
        if ownLogGone {
            try store.requeueZone(zone.rawValue)
            zoneState = SyncEngineState.Zone()
            state.deviceFileWritten = nil
        }
        state.zones[zone] = zoneState
        try store.saveEngineState(state.serialized)
        if ownLogGone { try republishNotebookName(zone, folder) }
        warn("zone \(zone) was recreated in the cloud folder; its logs are read again from the start")
    }

    /// Rule 12: a deletion marker means the zone was deleted on purpose: its notes go to the
    /// local trash, once (a note restored afterwards stays restored).
    func actOnDeletionMarker(_ zone: ZoneID, _ folder: any CloudFolder) throws {
        guard !state.deletedZones.contains(zone) else { return }
        let by = try folder.deletedBy(zone: zone)
        guard !by.isEmpty else { return }
        let trashed = try store.trashZone(zone.rawValue)
        state.deletedZones.insert(zone)
        try store.saveEngineState(state.serialized)
        warn(
            "zone \(zone) was deleted on purpose by \(by.map(\.rawValue).joined(separator: ", ")); "
                + "\(trashed) note(s) moved to the trash here")
    }

    func fetch(_ zone: ZoneID, _ folder: any CloudFolder, _ summary: inout FetchSummary) throws {
        // The next group of batches is read from the folder while this one is applied to the
        // store (two cores: an initial sync reads and parses files a quarter of its time).
        var prefetched: FolderPrefetch?
        while true {
            var zoneState = state.zones[zone] ?? SyncEngineState.Zone()
            let read = try prefetched?.result(since: zoneState.token)
            let changes =
                try read?.changes ?? folder.fetchChanges(zone: zone, since: zoneState.token, limit: Self.fetchLimit)
            prefetched =
                changes.moreComing && changes.expired.isEmpty
                ? FolderPrefetch(folder, zone: zone, since: changes.token, limit: Self.fetchLimit, store: store)
                : nil
            for file in changes.notArrived where !changes.coveredDamage.contains(file) {
                summary.notArrived += 1
                warn("waiting for \(file.path): \(file.reason)")
            }
            for file in changes.coveredDamage {
                warn(
                    "\(file.path) does not check out (\(file.reason)); a snapshot of its device covers it, "
                        + "so that snapshot is loaded instead of waiting for the file")
            }
            for file in changes.refusedCopies {
                warn("ignored \(file.path), a renamed copy that does not check out (\(file.reason)); it can be deleted")
            }
            if !changes.ignored.isEmpty {
                warn("\(changes.ignored.count) unknown name(s) in zone \(zone) were ignored")
            }
            let copies = changes.copies.flatMap {
                accepted($0.batch, zone: zone, file: "private/zones/\(zone)/\($0.name)")
            }
            // Records waiting for a chunk hold only their notes (rule 15); past what this device
            // keeps, a stream waits at the file as for any file that does not check out.
            let held = holdWaiting(changes, zone: zone, &summary)
            let revisions = held.batches.flatMap { accepted($0, zone: zone) } + copies
            if held.token != zoneState.token || !revisions.isEmpty || !held.waiting.isEmpty {
                zoneState.token = held.token
                try apply(
                    revisions, prepared: read?.prepared, zone: zone, zoneState: zoneState, waiting: held.waiting,
                    &summary)
            }
            // Rule 10 for rule 9: a replicator kept two different files at one seq of our id, so
            // another copy of this data directory writes under it.
            if let clash = changes.copies.first(where: { $0.batch.device == device && $0.differsFromOriginal }) {
                try rotateDeviceID(
                    because: "zone \(zone): a replicator kept two different versions of log file "
                        + "\(clash.batch.seq) of device id \(device) (\(clash.name)); another copy of this data "
                        + "directory writes under it")
            }
            // A stream held at a file is read from there at the next sync, not again in a loop now.
            if held.stopped { return }
            if !changes.expired.isEmpty, try loadCoveringSnapshots(zone, folder, expired: changes.expired, &summary) {
                continue
            }
            if !changes.moreComing { return }
        }
    }

    /// Applies fetched revisions and saves `zoneState` (the token that covers them) in one store
    /// transaction; merges made are queued by the store.
    /// `prepared`: what the store made of the group ahead (`SyncStore.prepareFetched`).
    func apply(
        _ revisions: [Revision], prepared: (any Sendable)? = nil, zone: ZoneID, zoneState: SyncEngineState.Zone,
        waiting: [SyncEngineState.Waiting] = [], _ summary: inout FetchSummary
    ) throws {
        var next = state
        next.zones[zone] = zoneState
        next.waiting += waiting
        // A new device's first sync: the store builds its secondary indexes once, at the end.
        if bulkIndexes == .unchecked, revisions.count >= BulkIndexes.threshold {
            bulkIndexes = try store.deferIndexesForFirstSync() ? .deferred : .kept
        }
        let applied = try store.applyFetchedRevisions(
            revisions, prepared: prepared, engineState: next.serialized, resolve: resolver.resolve)
        state = next
        summary.received += revisions.count
        summary.changed += applied.changed
        summary.merged += applied.merged
        summary.buffered = applied.buffered
        summary.clockSkew += applied.clockSkew
        if applied.clockSkew > 0 {
            warn(
                "\(applied.clockSkew) change(s) in zone \(zone) are stamped more than a day in the future (clock skew)")
        }
        emit(.fetchedRecordZoneChanges(zone: zone, changed: applied.changed, merged: applied.merged))
        setPhase(.syncing(done: summary.received, total: summary.received))
    }

    /// The revisions of a batch this engine applies: notes whose fields name a valid zone.
    /// Records refused for a value out of range are named in a warning with their file
    /// (`file`, else the log file the batch was read from).
    func accepted(_ fetched: FetchedBatch, zone: ZoneID, file: String? = nil) -> [Revision] {
        if !fetched.batch.refused.isEmpty {
            let name =
                file
                ?? "private/zones/\(zone)/log/\(fetched.device)/"
                + "\(CloudLayout.padded(CloudLayout.segment(of: fetched.seq)))/\(CloudLayout.padded(fetched.seq)).json"
            for refused in fetched.batch.refused {
                warn("refused a change in \(name): \(refused); the rest of the file was applied")
            }
        }
        return fetched.batch.records.compactMap { record in
            guard record.recordType == ChangeRecord.recordType else {
                warn("skipped records of unknown type \"\(record.recordType)\" in zone \(zone)")
                return nil
            }
            if let fields = record.revision.fields, ZoneID(fields.zone) == nil {
                warn("skipped a record with an invalid notebook name from device \(fetched.device)")
                return nil
            }
            return record.revision
        }
    }

    /// Ingests renamed copies of log files that check out (rule 9): content addressing makes
    /// them harmless duplicates. Returns how many were found, and how many names were ignored.
    /// Holds the data directory's sync lock while it runs (`exclusive`).
    public func repair() async throws -> (salvaged: Int, ignored: Int, chunksRewritten: Int) {
        try await exclusive { try await repairLocked() }
    }

    /// `repair` under the sync lock. Also writes again every chunk of the attachment content
    /// and of the large notes' fields this device holds that is missing or damaged in the folder
    /// (rule 15), so readers waiting for it go on.
    func repairLocked() async throws -> (salvaged: Int, ignored: Int, chunksRewritten: Int) {
        let folder = try prepareAccount()
        var chunksRewritten = 0
        if let assets = folder as? any AssetStore {
            chunksRewritten += try assets.repairAttachmentChunks(device: device)
            chunksRewritten += try repairFieldsChunks(in: folder, assets: assets)
        }
        // What was damaged is written again: the next sync looks afresh.
        damagedChunks = []
        lastDamageCheck = nil
        var salvaged = 0
        var ignored = 0
        for zone in try folder.zones().items {
            let report = try folder.salvageScan(zone: zone)
            ignored += report.ignored.count
            let revisions = report.salvaged.flatMap { accepted($0, zone: zone) }
            salvaged += report.salvaged.count
            guard !revisions.isEmpty else { continue }
            _ = try store.applyFetchedRevisions(revisions, engineState: state.serialized, resolve: resolver.resolve)
        }
        return (salvaged, ignored, chunksRewritten)
    }

    /// Every record in a zone's logs, for `debug records`.
    public func records(zone: ZoneID) async throws -> [FetchedBatch] {
        let folder = try prepareAccount()
        return try folder.fetchChanges(zone: zone, since: .empty).batches
    }
}

/// One `fetchChanges` call running on another thread, followed there by what the store makes
/// of its revisions ahead (`SyncStore.prepareFetched`). Its result is used only when the token
/// it started from is the one the engine then holds (else it is dropped and the read done
/// again), so reading ahead can never skip or repeat a batch.
struct FolderPrefetch {
    typealias Read = (changes: FetchedChanges, prepared: (any Sendable)?)

    private let since: ChangeToken
    private let read: BackgroundResult<Read>

    init(_ folder: any CloudFolder, zone: ZoneID, since: ChangeToken, limit: FetchLimit, store: any SyncStore) {
        self.since = since
        read = BackgroundResult {
            let changes = try folder.fetchChanges(zone: zone, since: since, limit: limit)
            let revisions = changes.batches.flatMap { fetched in
                fetched.batch.records.filter { $0.recordType == ChangeRecord.recordType }.map(\.revision)
            }
            return (changes, store.prepareFetched(revisions))
        }
    }

    /// The prefetched changes when they were read from `token`; nil to read again.
    func result(since token: ChangeToken) throws -> Read? {
        guard token == since else { return nil }
        return try read.get()
    }
}

/// The store's secondary indexes during one fetch: not looked at yet, deferred (dropped until the
/// fetch ends: a new device's first sync) or kept up as each revision is applied.
enum BulkIndexes: Equatable {
    case unchecked, deferred, kept

    /// The size of a group of fetched revisions worth deferring for: an initial sync's groups
    /// are tens of thousands; a daily fetch's a few.
    static let threshold = 1000
}
