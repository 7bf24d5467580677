import Foundation
import GRDB
import NotesCore

/// Shared notebooks in the store (SYNC-FORMAT "Notes in a shared place"): moving a notebook
/// into its place's zone, and the notebooks this account may only read.
extension NoteStore {
    /// The `sync_state` key that marks a shared notebook read-only here; its value names the
    /// owner, for the refusal.
    static func readOnlyKey(_ zone: String) -> String { "readOnly.\(zone)" }

    /// Marks the shared notebook `zone` read-only for this account (`owner` names who shares it),
    /// or writable again with nil (the role the membership gives, refreshed by each sync).
    public func setReadOnly(_ zone: String, owner: String?) throws {
        try write { db in
            if let owner {
                try Self.setSyncValue(Self.readOnlyKey(zone), owner, db)
            } else {
                try db.run("DELETE FROM sync_state WHERE key = ?", [Self.readOnlyKey(zone)])
            }
        }
    }

    /// The `sync_state` key of how the shared notebook `zone` is shared with this account.
    static func sharingKey(_ zone: String) -> String { "sharing.\(zone)" }

    /// Records how the shared notebook `zone` is shared with this account (refreshed by each
    /// sync of its place), for the picker and `notebooks`.
    public func setSharing(_ zone: String, _ sharing: NotebookSharing) throws {
        guard NotebookSlug.isSharedZone(zone) else {
            throw StoreError(.invalidInput, "only a shared notebook has an owner and a role")
        }
        try write { db in try Self.setSyncValue(Self.sharingKey(zone), sharing.stored, db) }
    }

    /// How the shared notebook `zone` is shared with this account; nil for one of its own (or
    /// one whose place has not been synced yet).
    public func sharing(ofNotebook zone: String) throws -> NotebookSharing? {
        guard NotebookSlug.isSharedZone(zone) else { return nil }
        return try read { db in
            try Self.syncValue(Self.sharingKey(zone), db).flatMap(NotebookSharing.init(stored:))
        }
    }

    /// How each shared notebook is shared with this account, by zone.
    static func notebookSharing(_ db: Database) throws -> [String: NotebookSharing] {
        var sharing: [String: NotebookSharing] = [:]
        let prefix = sharingKey("")
        for row in try Row.fetchAll(
            db, sql: "SELECT key, value FROM sync_state WHERE key >= ? AND key < ?",
            arguments: [prefix, prefix + "\u{10FFFF}"])
        {
            let key: String = row["key"]
            sharing[String(key.dropFirst(prefix.count))] = NotebookSharing(stored: row["value"])
        }
        return sharing
    }

    /// Who shares the read-only notebook `zone`, or nil when this account may write in it.
    public func readOnlyOwner(_ zone: String) throws -> String? {
        try read { db in try Self.readOnlyOwner(zone, db) }
    }

    static func readOnlyOwner(_ zone: String, _ db: Database) throws -> String? {
        guard NotebookSlug.isSharedZone(zone) else { return nil }
        return try syncValue(readOnlyKey(zone), db)
    }

    /// Refuses, naming its owner, when notebook `zone` is one this account may only read.
    public func requireWritable(_ zone: String) throws {
        try read { db in try Self.requireWritable(zone, db) }
    }

    /// Refuses a change to a note of a notebook this account may only read, naming its owner.
    static func requireWritable(_ zone: String, _ db: Database) throws {
        if let owner = try readOnlyOwner(zone, db) {
            throw StoreError(
                .invalidInput,
                "this notebook is shared with you read-only by \(owner); nothing was changed (ask them for read-write)")
        }
    }

    /// Moves every note of notebook `zone` (in the trash too) into the shared notebook `shared`
    /// in one transaction: a move edit of each, then every revision of those notes queued for
    /// the place, oldest first, so that its members receive their whole history. The shared
    /// notebook takes the name; the old one is marked deleted here without a marker (the
    /// account's other devices keep it until they move its notes themselves). Returns how many
    /// notes moved.
    @discardableResult
    public func moveNotebook(_ zone: String, intoShared shared: String) throws -> Int {
        guard NotebookSlug.isSharedZone(shared), !NotebookSlug.isSharedZone(zone) else {
            throw StoreError(.invalidInput, "only a notebook of your own moves into a shared place")
        }
        return try write { db in
            let name =
                try String.fetchOne(
                    db, sql: "SELECT displayName FROM notebook WHERE zone = ? AND deletedAt IS NULL", arguments: [zone])
                ?? zone
            // Each note whole, its attachments too: a row does not carry them, and the move edit
            // writes the note's attachments as the note holds them.
            let notes = try String.fetchAll(db, sql: "SELECT id FROM note WHERE zone = ?", arguments: [zone])
                .compactMap(UUID.init(uuidString:)).compactMap { try Self.fetchNote(db, id: $0) }
            for current in notes {
                var next = current
                next.zone = shared
                _ = try save(next, previous: current, db)
            }
            // The move edits are queued already; their history goes before them.
            let queued = try Set(
                String.fetchAll(db, sql: "SELECT revID FROM outbox WHERE zone = ?", arguments: [shared]))
            try enqueueHistory(zone: shared, skipping: queued, db)
            try setName(name, zone: shared, db)
            if zone != Note.defaultZone {
                try db.run(
                    "UPDATE notebook SET deletedAt = ?, namePending = 0 WHERE zone = ?",
                    [clock().millisecondsSince1970, zone])
            }
            return notes.count
        }
    }
}
