import Foundation
import GRDB
import NotesCore

extension NoteStore {
    /// Zone (notebook) ids: `[a-z0-9-]{1,64}` (SYNC-FORMAT).
    public static func isValidZone(_ zone: String) -> Bool {
        (1...64).contains(zone.utf8.count)
            && zone.utf8.allSatisfy {
                ($0 >= 0x61 && $0 <= 0x7A) || ($0 >= 0x30 && $0 <= 0x39) || $0 == 0x2D
            }
    }

    /// Creates a note; an empty title is derived from the first body line.
    @discardableResult
    public func create(
        title: String, body: String, tags: [String] = [], isFavorite: Bool = false,
        zone: String = Note.defaultZone, id: UUID = UUID()
    ) throws -> Note {
        guard Self.isValidZone(zone) else {
            throw StoreError(
                .invalidInput,
                "notebook \"\(TerminalSafeText.sanitize(zone))\" is not valid: use 1-64 lowercase letters, digits and '-'"
            )
        }
        let now = clock()
        let note = Note(
            id: id, zone: zone, title: Self.effectiveTitle(title, body: body), body: body, tags: tags,
            isFavorite: isFavorite, createdAt: now, modifiedAt: now)
        return try write { db in
            if try Self.fetchNote(db, id: id) != nil {
                throw StoreError(.invalidInput, "a note with id \(note.idString) already exists")
            }
            return try save(note, previous: nil, db)
        }
    }

    /// Applies `change` to the note and saves it as a new revision if anything changed.
    /// Content changes (title, body, tags, notebook) bump `modifiedAt`.
    @discardableResult
    public func update(_ id: UUID, _ change: (inout Note) throws -> Void) throws -> Note {
        try write { db in
            guard let current = try Self.fetchNote(db, id: id) else {
                throw StoreError(.notFound, "no note with id \(id.lowercasedString)")
            }
            guard let next = try edited(current, change) else { return current }
            return try save(next, previous: current, db)
        }
    }

    /// `current` with `change` applied and checked (tags normalized, the effective title, a
    /// valid notebook, `modifiedAt` bumped for content changes); nil when no field changed.
    func edited(_ current: Note, _ change: (inout Note) throws -> Void) throws -> Note? {
        var next = current
        try change(&next)
        next.id = current.id
        next.tags = Note.normalizedTags(next.tags)
        next.title = Self.effectiveTitle(next.title, body: next.body)
        guard Self.isValidZone(next.zone) else {
            throw StoreError(.invalidInput, "notebook \"\(TerminalSafeText.sanitize(next.zone))\" is not valid")
        }
        if Self.contentChanged(current, next) {
            next.modifiedAt = max(clock(), current.modifiedAt).roundedToMilliseconds
        }
        return RevisionFields(note: next) == RevisionFields(note: current) ? nil : next
    }

    public func setFavorite(_ id: UUID, _ isFavorite: Bool) throws -> Note {
        try update(id) { $0.isFavorite = isFavorite }
    }

    /// Moves a note to the trash (it keeps syncing, as a field, and can be restored).
    public func trash(_ id: UUID) throws -> Note {
        let now = clock()
        return try update(id) { note in
            if note.deletedAt == nil { note.deletedAt = now }
        }
    }

    public func restore(_ id: UUID) throws -> Note {
        try update(id) { $0.deletedAt = nil }
    }

    /// Deletes a note for good: writes a tombstone revision and a delete for sync.
    /// Its earlier revisions stay in history until pruning, as merges may still need them.
    public func purge(_ id: UUID) throws {
        try write { db in
            guard let current = try Self.fetchNote(db, id: id) else {
                throw StoreError(.notFound, "no note with id \(id.lowercasedString)")
            }
            try purge(current, db)
        }
    }

    /// Purges the note only while it is in the trash, in one transaction (a note restored
    /// meanwhile, by another process or sync, is kept); returns whether it was purged.
    @discardableResult
    public func purgeFromTrash(_ id: UUID) throws -> Bool {
        try write { db in
            guard let current = try Self.fetchNote(db, id: id), current.deletedAt != nil else { return false }
            try purge(current, db)
            return true
        }
    }

    /// Purges every note in the trash; returns how many.
    @discardableResult
    public func emptyTrash() throws -> Int {
        try write { db in
            let trashed = try Row.fetchAll(
                db.cachedStatement(sql: "SELECT * FROM note WHERE deletedAt IS NOT NULL")
            ).map { try Self.note(from: $0) }
            for note in trashed { try purge(note, db) }
            return trashed.count
        }
    }

    private func purge(_ note: Note, _ db: Database) throws {
        try Self.requireWritable(note.zone, db)
        let tombstone = Revision(
            recordID: note.id, parents: note.headRev.map { [$0] } ?? [], fields: nil,
            hlc: try nextHLC(db), device: deviceID)
        try insert(tombstone, db)
        try SearchIndex.remove(noteID: note.idString, db)
        try Self.restoreHeadBody(note.idString, db)
        try db.run(
            "DELETE FROM note WHERE id = ?",
            [note.idString])
        try enqueue(tombstone, zone: note.zone, kind: "delete", db)
    }

    /// Whether title, body, tags or notebook differ in any byte (not just canonically).
    static func contentChanged(_ a: Note, _ b: Note) -> Bool {
        func differ(_ x: String, _ y: String) -> Bool { !x.utf8.elementsEqual(y.utf8) }
        return differ(a.title, b.title) || differ(a.body, b.body) || differ(a.zone, b.zone)
            || a.tags.count != b.tags.count || zip(a.tags, b.tags).contains(where: differ)
            || a.attachments != b.attachments
    }

    static func effectiveTitle(_ title: String, body: String) -> String {
        // Most titles neither start nor end with white space: no trimming needed to know.
        if let first = title.unicodeScalars.first, let last = title.unicodeScalars.last,
            !first.properties.isWhitespace, !last.properties.isWhitespace
        {
            return title
        }
        return title.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty
            ? Note.derivedTitle(fromBody: body) : title
    }

    /// The one write path of a local edit: revision, note row, search index and outbox, in the
    /// caller's transaction. `prepared`: `note` itself made ready off the writer's thread (an
    /// import); else it is prepared here.
    @discardableResult
    func save(
        _ note: Note, previous: Note?, stamp: HLC? = nil, prepared: PreparedNote? = nil, _ db: Database
    ) throws -> Note {
        try Self.requireWritable(note.zone, db)
        if let previous, previous.zone != note.zone { try Self.requireWritable(previous.zone, db) }
        let prepared = try prepared ?? PreparedNote(note)
        var note = note
        let revision = prepared.revision(
            parents: previous?.headRev.map { [$0] } ?? [], hlc: try stamp ?? nextHLC(db), device: deviceID)
        // The new head, its body cut out: the note row about to be written holds it (HeadBody).
        let headElided = try insert(
            revision, canonicalFields: prepared.canonicalFields, elided: prepared.headFields, db)
        note.headRev = revision.id
        // Conflict markers kept by an edit keep the flag (NoteStore+ConflictFlag.swift).
        note.syncState = Self.keepsConflictFlag(previous?.syncState, body: note.body) ? .conflict : .pending
        let searchRowid = try SearchIndex.update(
            note: note, previous: previous, text: prepared.text, pending: pendingIndex, db)
        try Self.upsert(
            note, searchRowid: searchRowid, isNew: previous == nil, sortTitle: prepared.text.map(\.foldedTitle),
            headElided: headElided, db)
        try enqueue(revision, zone: note.zone, kind: "save", db)
        return note
    }

    /// Stores a revision; `elided`: its fields with the body of the note row that is about to
    /// name it as its head cut out (`HeadBody.elide`). Returns whether it was stored so (not
    /// when a revision of that id was there already).
    @discardableResult
    func insert(
        _ revision: Revision, canonicalFields: [UInt8]? = nil, elided: (text: String, offset: Int)? = nil,
        _ db: Database
    ) throws -> Bool {
        let parents = JSONValue.array(revision.parents.map(JSONValue.string)).canonicalString
        let whole = elided == nil ? canonicalFields ?? revision.fields?.canonicalBytes : nil
        try db.run(
            """
            INSERT OR IGNORE INTO revision(id, recordID, parents, fields, hlc, device, bodyAt)
            VALUES (?, ?, ?, ?, ?, ?, ?)
            """,
            [
                revision.id, revision.recordID.lowercasedString, parents,
                elided?.text ?? whole.map { String(decoding: $0, as: UTF8.self) }, revision.hlc.packed,
                revision.device, elided?.offset,
            ])
        return elided != nil && db.changesCount > 0
    }

    func enqueue(_ revision: Revision, zone: String, kind: String, _ db: Database) throws {
        try db.run(
            "INSERT INTO outbox(recordID, zone, revID, kind, createdAt) VALUES (?, ?, ?, ?, ?)",
            [
                revision.recordID.lowercasedString, zone, revision.id, kind,
                clock().millisecondsSince1970,
            ])
    }

    /// The next HLC stamp, persisted in the same transaction so that two processes on one
    /// device never hand out the same stamp.
    func nextHLC(_ db: Database) throws -> HLC {
        var clock = try hybridLogicalClock(db)
        let stamp = clock.tick(now: self.clock().millisecondsSince1970)
        try persist(stamp, db)
        return stamp
    }

    /// The device's clock as last persisted (callers that tick it must `persist` the last stamp
    /// in the same transaction).
    func hybridLogicalClock(_ db: Database) throws -> HybridLogicalClock {
        let packed =
            try Int64.fetchOne(db.cachedStatement(sql: "SELECT value FROM sync_state WHERE key = 'hlc'"))
            ?? 0
        return HybridLogicalClock(last: HLC(packed: packed))
    }

    func persist(_ stamp: HLC, _ db: Database) throws {
        try db.run(
            "INSERT INTO sync_state(key, value) VALUES ('hlc', ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value",
            [stamp.packed])
    }

    /// Writes the note row and its tags; `isNew`: the note has no row yet (no old tags to drop,
    /// no old head to write back). The head revision holds the body only while the row does not
    /// (`HeadBody`): the old head's is written back first, the new head's cut out after, unless
    /// it was stored cut (`headElided`: an edit or an import inserted it so).
    static func upsert(
        _ note: Note, searchRowid: Int64?, isNew: Bool, sortTitle: String? = nil, headElided: Bool = false,
        _ db: Database
    ) throws {
        // A new row has no old head to write back. Debug builds check the caller's word: over a
        // row that exists, the old head would keep its body cut out with no row to hold it.
        assert(
            !isNew || !hasNoteRow(note.idString, db), "upsert(isNew: true) of note \(note.idString), which has a row")
        let oldHeadKept = try !isNew && restoreHeadBody(note.idString, keeping: note, db)
        let headStaysElided = oldHeadKept || headElided
        let tagsJSON = JSONValue.array(note.tags.map(JSONValue.string)).canonicalString
        try db.run(
            """
            INSERT INTO note(id, zone, title, body, tags, isFavorite, createdAt, modifiedAt,
                             deletedAt, headRev, syncState, sortTitle, searchRowid, frontMatter)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            ON CONFLICT(id) DO UPDATE SET
                zone = excluded.zone, title = excluded.title, body = excluded.body,
                tags = excluded.tags, isFavorite = excluded.isFavorite,
                createdAt = excluded.createdAt, modifiedAt = excluded.modifiedAt,
                deletedAt = excluded.deletedAt, headRev = excluded.headRev,
                syncState = excluded.syncState, sortTitle = excluded.sortTitle,
                searchRowid = excluded.searchRowid, frontMatter = excluded.frontMatter
            """,
            [
                note.idString, note.zone, note.title, note.body, tagsJSON, note.isFavorite,
                note.createdAt.millisecondsSince1970, note.modifiedAt.millisecondsSince1970,
                note.deletedAt?.millisecondsSince1970, note.headRev, note.syncState.rawValue,
                sortTitle ?? TextFolding.fold(note.title), searchRowid, note.frontMatter,
            ])
        if !headStaysElided { try elideHeadBody(note, db) }
        try LinkIndex.update(note, isNew: isNew, db)
        if !isNew { try db.run("DELETE FROM note_tag WHERE noteID = ?", [note.idString]) }
        for tag in note.tags {
            try db.run(
                "INSERT INTO note_tag(noteID, tag, foldedTag) VALUES (?, ?, ?)",
                [note.idString, tag, TextFolding.fold(tag)])
        }
        try writeAttachments(note, isNew: isNew, db)
    }

    /// Whether `id` has a note row (for a debug assertion: a failed look-up counts as none).
    private static func hasNoteRow(_ id: String, _ db: Database) -> Bool {
        // Only a debug assertion asks; an error here is the caller's to meet on its next statement.
        (try? Bool.fetchOne(db.cachedStatement(sql: "SELECT 1 FROM note WHERE id = ?"), arguments: [id])) != nil
    }
}
