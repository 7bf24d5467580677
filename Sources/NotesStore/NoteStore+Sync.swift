import Foundation
import GRDB
import NotesCore

/// The store side of sync (ARCHITECTURE §2 and §4): what the sync engine reads and writes.
///
/// Written in NotesCore terms (revisions, tuples, JSON text), so that NotesSync's `SyncStore`
/// protocol, which it owns, is met by this API as it stands. The engine's state
/// serialization is an opaque string the engine writes in the same transaction as what it
/// covers: the outbox rows it sent (`markSent`), the fetched changes it applied
/// (`applyFetchedRevisions`, in NoteStore+SyncApply.swift).
extension NoteStore {
    /// The `sync_state` key of the engine's state serialization.
    public static let engineStateKey = "engine"
    /// The `sync_state` key of the cloud folder path `sync init` bound this store to.
    static let cloudFolderKey = "cloudFolder"

    /// Pending record zone changes after outbox seq `after`, oldest first, with their revisions
    /// (the outbox joined with the revision table).
    /// Shared notebooks' changes are not among them: they go through their places
    /// (`pendingRecordZoneChanges(after:limit:inZone:)`).
    public func pendingRecordZoneChanges(after outboxSeq: Int64, limit: Int) throws -> [(
        outboxSeq: Int64, zone: String, revision: Revision
    )] {
        try pendingRecordZoneChanges(after: outboxSeq, limit: limit, inZone: nil)
    }

    /// The pending changes of one zone (a shared place's notebook), or with `zone` nil those of
    /// every zone that is not a shared notebook's.
    public func pendingRecordZoneChanges(after outboxSeq: Int64, limit: Int, inZone zone: String?) throws -> [(
        outboxSeq: Int64, zone: String, revision: Revision
    )] {
        try read { db in
            try Row.fetchAll(
                db.cachedStatement(
                    sql: """
                        SELECT o.seq AS outboxSeq, o.zone AS outboxZone, r.* FROM outbox o
                        JOIN revision r ON r.id = o.revID WHERE o.seq > ? AND \(Self.outboxZoneCondition(zone))
                        ORDER BY o.seq LIMIT ?
                        """),
                arguments: [outboxSeq, zone ?? NotebookSlug.sharedZoneGlob, limit]
            ).map { row in (row["outboxSeq"], row["outboxZone"], try Self.revision(from: row, db)) }
        }
    }

    /// How many changes of one zone (a shared place's notebook) wait to be sent.
    public func pendingCount(inZone zone: String) throws -> Int {
        try read { db in
            try Int.fetchOne(db.cachedStatement(sql: "SELECT count(*) FROM outbox WHERE zone = ?"), arguments: [zone])
                ?? 0
        }
    }

    /// The outbox rows of one zone (`?` its id), or of every zone but the shared ones (`?` their GLOB).
    static func outboxZoneCondition(_ zone: String?) -> String { zone == nil ? "o.zone NOT GLOB ?" : "o.zone = ?" }

    /// Removes sent outbox rows, marks notes with nothing left to send as synced, and saves the
    /// engine state, in one transaction (SYNC-FORMAT rule 2).
    public func markSent(outboxSeqs: [Int64], engineState: String) throws {
        try markSent(outboxSeqs: outboxSeqs, engineState: engineState, stateKey: Self.engineStateKey)
    }

    /// `markSent` for the engine whose state is under `stateKey`.
    public func markSent(outboxSeqs: [Int64], engineState: String, stateKey: String) throws {
        try write { db in
            var records = Set<String>()
            for seq in outboxSeqs {
                if let record = try String.fetchOne(
                    db.cachedStatement(sql: "SELECT recordID FROM outbox WHERE seq = ?"), arguments: [seq])
                {
                    records.insert(record)
                }
                try db.run("DELETE FROM outbox WHERE seq = ?", [seq])
            }
            for record in records {
                try db.run(
                    """
                    UPDATE note SET syncState = 'synced' WHERE id = ? AND syncState = 'pending'
                    AND NOT EXISTS (SELECT 1 FROM outbox WHERE recordID = ?)
                    """, [record, record])
            }
            try Self.setSyncValue(stateKey, engineState, db)
        }
    }

    /// The engine's state serialization, or nil before the first sync. `stateKey`: another
    /// engine's (a shared place's, `sharedEngineStateKey`).
    public func engineState() throws -> String? { try engineState(stateKey: Self.engineStateKey) }

    public func engineState(stateKey: String) throws -> String? {
        try read { db in try Self.syncValue(stateKey, db) }
    }

    /// Saves the engine's state serialization on its own (account changes, in-flight batches).
    public func saveEngineState(_ state: String) throws { try saveEngineState(state, stateKey: Self.engineStateKey) }

    public func saveEngineState(_ state: String, stateKey: String) throws {
        try write { db in try Self.setSyncValue(stateKey, state, db) }
    }

    /// The `sync_state` key of the engine state of the shared place of `share` (SYNC-FORMAT
    /// "Shared containers"): one engine per place, each with its own change tokens.
    public static func sharedEngineStateKey(_ share: String) -> String { "engine.share.\(share)" }

    /// The engine states of every shared place joined here, for what they learned that is shown
    /// beside the cloud folder's (the names of other people's devices).
    public func sharedEngineStates() throws -> [String] {
        let prefix = Self.sharedEngineStateKey("")
        return try read { db in
            try String.fetchAll(
                db, sql: "SELECT value FROM sync_state WHERE key >= ? AND key < ? ORDER BY key",
                arguments: [prefix, prefix + "\u{10FFFF}"])
        }
    }

    /// The cloud folder `sync init` bound this data directory to, if any.
    public func boundCloudFolder() throws -> String? {
        try read { db in try Self.syncValue(Self.cloudFolderKey, db) }
    }

    /// Binds this data directory to a cloud folder path (`sync init`).
    public func bindCloudFolder(_ path: String) throws {
        try write { db in try Self.setSyncValue(Self.cloudFolderKey, path, db) }
    }

    /// Binds this data directory to a cloud folder path and saves the engine state (the
    /// container it joined) in one transaction: `sync init` leaves both or neither.
    public func bindCloudFolder(_ path: String, engineState: String) throws {
        try write { db in
            try Self.setSyncValue(Self.cloudFolderKey, path, db)
            try Self.setSyncValue(Self.engineStateKey, engineState, db)
        }
    }

    /// How many notes are flagged `conflict`.
    public func conflictCount() throws -> Int {
        try read { db in try Int.fetchOne(db.cachedStatement(sql: Self.conflictCountSQL)) ?? 0 }
    }

    /// Read by the `note_conflicts` index, kept through a first sync (`DeferredIndexes.readBySync`).
    static let conflictCountSQL = "SELECT count(*) FROM note WHERE syncState = 'conflict'"

    /// Every revision of a record that has arrived, oldest first (the causal buffer excluded).
    public func revisions(of recordID: UUID) throws -> [Revision] {
        try read { db in try Self.fetchRevisions(recordID.lowercasedString, db) }
    }

    /// Calls `body` with the canonical fields bytes of each stored revision whose fields are over
    /// `bytes` bytes (those that travel as chunks, SYNC-FORMAT rule 15), one revision at a time,
    /// re-derived as a record's are written; `sync --repair` and the damaged-chunk check read
    /// them back. One scan of the revision table for the ids, then a read per large revision.
    public func forEachLargeFields(over bytes: Int, _ body: ([UInt8]) throws -> Void) throws {
        // An elided head's body is in its note row (`HeadBody`); escaped, a byte becomes at most
        // six, so the candidates are a superset, each measured once read whole.
        let ids = try read { db in
            try String.fetchAll(
                db,
                sql: """
                    SELECT r.id FROM revision r LEFT JOIN note n ON r.bodyAt IS NOT NULL AND n.id = r.recordID
                    WHERE r.fields IS NOT NULL
                    AND length(CAST(r.fields AS BLOB)) + 6 * coalesce(length(CAST(n.body AS BLOB)), 0) > ?
                    """,
                arguments: [bytes])
        }
        for id in ids.sorted() {
            let fields = try read { db in
                try Row.fetchOne(db.cachedStatement(sql: "SELECT * FROM revision WHERE id = ?"), arguments: [id])
                    .flatMap { try Self.revision(from: $0, db).fields }
            }
            guard let fields else { continue }  // purged meanwhile: nothing to repair from
            let canonical = fields.canonicalBytes
            if canonical.count > bytes { try body(canonical) }
        }
    }

    /// How many fetched revisions wait in the causal buffer for their parents.
    public func bufferedRevisionCount() throws -> Int {
        try read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM sync_buffer") ?? 0 }
    }

    /// Of revision ids, those this store holds (in history or in the causal buffer), and those
    /// a revision in the causal buffer names as a parent (a later revision waits for them).
    public func revisionPresence(_ ids: [String]) throws -> (known: Set<String>, awaited: Set<String>) {
        guard !ids.isEmpty else { return ([], []) }
        return try read { db in
            let known = try Self.knownRevisions(ids, db)
            let wanted = Set(ids)
            var awaited = Set<String>()
            for parents in try String.fetchAll(db, sql: "SELECT parents FROM sync_buffer") {
                // A parents list that does not parse names nothing (its revision never applies either).
                guard let list = try? JSONValue(parsing: Data(parents.utf8)).arrayValue else { continue }
                for parent in list.compactMap(\.stringValue) where wanted.contains(parent) { awaited.insert(parent) }
            }
            return (known, awaited)
        }
    }

    static func syncValue(_ key: String, _ db: Database) throws -> String? {
        try String.fetchOne(
            db.cachedStatement(sql: "SELECT CAST(value AS TEXT) FROM sync_state WHERE key = ?"), arguments: [key])
    }

    static func setSyncValue(_ key: String, _ value: String, _ db: Database) throws {
        try db.run(
            "INSERT INTO sync_state(key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value",
            [key, value])
    }

    static func fetchRevisions(_ recordID: String, _ db: Database) throws -> [Revision] {
        try Row.fetchAll(
            db.cachedStatement(sql: "SELECT * FROM revision WHERE recordID = ? ORDER BY hlc, id"),
            arguments: [recordID]
        ).map { try Self.revision(from: $0, db) }
    }

    /// One revision of a record, fields and all; nil when it has not arrived.
    static func fetchRevision(_ id: String, of recordID: String, _ db: Database) throws -> Revision? {
        try Row.fetchOne(
            db.cachedStatement(sql: "SELECT * FROM revision WHERE id = ? AND recordID = ?"), arguments: [id, recordID]
        ).map { try Self.revision(from: $0, db) }
    }

    /// A record's revision graph, read without any revision's fields: `id` and `parents`
    /// precede `fields` in the row, so SQLite does not read a large note's body of each older
    /// revision to find it.
    static func fetchGraph(_ recordID: String, _ db: Database) throws -> [String: [String]] {
        var graph: [String: [String]] = [:]
        for row in try Row.fetchAll(
            db.cachedStatement(sql: "SELECT id, parents FROM revision WHERE recordID = ?"), arguments: [recordID])
        {
            graph[row["id"] as String] =
                try JSONValue(parsing: Data((row["parents"] as String).utf8)).arrayValue?.compactMap(\.stringValue)
                ?? []
        }
        return graph
    }

    /// The history a merge of `heads` (or a check of one) reads (`RevisionHistory`): the graph,
    /// with `heads` and every revision that can be their merge base read whole.
    static func fetchMergeHistory(_ recordID: String, graph: [String: [String]], heads: [String], _ db: Database)
        throws -> RevisionHistory
    {
        let shape = RevisionHistory(parents: graph, loaded: [])
        let wanted = Set(heads).union(shape.bases(of: heads)).sorted()
        return RevisionHistory(
            parents: graph, loaded: try wanted.compactMap { try fetchRevision($0, of: recordID, db) })
    }
}

extension NoteStore {
    /// Queues every revision of every note in `zone` for sending again, oldest first: the zone
    /// folder vanished without a deletion marker (`userDeletedZone`, SYNC-FORMAT rule 12) and is
    /// re-uploaded; content addressing makes the copies other devices already hold harmless.
    /// Returns how many revisions were queued.
    @discardableResult
    public func requeueZone(_ zone: String) throws -> Int {
        try write { db in
            let count = try enqueueHistory(zone: zone, skipping: [], db)
            try db.run("UPDATE note SET syncState = 'pending' WHERE zone = ? AND syncState = 'synced'", [zone])
            return count
        }
    }

    /// Queues every revision of the notes of `zone` for it, oldest first, but those in
    /// `skipping` (queued already); returns how many it queued.
    @discardableResult
    func enqueueHistory(zone: String, skipping: Set<String>, _ db: Database) throws -> Int {
        let revisions = try Row.fetchAll(
            db,
            sql: """
                SELECT r.* FROM revision r JOIN note n ON n.id = r.recordID
                WHERE n.zone = ? ORDER BY r.hlc, r.id
                """, arguments: [zone]
        ).map { try Self.revision(from: $0, db) }
        var count = 0
        for revision in revisions where !skipping.contains(revision.id) {
            try enqueue(revision, zone: zone, kind: revision.isTombstone ? "delete" : "save", db)
            count += 1
        }
        return count
    }

    /// Moves every note of `zone` that is not in the trash to the trash (a local edit each) and
    /// marks its notebook deleted: the zone was deleted on purpose, here or on another device (a
    /// deletion marker, rule 12).
    /// Returns how many notes moved.
    @discardableResult
    public func trashZone(_ zone: String) throws -> Int {
        let ids = try read { db in
            try String.fetchAll(db, sql: "SELECT id FROM note WHERE zone = ? AND deletedAt IS NULL", arguments: [zone])
        }
        for id in ids.compactMap(UUID.init(uuidString:)) { _ = try trash(id) }
        // The notebook is gone with its zone (a note restored later brings its zone back to the list).
        try write { db in
            try db.run(
                "UPDATE notebook SET deletedAt = ? WHERE zone = ? AND deletedAt IS NULL",
                [clock().millisecondsSince1970, zone])
        }
        return ids.count
    }
}

extension NoteStore {
    /// Of `records`, the notes this device keeps in a notebook other than `zone` (a shared
    /// place may name them; it must not reach them).
    public func notesOutsideZone(_ zone: String, among records: Set<UUID>) throws -> Set<UUID> {
        guard !records.isEmpty else { return [] }
        return try read { db in
            var outside = Set<UUID>()
            let statement = try db.cachedStatement(sql: "SELECT zone FROM note WHERE id = ?")
            for record in records {
                if let found = try String.fetchOne(statement, arguments: [record.lowercasedString]), found != zone {
                    outside.insert(record)
                }
            }
            return outside
        }
    }
}
