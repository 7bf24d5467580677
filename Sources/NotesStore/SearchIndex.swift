import Foundation
import GRDB
import NotesCore

/// Keeps the search tables in step with the notes (ARCHITECTURE §5).
///
/// - `note.searchRowid`: every note that is not in the trash has one (NULL in the trash). A
///   search confirms every candidate against the note row's text: its folded title
///   (`sortTitle`) and its body and tags folded as they are read (`IndexedText.foldedBody`:
///   tags after a U+FFFF, which no query term contains). So the index may name more notes
///   than match (a note since edited or trashed), never fewer. No folded copy of the text is
///   stored (D-228; until then `search_text` held one).
/// - A trigram index of our own over that text (`SearchKeys`): immutable *segments*, each a
///   sorted table of the searchRowids it covers (`search_segment.docs`) and, per key, the
///   posting list of the documents whose text has that key (`search_posting`, rowid =
///   segment id << 25 + key; varint gaps of document numbers, or a bitmap when shorter:
///   `Postings`, D-230). Every write transaction adds
///   one segment for the notes it (re)indexed (`PendingIndex`, flushed by `NoteStore.write`;
///   a large transaction writes one per `maxPendingKeys`). Eight segments of a size class are
///   merged into one, dropping documents whose text is gone, so a single edit never inherits
///   the merge of a bulk write's segments and a query reads a few dozen segments at most.
///
/// Why not FTS5 (which stores every trigram's positions): its index cost 25-37 s of CPU for
/// 100k notes (insert plus merge), more than the whole import may take; these keys without
/// positions cost about a tenth, and what positions gave is a byte search (`memchr`/`memcmp`)
/// over the text a search reads anyway.
///
/// `searchRowid` is ordered by modification time (`modifiedAt` ms × `slotsPerMillisecond` + a
/// tie-breaker), so "most recent first" is "rowid descending": a search walks candidates that
/// way and stops after its first page instead of ranking every match.
enum SearchIndex {
    /// U+FFFF, a noncharacter: never typed, stripped from query terms; separates body and tags.
    static let sentinel = "\u{FFFF}"

    /// Reindexes `note`; returns its searchRowid (nil when in the trash). `text`: the note's
    /// search text when it was prepared already.
    static func update(
        note: Note, previous: Note?, text: IndexedText? = nil, pending: PendingIndex, _ db: Database
    ) throws -> Int64? {
        // A note that did not exist has no row in the index (the common case of an import).
        let oldRowid =
            previous == nil
            ? nil
            : try Int64.fetchOne(
                db.cachedStatement(sql: "SELECT searchRowid FROM note WHERE id = ?"),
                arguments: [note.idString])
        if let previous, let oldRowid, !note.isTrashed, previous.title == note.title,
            previous.body == note.body,
            previous.tags == note.tags, previous.modifiedAt == note.modifiedAt
        {
            return oldRowid
        }
        if let oldRowid { try remove(rowid: oldRowid, db) }
        guard !note.isTrashed else { return nil }
        let rowid = try allocateRowid(modifiedAt: note.modifiedAt.millisecondsSince1970, pending: pending, db)
        let text =
            text
            ?? IndexedText(
                title: note.title, body: note.body, tags: note.tags, scratch: &pending.scratch,
                folder: &pending.folder)
        queueKeys(rowid: rowid, text, pending: pending)
        return rowid
    }

    /// Queues one note's keys for this transaction's segment (the note row takes the rowid).
    static func queueKeys(rowid: Int64, _ text: IndexedText, pending: PendingIndex) {
        pending.add(rowid: rowid, keys: text.keys)
        if let highest = pending.highestRowid { pending.highestRowid = max(highest, rowid) }
        if pending.keyCount >= maxPendingKeys { pending.seal(async: true) }
    }

    static func remove(noteID: String, _ db: Database) throws {
        let statement = try db.cachedStatement(sql: "SELECT searchRowid FROM note WHERE id = ?")
        if let rowid = try Int64.fetchOne(statement, arguments: [noteID]) {
            try remove(rowid: rowid, db)
        }
    }

    /// The rowid goes; the postings that name it stay until their segment is merged (searches
    /// check the text).
    private static func remove(rowid: Int64, _ db: Database) throws {
        try db.run("UPDATE note SET searchRowid = NULL WHERE searchRowid = ?", [rowid])
    }

    /// Rebuilds the index from the notes (a migration, or after a change to what is indexed).
    static func rebuild(_ db: Database) throws {
        try db.execute(sql: "DELETE FROM search_posting; DELETE FROM search_segment")
        let pending = PendingIndex()
        let rows = try Row.fetchCursor(
            db,
            sql: "SELECT searchRowid, title, body, tags FROM note WHERE searchRowid IS NOT NULL ORDER BY searchRowid")
        while let row = try rows.next() {
            let text = IndexedText(
                title: row["title"], body: row["body"], tags: NoteStore.decodeTags(row["tags"]),
                scratch: &pending.scratch, folder: &pending.folder)
            queueKeys(rowid: row["searchRowid"], text, pending: pending)
        }
        try flush(pending, db)
        try optimize(db)
    }

    // MARK: Segments

    /// Segments of one size class merge when there are this many.
    static let mergeFanout = 8

    /// Keys a transaction collects before they are sealed into a segment (a large transaction
    /// writes several), sorted on another thread: about 40 MB at the peak of sorting them.
    static let maxPendingKeys = 2_000_000

    /// Writes this transaction's documents as segments, then merges what has piled up.
    static func flush(_ pending: PendingIndex, _ db: Database) throws {
        guard !pending.isEmpty else { return }
        defer { pending.reset() }
        // The last part is small unless the transaction was large: sorted here.
        pending.seal(async: false)
        for sort in pending.takeSealed() {
            try writeSegment(try sort.get(), db)
        }
        try mergeIfNeeded(db)
    }

    /// Merges every segment into one (after a rebuild; queries then read one list per key).
    static func optimize(_ db: Database) throws {
        let ids = try Int64.fetchAll(db, sql: "SELECT id FROM search_segment ORDER BY id")
        guard !ids.isEmpty else { return }
        if ids.count == 1 {
            // One segment: rewritten only when a tenth of it is notes since edited or trashed.
            let indexed = try Int.fetchOne(db, sql: "SELECT documents FROM search_segment") ?? 0
            let live = try Int.fetchOne(db, sql: "SELECT count(searchRowid) FROM note") ?? 0
            guard (indexed - live) * 10 > indexed else { return }
        }
        try merge(ids, db)
    }

    /// Size class of a segment: one per factor of `mergeFanout` in documents.
    private static func sizeClass(_ documents: Int) -> Int {
        var size = max(documents, 1)
        var level = 0
        while size >= mergeFanout {
            size /= mergeFanout
            level += 1
        }
        return level
    }

    private static func mergeIfNeeded(_ db: Database) throws {
        while true {
            let rows = try Row.fetchAll(db, sql: "SELECT id, documents FROM search_segment ORDER BY id")
            var byClass: [Int: [Int64]] = [:]
            for row in rows { byClass[sizeClass(row["documents"]), default: []].append(row["id"]) }
            guard let full = byClass.sorted(by: { $0.key < $1.key }).first(where: { $0.value.count >= mergeFanout })
            else { return }
            try merge(full.value, db)
        }
    }

    private static func writeSegment(_ segment: SegmentSort.Output, _ db: Database) throws {
        guard !segment.documents.isEmpty else { return }
        try db.run(
            "INSERT INTO search_segment(documents, docs) VALUES (?, ?)",
            [segment.documents.count, SegmentDocs.encode(segment.documents)])
        let id = db.lastInsertedRowID
        for (index, key) in segment.keys.enumerated() {
            let bytes = segment.bytes[(index == 0 ? 0 : segment.ends[index - 1])..<segment.ends[index]]
            try insertPosting(segment: id, key: key, Data(bytes), db)
        }
    }

    /// Stores `bytes` as `key`'s posting list in `segment`.
    static func insertPosting(segment: Int64, key: UInt32, _ bytes: Data, _ db: Database) throws {
        try db.run("INSERT INTO search_posting(rowid, docs) VALUES (?, ?)", [segment << 25 + Int64(key), bytes])
    }

    /// Merges `ids` into one new segment of their documents that still have text; rebuilds the
    /// whole index instead when one of them does not decode (ARCHITECTURE §7).
    private static func merge(_ ids: [Int64], _ db: Database) throws {
        do {
            try SegmentMerge(ids, db).write(db)
        } catch is SearchIndexDamage {
            try rebuild(db)
        }
    }

    // MARK: Rowids

    /// Rowids per millisecond of `modifiedAt`: notes of one millisecond take consecutive ones.
    /// (It was 256, and the 257th note of a millisecond took the next one's rowids, ranking
    /// above newer notes; an import of a zip with 2-second file dates can have that many.)
    static let slotsPerMillisecond: Int64 = 4096

    /// The first rowid of `modifiedAt`'s slots; dates beyond ±70,000 years share the last slots.
    static func baseRowid(modifiedAt: Int64) -> Int64 {
        let limit = Int64.max / slotsPerMillisecond - 1
        return min(max(modifiedAt, -limit), limit) * slotsPerMillisecond
    }

    /// Folds the stored folded forms again (sort titles, tags) after a change to `TextFolding`
    /// (a migration; the index is rebuilt after).
    /// Only rows whose fold changed are written.
    static func refold(_ db: Database) throws {
        for row in try Row.fetchAll(db, sql: "SELECT id, title, sortTitle FROM note") {
            let folded = TextFolding.fold(row["title"])
            guard !folded.utf8.elementsEqual((row["sortTitle"] as String).utf8) else { continue }
            try db.execute(
                sql: "UPDATE note SET sortTitle = ? WHERE id = ?", arguments: [folded, row["id"] as String])
        }
        for row in try Row.fetchAll(db, sql: "SELECT noteID, tag, foldedTag FROM note_tag") {
            let folded = TextFolding.fold(row["tag"])
            guard !folded.utf8.elementsEqual((row["foldedTag"] as String).utf8) else { continue }
            try db.execute(
                sql: "UPDATE note_tag SET foldedTag = ? WHERE noteID = ? AND tag = ?",
                arguments: [folded, row["noteID"] as String, row["tag"] as String])
        }
    }

    /// Whether an indexed note has text whose fold v7 changed (migration v7): a scalar whose
    /// fold keeps a nonspacing mark (before v7 every one was dropped; all other text folds as
    /// before). Text without a UTF-8 lead byte of U+0300 or above (0xCC) has none, so Latin,
    /// Greek and Cyrillic notes cost one byte scan.
    static func hasTextFoldedDifferentlySinceV7(_ db: Database) throws -> Bool {
        var verdicts: [Unicode.Scalar: Bool] = [:]
        func changed(_ text: String) -> Bool {
            guard text.utf8.contains(where: { $0 >= 0xCC }) else { return false }
            for scalar in text.unicodeScalars where scalar.value >= 0x300 {
                if let verdict = verdicts[scalar] {
                    if verdict { return true }
                    continue
                }
                let verdict = TextFolding.fold(String(scalar)).unicodeScalars.contains {
                    $0.properties.generalCategory == .nonspacingMark
                }
                verdicts[scalar] = verdict
                if verdict { return true }
            }
            return false
        }
        let rows = try Row.fetchCursor(db, sql: "SELECT title, body, tags FROM note WHERE searchRowid IS NOT NULL")
        while let row = try rows.next() {
            if changed(row["title"]) || changed(row["body"]) { return true }
            if NoteStore.decodeTags(row["tags"]).contains(where: changed) { return true }
        }
        return false
    }

    /// Gives every indexed note a rowid under the current `slotsPerMillisecond`, keeping their
    /// order (a migration; the index is rebuilt after).
    static func renumber(_ db: Database) throws {
        let rows = try Row.fetchAll(
            db, sql: "SELECT id, modifiedAt FROM note WHERE searchRowid IS NOT NULL ORDER BY modifiedAt, searchRowid")
        try db.execute(sql: "UPDATE note SET searchRowid = NULL WHERE searchRowid IS NOT NULL")
        var previous = Int64.min
        for row in rows {
            let rowid = max(baseRowid(modifiedAt: row["modifiedAt"]), previous &+ 1)
            try db.execute(
                sql: "UPDATE note SET searchRowid = ? WHERE id = ?", arguments: [rowid, row["id"] as String])
            previous = rowid
        }
    }

    /// The next free rowid of `modifiedAt`'s slots: one index lookup, however many notes share
    /// the millisecond (a probe per taken slot made an import of same-dated notes quadratic).
    /// Past its 4096 slots a millisecond spills above the highest rowid of the next second.
    ///
    /// Notes newer than every indexed one (an import, oldest first; a new edit) need no query:
    /// the transaction remembers the highest rowid (`PendingIndex.highestRowid`; an
    /// overestimate after a removal only numbers a millisecond's notes higher).
    private static func allocateRowid(modifiedAt: Int64, pending: PendingIndex, _ db: Database) throws -> Int64 {
        let base = baseRowid(modifiedAt: modifiedAt)
        let spill = base + slotsPerMillisecond
        if pending.highestRowid == nil {
            pending.highestRowid = try Int64.fetchOne(db, sql: "SELECT max(searchRowid) FROM note") ?? Int64.min
        }
        if let top = pending.highestRowid {
            if top < base { return base }
            if top < spill - 1 { return top + 1 }
        }
        let highest = try db.cachedStatement(
            sql: "SELECT max(searchRowid) FROM note WHERE searchRowid >= ? AND searchRowid < ?")
        var rowid = (try Int64.fetchOne(highest, arguments: [base, spill])).map { $0 + 1 } ?? base
        if rowid >= spill {
            rowid =
                (try Int64.fetchOne(highest, arguments: [spill, spill + 1000 * slotsPerMillisecond])).map { $0 + 1 }
                ?? spill
        }
        let taken = try db.cachedStatement(sql: "SELECT 1 FROM note WHERE searchRowid = ?")
        while try Bool.fetchOne(taken, arguments: [rowid]) == true { rowid += 1 }
        return rowid
    }
}
