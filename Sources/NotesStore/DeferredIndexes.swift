import Foundation
import GRDB

/// Secondary indexes, and the change sequence's insert trigger, that an import into an empty
/// store, or a new device's first sync (D-219), builds once at its end instead of keeping them
/// up note by note (issue 27). Keeping them up was most of the note row's insert, the largest
/// part of the writer's time: their keys (titles, dates, ids) come in no order, so each batch
/// changed pages of each index in thousands of places and wrote them to the WAL.
///
/// `drop` takes the definitions from `sqlite_master` (the migrations' SQL as they ran: no second
/// copy), drops them and records them in a marker, a `sync_state` row, in one transaction;
/// `restore` creates each one that is missing, does the trigger's work for the notes written
/// meanwhile, and clears the marker, in one transaction. A store that has the marker (an import
/// killed before its end) gets them back when it is next opened for writing, before anything
/// else (`NoteStore.init`). Indexes that are constraints (primary keys, `UNIQUE`: the import's
/// look-ups and conflicts need them) are never dropped, nor any `CREATE UNIQUE INDEX`.
enum DeferredIndexes {
    /// The `sync_state` key of the marker: what was dropped, as JSON `[{name, sql}]`.
    static let key = "deferredIndexes"

    /// The tables an import writes a row of per note (or per tag, link, alias, attachment).
    static let tables = ["note", "revision", "outbox", "note_tag", "note_link", "note_alias", "attachment"]

    /// The change sequence's insert trigger (D-213): each note inserted takes the next number.
    /// Its work for every note of an import is one statement at the end (`renumberChanges`).
    static let changeTrigger = "note_change_on_insert"

    struct Object: Codable, Equatable {
        let name: String
        let sql: String
    }

    /// What a first sync keeps (`NoteStore.deferIndexesForFirstSync`): applying fetched
    /// revisions reads a record's revisions and its queued changes by the first two; the engine's
    /// status counts conflicts after each group by the third, a partial index that holds only
    /// notes in conflict (without it each count read the whole note table: 8% of a 100k-note
    /// first sync's writing thread).
    static let readBySync: Set<String> = ["revision_by_record", "outbox_by_record", "note_conflicts"]

    /// Drops the secondary indexes of `tables` and the change trigger (but those in `keeping`),
    /// and records them, in the caller's transaction.
    static func drop(_ db: Database, keeping: Set<String> = []) throws {
        let marks = tables.map { _ in "?" }.joined(separator: ",")
        let objects = try Row.fetchAll(
            db,
            sql: """
                SELECT name, sql FROM sqlite_master
                WHERE (type = 'index' AND sql IS NOT NULL AND sql NOT LIKE 'CREATE UNIQUE%' AND tbl_name IN (\(marks)))
                   OR (type = 'trigger' AND name = ?)
                ORDER BY type, name
                """, arguments: StatementArguments(tables + [changeTrigger])
        ).map { Object(name: $0["name"], sql: $0["sql"]) }.filter { !keeping.contains($0.name) }
        // An import in another process that dropped them already keeps them named (the first
        // import to end restores them all).
        let earlier = try pending(db) ?? []
        let all = earlier + objects.filter { !earlier.contains($0) }
        try NoteStore.setSyncValue(key, String(decoding: try JSONEncoder().encode(all), as: UTF8.self), db)
        for object in objects {
            let kind = object.name == changeTrigger ? "TRIGGER" : "INDEX"
            try db.execute(sql: "DROP \(kind) \(object.name.quotedDatabaseIdentifier)")
        }
    }

    /// What the marker names; nil when there is no marker (or no store yet).
    static func pending(_ db: Database) throws -> [Object]? {
        guard try db.tableExists("sync_state"), let value = try NoteStore.syncValue(key, db) else { return nil }
        do {
            return try JSONDecoder().decode([Object].self, from: Data(value.utf8))
        } catch {
            throw StoreError(.corrupt, "the database's record of the indexes an import deferred is damaged: \(error)")
        }
    }

    /// Creates each index (and the trigger) the marker names that is missing (another process
    /// may have restored some), then clears the marker; in the caller's transaction. Nothing
    /// without a marker.
    static func restore(_ db: Database) throws {
        guard let objects = try pending(db) else { return }
        for object in objects where try !exists(object.name, db) {
            try db.execute(sql: object.sql)
        }
        if objects.contains(where: { $0.name == changeTrigger }) { try renumberChanges(db) }
        try db.execute(sql: "DELETE FROM sync_state WHERE key = ?", arguments: [key])
    }

    /// What the insert trigger did for each note, for every note at once: each takes the next
    /// number, in the order the rows were inserted. The store held no note when the trigger was
    /// dropped, so every note was inserted since (a note updated since has a number already,
    /// and gets a newer one, as if changed again: a reader is never told less).
    private static func renumberChanges(_ db: Database) throws {
        try db.execute(
            sql: """
                DELETE FROM note_change WHERE noteID IN (SELECT id FROM note);
                INSERT INTO note_change(noteID) SELECT id FROM note ORDER BY rowid;
                """)
    }

    private static func exists(_ name: String, _ db: Database) throws -> Bool {
        try Bool.fetchOne(
            db.cachedStatement(sql: "SELECT 1 FROM sqlite_master WHERE name = ?"), arguments: [name]) != nil
    }

    /// `sql` without its `INDEXED BY name` clauses.
    static func withoutIndexNames(_ sql: String) -> String {
        var rest = Substring(sql)
        var result = ""
        while let clause = rest.range(of: "INDEXED BY ") {
            result += rest[..<clause.lowerBound]
            rest = rest[clause.upperBound...].drop { $0.isLetter || $0.isNumber || $0 == "_" }
        }
        return result + rest
    }
}

extension NoteStore {
    /// Before a large group of fetched revisions: when the store holds no note (a new device's
    /// first sync), drops the secondary indexes a sync's apply does not read by
    /// (`DeferredIndexes`, all but `readBySync`); returns whether it did. The caller builds them
    /// again (`restoreDeferredIndexes`) when its fetch ends, however it ends; after a kill, the
    /// next open does.
    public func deferIndexesForFirstSync() throws -> Bool {
        try write { db in
            guard try Bool.fetchOne(db, sql: "SELECT NOT EXISTS (SELECT 1 FROM note)") == true else { return false }
            try DeferredIndexes.drop(db, keeping: DeferredIndexes.readBySync)
            return true
        }
    }

    /// Builds the indexes an import or a first sync deferred (nothing when none are). Not a bulk
    /// write: its sorts may spill to temporary files (`temp_store` as by default), so building
    /// the indexes of 100k notes does not hold them all in memory (50 MB more of peak RSS so).
    public func restoreDeferredIndexes() throws {
        try write { try DeferredIndexes.restore($0) }
    }
}

extension Database {
    /// `cachedStatement(sql:)` for a query that names an index for its plan (`INDEXED BY`):
    /// while an import in another process has the index dropped (`DeferredIndexes`), the same
    /// query without the names, which runs by scans.
    func indexedStatement(sql: String) throws -> Statement {
        do {
            return try cachedStatement(sql: sql)
        } catch let error as DatabaseError where error.message?.hasPrefix("no such index") == true {
            return try cachedStatement(sql: DeferredIndexes.withoutIndexNames(sql))
        }
    }
}
