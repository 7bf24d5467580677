import Foundation
import GRDB
import NotesCore

/// The store side of compaction and clone rotation (SYNC-FORMAT rules 10 and 11).
extension NoteStore {
    /// What a zone snapshot holds: every revision of every record that has a revision in `zone`
    /// (so a note moved between notebooks keeps its whole history), except revisions still
    /// waiting in the outbox (not published yet, or held over the size limit), and every
    /// revision of the causal buffer (published by others, waiting for parents). One read
    /// transaction, so it matches the change token saved with it. Ordered by record, stamp, id.
    public func snapshotRevisions(zone: String) throws -> [Revision] {
        try read { db in
            let stored = try Row.fetchAll(
                db,
                sql: """
                    SELECT * FROM revision
                    WHERE recordID IN (
                        SELECT recordID FROM revision WHERE json_extract(fields, '$.zone') = ?
                        UNION SELECT id FROM note WHERE zone = ?)
                    AND id NOT IN (SELECT revID FROM outbox)
                    ORDER BY recordID, hlc, id
                    """, arguments: [zone, zone]
            ).map { try Self.revision(from: $0, db) }
            let buffered = try Row.fetchAll(db, sql: "SELECT * FROM sync_buffer ORDER BY recordID, hlc, id")
                .map { try Self.revision(from: $0, db) }
            return stored + buffered
        }
    }

    /// Makes every committed transaction durable: a full WAL checkpoint, which syncs the WAL and
    /// the database file even with `synchronous=NORMAL` (ARCHITECTURE §7, before compaction deletes).
    public func makeDurable() throws {
        do {
            try pool.writeWithoutTransaction { db in _ = try db.checkpoint(.full) }
        } catch let error as DatabaseError {
            throw Self.storeError(error, path: databaseURL.path)
        }
    }

    /// Adopts `new` as this store's device id after another copy of this data directory was
    /// found publishing as `old` (rule 10). In one transaction: the id (used from the next open;
    /// this process keeps stamping with the id it opened with), every revision stamped `old`
    /// that is not already pending queued again oldest first (content addressing makes the
    /// copies others hold harmless), and the engine state. Returns how many were queued.
    @discardableResult
    public func rotateDeviceID(from old: String, to new: String, engineState: String) throws -> Int {
        try rotateDeviceID(from: old, to: new, engineState: engineState, stateKey: Self.engineStateKey)
    }

    /// `rotateDeviceID` for the engine whose state is under `stateKey`.
    @discardableResult
    public func rotateDeviceID(from old: String, to new: String, engineState: String, stateKey: String) throws -> Int {
        try write { db in
            try Self.setSyncValue("deviceID", new, db)
            let revisions = try Row.fetchAll(
                db,
                sql: """
                    SELECT * FROM revision WHERE device = ? AND id NOT IN (SELECT revID FROM outbox)
                    ORDER BY hlc, json_array_length(parents), id
                    """, arguments: [old]
            ).map { try Self.revision(from: $0, db) }
            var records = Set<String>()
            for revision in revisions {
                let record = revision.recordID.lowercasedString
                let zone =
                    try revision.fields?.zone
                    ?? String.fetchOne(
                        db.cachedStatement(
                            sql: """
                                SELECT json_extract(fields, '$.zone') FROM revision
                                WHERE recordID = ? AND fields IS NOT NULL ORDER BY hlc DESC LIMIT 1
                                """), arguments: [record])
                    ?? Note.defaultZone
                try enqueue(revision, zone: zone, kind: revision.isTombstone ? "delete" : "save", db)
                records.insert(record)
            }
            for record in records {
                try db.run("UPDATE note SET syncState = 'pending' WHERE id = ? AND syncState = 'synced'", [record])
            }
            try Self.setSyncValue(stateKey, engineState, db)
            return revisions.count
        }
    }
}
