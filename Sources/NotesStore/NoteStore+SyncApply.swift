import Foundation
import GRDB
import NotesCore

extension NoteStore {
    /// Decides what two or more heads of one record become (SYNC-FORMAT rule 8): a merge
    /// revision descending from every head, or nil to keep the heads (`askUser`); and whether the
    /// note must be flagged `conflict`. Pure and deterministic; called inside the transaction.
    /// `history` holds the heads and their possible merge bases whole (`RevisionHistory`).
    public typealias HeadsResolver = (_ heads: [Revision], _ history: RevisionHistory) -> (
        merged: Revision?, conflict: Bool
    )

    /// What one `applyFetchedRevisions` did.
    public typealias FetchApplication = (changed: [UUID], buffered: Int, merged: Int, clockSkew: Int)

    /// Applies fetched revisions and saves the engine state that covers them, in one
    /// transaction (ARCHITECTURE §2 and §4: a crash applies all of it or none of it).
    ///
    /// Revisions already known are skipped (duplicates are harmless: ids are content
    /// addressed). A revision whose parents have not all arrived waits in the causal buffer
    /// (rule 5) and is applied when they have. Each record that gained revisions is then
    /// recomputed from its heads: one head is the note (a tombstone removes it); several go
    /// through `resolve`, whose merge revision is stored and queued for sending. Remote stamps
    /// are folded into the device's clock, except those more than a day ahead (counted as
    /// clock skew, rule 7).
    public func applyFetchedRevisions(
        _ revisions: [Revision], engineState: String, resolve: HeadsResolver
    ) throws -> FetchApplication {
        try applyFetchedRevisions(revisions, engineState: engineState, stateKey: Self.engineStateKey, resolve: resolve)
    }

    /// A large group's new notes' search text (`FetchedText`), made where the engine reads the
    /// group, while the group before it is applied.
    public func prepareFetched(_ revisions: [Revision]) -> (any Sendable)? {
        revisions.count >= FetchedText.threshold
            ? FetchedText(revisions, perRecord: FetchedText.counts(revisions)) : nil
    }

    /// `applyFetchedRevisions` with what `prepareFetched` made of the group (or nil).
    public func applyFetchedRevisions(
        _ revisions: [Revision], prepared: (any Sendable)?, engineState: String, resolve: HeadsResolver
    ) throws -> FetchApplication {
        try applyFetchedRevisions(
            revisions, prepared: prepared, engineState: engineState, stateKey: Self.engineStateKey, resolve: resolve)
    }

    /// `applyFetchedRevisions` for the engine whose state is under `stateKey`.
    public func applyFetchedRevisions(
        _ revisions: [Revision], prepared: (any Sendable)? = nil, engineState: String, stateKey: String,
        resolve: HeadsResolver
    ) throws -> FetchApplication {
        // A record this group brings its only revision of, the first it has anywhere: that
        // revision becomes its head, so it is stored with the body cut out from the start
        // (`HeadBody`), as an import stores it. Cutting it out afterwards left three quarters
        // of the pages of `revision` empty in a new device's store (issue 27).
        let perRecord = FetchedText.counts(revisions)
        // A large group's new notes' search text: made ahead, else while its revisions are stored.
        let fetchedText: BackgroundResult<FetchedText>? =
            if let ready = prepared as? FetchedText {
                BackgroundResult(async: false) { ready }
            } else if revisions.count >= FetchedText.threshold {
                BackgroundResult(ownThread: { FetchedText(revisions, perRecord: perRecord) })
            } else {
                nil
            }
        // A group of an initial sync is tens of thousands of revisions: checkpointed after.
        return try bulkWrite(revisions.count >= 1000) { db in
            // Records in the order the group brings them (a device publishes its notes oldest
            // first: new notes then take ascending search rowids, and `fetchedText`'s segment).
            var touched: [(record: String, id: UUID)] = []
            var seen = Set<String>()
            var skew = 0
            let packed =
                try Int64.fetchOne(db.cachedStatement(sql: "SELECT value FROM sync_state WHERE key = 'hlc'")) ?? 0
            var clock = HybridLogicalClock(last: HLC(packed: packed))
            let now = self.clock().millisecondsSince1970
            var inserted = Set<String>()
            // New records' first revisions: their history is known without reading it back.
            var roots: [String: Revision] = [:]
            // The causal buffer is read per record only when something waits in it.
            var bufferInUse = try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM sync_buffer)") ?? true
            var elidedRoots: [String: [UInt8]] = [:]
            // What the store has is looked up for the whole group first (a statement per
            // revision was a twentieth of a new device's first sync); what the group adds is
            // remembered as it goes.
            let known = try Self.knownRevisions(revisions.map(\.id), buffered: bufferInUse, db)
            var arrived = Set<String>()
            let haveRevisions = try Self.recordsWithRevisions(
                revisions.lazy.filter { $0.parents.isEmpty }.map { $0.recordID.lowercasedString }
                    .filter { perRecord[$0] == 1 }, db)
            for revision in revisions {
                if !clock.receive(revision.hlc, now: now) { skew += 1 }
                guard !known.contains(revision.id), arrived.insert(revision.id).inserted else { continue }
                let record = revision.recordID.lowercasedString
                // Parents here already (the usual case): straight into history; else buffered.
                if try Self.allPresent(revision.parents, db) {
                    if revision.parents.isEmpty, perRecord[record] == 1,
                        let whole = try insertElidedIfFirst(
                            revision, hasRevisions: haveRevisions.contains(record), buffered: bufferInUse, db)
                    {
                        elidedRoots[record] = whole
                    } else {
                        try Self.insert(revision, into: "revision", db)
                    }
                    inserted.insert(record)
                    if revision.parents.isEmpty { roots[record] = revision }
                } else {
                    try Self.insert(revision, into: "sync_buffer", db)
                    bufferInUse = true
                }
                if seen.insert(record).inserted { touched.append((record, revision.recordID)) }
            }
            // Stored as an integer, as `nextHLC` reads it.
            try db.run(
                "INSERT INTO sync_state(key, value) VALUES ('hlc', ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value",
                [clock.last.packed])
            var changed: [UUID] = []
            var merged = 0
            let prepared = try fetchedText?.get()
            pendingIndex.ahead = prepared?.ahead
            for (record, id) in touched {
                let promoted = try bufferInUse && Self.promoteBuffered(record, db)
                guard promoted || inserted.contains(record) else { continue }
                changed.append(id)
                // A record whose root was stored cut had no revision, none buffered, and this
                // group brings no other (`insertElidedIfFirst`): its only revision, uncounted.
                if let root = roots[record], try elidedRoots[record] != nil || Self.revisionCount(record, db) == 1 {
                    // A record whose only revision just arrived has no note row and nothing
                    // queued: no reads before writing it.
                    try materialize(
                        root, conflict: false, isNew: true, headElided: elidedRoots[record] != nil,
                        text: prepared?.texts[root.id], db)
                    continue
                }
                // Not the record's only revision after all: its fields are stored whole again.
                if let whole = elidedRoots[record], let root = roots[record] {
                    try db.run(
                        "UPDATE revision SET fields = ?, bodyAt = NULL WHERE id = ?",
                        [String(decoding: whole, as: UTF8.self), root.id])
                }
                if try recompute(record, resolve: resolve, db) { merged += 1 }
            }
            try Self.setSyncValue(stateKey, engineState, db)
            let buffered = try Int.fetchOne(db, sql: "SELECT count(*) FROM sync_buffer") ?? 0
            return (changed, buffered, merged, skew)
        }
    }

    /// Makes the note row match the record's heads; returns true when a merge revision was made.
    ///
    /// Reads the record's graph without any revision's fields, and then only the revisions the
    /// outcome depends on (`RevisionHistory`): one head with at most one parent (an edit on the
    /// last revision, the usual case) is the note as it stands, never a conflict (only a merge
    /// is, SYNC-FORMAT rule 8); several heads, or a merge head, are read with their possible merge
    /// bases. Reading every revision made each edit of a 20 MB note that a device received cost
    /// one more parse of 20 MB of JSON than the last (cloudnotes-bench --large-note-propagation),
    /// and a merge of it read every body it ever had.
    func recompute(_ record: String, resolve: HeadsResolver, _ db: Database) throws -> Bool {
        let graph = try Self.fetchGraph(record, db)
        let headIDs = RevisionHistory(parents: graph, loaded: []).headIDs
        if headIDs.count == 1 {
            let parents = graph[headIDs[0]] ?? []
            guard let head = try Self.fetchRevision(headIDs[0], of: record, db) else { return false }
            var conflict =
                try parents.count > 1
                && Self.isConflicted(
                    head, history: Self.fetchMergeHistory(record, graph: graph, heads: parents, db), resolve: resolve)
            if !conflict, parents.count <= 1, let body = head.fields?.body, Self.containsConflictMarkers(body) {
                // An edit that kept the markers of a flagged note keeps its flag
                // (NoteStore+ConflictFlag.swift); the note as it stands is the edit or its parent.
                let current = try Self.fetchNote(db, id: head.recordID)
                conflict =
                    current?.syncState == .conflict && (current?.headRev == head.id || parents == [current?.headRev])
                if !conflict {
                    // The flagged merge and edits on top of it arrived together (one fetch):
                    // flagged when every edit back to the merge kept its markers.
                    conflict = try Self.keptMarkersSinceConflictedMerge(
                        head, graph: graph, current: current, db)
                }
            }
            try materialize(head, conflict: conflict, db)
            return false
        }
        let history = try Self.fetchMergeHistory(record, graph: graph, heads: headIDs, db)
        let heads = headIDs.compactMap { history.loaded[$0] }.sorted(by: Revision.isEarlier)
        guard heads.count > 1 else { return false }
        let (merge, conflict) = resolve(heads, history)
        guard let merge else {
            // askUser: the heads stay; the note shows the latest edit until the user picks.
            // `heads` has two or more (checked above).
            guard let shown = heads.filter({ !$0.isTombstone }).max(by: Revision.isEarlier) ?? heads.last else {
                return false
            }
            try materialize(shown, conflict: true, db)
            return false
        }
        let zone =
            try merge.fields?.zone ?? heads.last(where: { $0.fields != nil })?.fields?.zone
            ?? Self.latestZone(record, db) ?? Note.defaultZone
        try insert(merge, db)
        try enqueue(merge, zone: zone, kind: merge.isTombstone ? "delete" : "save", db)
        try materialize(merge, conflict: conflict, db)
        return true
    }

    /// The notebook of a record's latest revision that has fields (its heads are all deletions).
    static func latestZone(_ record: String, _ db: Database) throws -> String? {
        try Row.fetchOne(
            db,
            sql: "SELECT * FROM revision WHERE recordID = ? AND fields IS NOT NULL ORDER BY hlc DESC, id DESC LIMIT 1",
            arguments: [record]
        ).map { try Self.revision(from: $0, db) }?.fields?.zone
    }

    /// Whether `head` (an edit holding conflict markers) descends along single-parent edits,
    /// each holding markers, from a merge that kept markers, or from the note's flagged current
    /// head. An edit without markers on the way (a resolution) ends it: false. Reads at most
    /// `maxMarkerWalk` revisions.
    static func keptMarkersSinceConflictedMerge(
        _ head: Revision, graph: [String: [String]], current: Note?, _ db: Database
    ) throws -> Bool {
        var revision = head
        for _ in 0..<maxMarkerWalk {
            guard let parents = graph[revision.id], parents.count == 1,
                let parent = try fetchRevision(parents[0], of: head.recordID.lowercasedString, db)
            else { return false }
            if parent.parents.count > 1 { return isConflictedMerge(parent) }
            if parent.id == current?.headRev { return current?.syncState == .conflict }
            guard let body = parent.fields?.body, containsConflictMarkers(body) else { return false }
            revision = parent
        }
        return false
    }

    /// How far back `keptMarkersSinceConflictedMerge` looks: edits received in one fetch.
    static let maxMarkerWalk = 64

    /// Writes the note row (and its search entry) for a record's single head. `isNew`: the
    /// record had no revision before this one (so no note row and no outbox row).
    /// `headElided`: `head` was stored with this body cut out (`insertElidedIfFirst`).
    /// `text`: the note's search text, when made ahead (`FetchedText`).
    func materialize(
        _ head: Revision, conflict: Bool, isNew: Bool = false, headElided: Bool = false, text: IndexedText? = nil,
        _ db: Database
    ) throws {
        let idString = head.recordID.lowercasedString
        let current = isNew ? nil : try Self.fetchNote(db, id: head.recordID)
        guard let fields = head.fields else {
            if current != nil {
                try SearchIndex.remove(noteID: idString, db)
                try Self.restoreHeadBody(idString, db)
                try db.run("DELETE FROM note WHERE id = ?", [idString])
            }
            return
        }
        let pending =
            try !isNew
            && Bool.fetchOne(
                db.cachedStatement(sql: "SELECT EXISTS (SELECT 1 FROM outbox WHERE recordID = ?)"),
                arguments: [idString]) ?? false
        let state: Note.SyncState = conflict ? .conflict : pending ? .pending : .synced
        if let current, current.headRev == head.id, current.syncState == state { return }
        let note = fields.note(id: head.recordID, headRev: head.id, syncState: state)
        let searchRowid = try SearchIndex.update(note: note, previous: current, text: text, pending: pendingIndex, db)
        try Self.upsert(note, searchRowid: searchRowid, isNew: current == nil, headElided: headElided, db)
    }

    /// Revisions no other revision of the record names as a parent, in (HLC, device, id) order.
    static func heads(of history: [Revision]) -> [Revision] {
        let parents = Set(history.flatMap(\.parents))
        return history.filter { !parents.contains($0.id) }.sorted(by: Revision.isEarlier)
    }

    /// Whether a record's single head must be flagged `conflict`: a merge that kept conflict
    /// markers, or a merge `resolve` itself flags when run again on its parents (two new
    /// titles): `resolve` is deterministic, so a device that receives another's merge flags it
    /// exactly when the device that made it did (given the same strategy).
    static func isConflicted(_ head: Revision, history: RevisionHistory, resolve: HeadsResolver) -> Bool {
        if isConflictedMerge(head) { return true }
        guard head.parents.count > 1 else { return false }
        let sides = head.parents.compactMap { history.loaded[$0] }.sorted(by: Revision.isEarlier)
        guard sides.count == head.parents.count else { return false }
        let (merged, conflict) = resolve(sides, history)
        return conflict && merged?.id == head.id
    }

    /// A merge revision whose body kept both sides between conflict markers.
    static func isConflictedMerge(_ revision: Revision) -> Bool {
        guard revision.parents.count > 1, let body = revision.fields?.body else { return false }
        return containsConflictMarkers(body)
    }

    /// Whether every one of these revisions is in history (not merely buffered).
    static func allPresent(_ ids: [String], _ db: Database) throws -> Bool {
        for id in ids {
            let present =
                try Bool.fetchOne(
                    db.cachedStatement(sql: "SELECT EXISTS (SELECT 1 FROM revision WHERE id = ?)"), arguments: [id])
                ?? false
            if !present { return false }
        }
        return true
    }

    static func revisionCount(_ record: String, _ db: Database) throws -> Int {
        try Int.fetchOne(
            db.cachedStatement(sql: "SELECT count(*) FROM revision WHERE recordID = ?"), arguments: [record]) ?? 0
    }

    /// Of `ids`, those the store has as revisions, applied or buffered, looked up `lookupBatch`
    /// at a time; `buffered` false: the causal buffer is known to be empty and is not read.
    static func knownRevisions(_ ids: [String], buffered: Bool = true, _ db: Database) throws -> Set<String> {
        guard buffered else { return try lookUp(ids, listed: 1, db) { "SELECT id FROM revision WHERE id IN (\($0))" } }
        return try lookUp(ids, listed: 2, db) { list in
            "SELECT id FROM revision WHERE id IN (\(list)) UNION ALL SELECT id FROM sync_buffer WHERE id IN (\(list))"
        }
    }

    /// Of `records` (lowercased ids), those with a revision applied, looked up `lookupBatch`
    /// at a time.
    static func recordsWithRevisions(_ records: some Sequence<String>, _ db: Database) throws -> Set<String> {
        try lookUp(Array(records), listed: 1, db) { list in
            "SELECT DISTINCT recordID FROM revision WHERE recordID IN (\(list))"
        }
    }

    /// The strings `sql` selects for `values`, `lookupBatch` at a time: `sql` is given a batch's
    /// list of placeholders, which it holds `listed` times, each bound to the batch.
    private static func lookUp(
        _ values: [String], listed: Int, _ db: Database, _ sql: (String) -> String
    ) throws -> Set<String> {
        var found = Set<String>()
        for start in stride(from: 0, to: values.count, by: lookupBatch) {
            let batch = Array(values[start..<min(start + lookupBatch, values.count)])
            found.formUnion(
                try String.fetchAll(
                    db, sql: sql(Array(repeating: "?", count: batch.count).joined(separator: ",")),
                    arguments: StatementArguments(Array(repeating: batch, count: listed).flatMap { $0 })))
        }
        return found
    }

    /// Ids bound to one look-up statement.
    static let lookupBatch = 400

    /// Stores `revision`, a root, with its body cut out when it is the first revision of its
    /// record here (none stored or buffered) and has a body to cut: then returns its canonical
    /// fields whole, to put back if it does not become the record's head. Nil: nothing stored.
    /// `hasRevisions`: whether the record has a revision applied (`recordsWithRevisions`).
    func insertElidedIfFirst(
        _ revision: Revision, hasRevisions: Bool, buffered: Bool, _ db: Database
    ) throws -> [UInt8]? {
        let record = revision.recordID.lowercasedString
        guard let fields = revision.fields, !hasRevisions,
            try !buffered
                || !(Bool.fetchOne(
                    db.cachedStatement(sql: "SELECT EXISTS (SELECT 1 FROM sync_buffer WHERE recordID = ?)"),
                    arguments: [record]) ?? true)
        else { return nil }
        let (canonical, body) = fields.canonicalForm()
        guard try insert(revision, elided: HeadBody.elide(canonical, bodyContents: body), db) else { return nil }
        return canonical
    }

    static func insert(_ revision: Revision, into table: String, _ db: Database) throws {
        let parents = JSONValue.array(revision.parents.map(JSONValue.string)).canonicalString
        try db.run(
            "INSERT OR IGNORE INTO \(table)(id, recordID, parents, fields, hlc, device) VALUES (?, ?, ?, ?, ?, ?)",
            [
                revision.id, revision.recordID.lowercasedString, parents,
                revision.fields.map { String(decoding: $0.canonicalBytes, as: UTF8.self) }, revision.hlc.packed,
                revision.device,
            ])
    }

    /// Moves a record's buffered revisions whose parents have all arrived into `revision`,
    /// repeatedly (a chain arrives in any order); returns true when any moved.
    static func promoteBuffered(_ record: String, _ db: Database) throws -> Bool {
        var waiting = try Row.fetchAll(
            db.cachedStatement(sql: "SELECT * FROM sync_buffer WHERE recordID = ?"), arguments: [record]
        ).map { try revision(from: $0, db) }
        var moved = false
        var progress = true
        while progress && !waiting.isEmpty {
            progress = false
            for revision in waiting {
                guard try allPresent(revision.parents, db) else { continue }
                try insert(revision, into: "revision", db)
                try db.run("DELETE FROM sync_buffer WHERE id = ?", [revision.id])
                waiting.removeAll { $0.id == revision.id }
                moved = true
                progress = true
            }
        }
        return moved
    }
}
