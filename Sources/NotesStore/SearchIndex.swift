import GRDB
import NotesCore

/// Keeps the search tables in step with the notes (DESIGN §5).
///
/// `note_fts` holds the folded title, body and tags under a trigram tokenizer (case-sensitive,
/// because the text is already folded), so any substring of three or more scalars is an index
/// lookup. `search_title` is a narrow copy of the folded titles for the short queries the
/// trigram index cannot answer. Both are keyed by the note's `searchRowid`, which is ordered by
/// modification time (`modifiedAt` ms × `slotsPerMillisecond` + a tie-breaker): "most recent
/// first" is then "rowid descending", which FTS5 streams without sorting, so a query stops
/// after its first page instead of ranking every match. Notes in the trash are not indexed.
///
/// Each indexed column ends in two `sentinel` scalars, so that every occurrence of a one- or
/// two-scalar term starts some trigram (`SearchPlan` finds rare short terms that way).
enum SearchIndex {
    /// U+FFFF, a noncharacter: never typed, and stripped from query terms.
    static let sentinel = "\u{FFFF}"
    static let ending = sentinel + sentinel

    /// The folded text of one FTS column.
    static func indexed(_ text: String) -> String { TextFolding.fold(text) + ending }

    /// Reindexes `note`; returns its searchRowid (nil when in the trash).
    static func update(note: Note, previous: Note?, _ db: Database) throws -> Int64? {
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
        let rowid = try allocateRowid(modifiedAt: note.modifiedAt.millisecondsSince1970, db)
        try insertRow(rowid: rowid, title: note.title, body: note.body, tags: note.tags, db)
        return rowid
    }

    /// How much text FTS5 collects in memory before it writes a segment (its default is 1 MB).
    /// A transaction of many notes then writes a few large segments instead of hundreds of
    /// small ones that merging rewrites again and again: a third less CPU for an import of
    /// 100k notes (measured with SQLite 3.40, 10,000-note transactions). Only large
    /// transactions (imports, rebuilds) ever hold that much; a single save holds kilobytes.
    static let pendingTextBytes = 64 << 20

    /// Sets `pendingTextBytes` (FTS5's persistent `hashsize` option) if it is not set yet.
    static func reserveMemoryForLargeTransactions(_ db: Database) throws {
        let current = try Int.fetchOne(db, sql: "SELECT v FROM note_fts_config WHERE k = 'hashsize'")
        if current != pendingTextBytes {
            try db.execute(
                sql: "INSERT INTO note_fts(note_fts, rank) VALUES ('hashsize', ?)", arguments: [pendingTextBytes])
        }
    }

    /// After a bulk write of at least this many notes the index is merged into one segment.
    static let optimizeAfterNotes = 1000

    /// Merges the index into one segment (FTS5 `optimize`).
    ///
    /// A bulk write (an import, an initial sync) leaves many large segments behind, and with
    /// the lazy merging this index uses (`automerge` 16, `crisismerge` 64) a later single edit
    /// can set off the merge of all of them: seconds inside one `cloudnotes add` or autosave
    /// (measured: 2-4 s at 100k notes, 0.1-0.6 s at 10k). Paid once here instead, about 10 s
    /// at 100k notes and 1 s at 10k, every later write stays small.
    static func optimize(_ db: Database) throws {
        try db.execute(sql: "INSERT INTO note_fts(note_fts) VALUES ('optimize')")
    }

    /// Adds one note's folded text to `note_fts` and `search_title`.
    static func insertRow(rowid: Int64, title: String, body: String, tags: [String], _ db: Database) throws {
        let foldedTitle = TextFolding.fold(title)
        try db.run(
            "INSERT INTO note_fts(rowid, title, body, tags) VALUES (?, ?, ?, ?)",
            [rowid, foldedTitle + ending, indexed(body), indexed(tags.joined(separator: "\n"))])
        try db.run("INSERT INTO search_title(rowid, title) VALUES (?, ?)", [rowid, foldedTitle])
    }

    /// Rebuilds both tables from the notes (after a change to what is indexed).
    static func rebuild(_ db: Database) throws {
        try reserveMemoryForLargeTransactions(db)
        try db.execute(sql: "DELETE FROM note_fts; DELETE FROM search_title")
        let rows = try Row.fetchCursor(
            db,
            sql: "SELECT searchRowid, title, body, tags FROM note WHERE searchRowid IS NOT NULL ORDER BY searchRowid")
        while let row = try rows.next() {
            try insertRow(
                rowid: row["searchRowid"], title: row["title"], body: row["body"],
                tags: NoteStore.decodeTags(row["tags"]), db)
        }
    }

    static func remove(noteID: String, _ db: Database) throws {
        let statement = try db.cachedStatement(sql: "SELECT searchRowid FROM note WHERE id = ?")
        if let rowid = try Int64.fetchOne(statement, arguments: [noteID]) {
            try remove(rowid: rowid, db)
        }
    }

    private static func remove(rowid: Int64, _ db: Database) throws {
        try db.run(
            "DELETE FROM note_fts WHERE rowid = ?",
            [rowid])
        try db.run(
            "DELETE FROM search_title WHERE rowid = ?",
            [rowid])
        try db.run(
            "UPDATE note SET searchRowid = NULL WHERE searchRowid = ?",
            [rowid])
    }

    /// Rowids per millisecond of `modifiedAt`: notes of one millisecond take consecutive ones.
    /// (It was 256, and the 257th note of a millisecond took the next one's rowids, ranking
    /// above newer notes; an import of a zip with 2-second file dates can have that many.)
    static let slotsPerMillisecond: Int64 = 4096

    /// The first rowid of `modifiedAt`'s slots; dates beyond ±70,000 years share the last slots.
    static func baseRowid(modifiedAt: Int64) -> Int64 {
        let limit = Int64.max / slotsPerMillisecond - 1
        return min(max(modifiedAt, -limit), limit) * slotsPerMillisecond
    }

    /// Folds the stored folded forms again (sort titles, tags, the index) after a change to
    /// `TextFolding` (a migration).
    static func refold(_ db: Database) throws {
        for row in try Row.fetchAll(db, sql: "SELECT id, title FROM note") {
            try db.execute(
                sql: "UPDATE note SET sortTitle = ? WHERE id = ?",
                arguments: [TextFolding.fold(row["title"]), row["id"] as String])
        }
        for row in try Row.fetchAll(db, sql: "SELECT noteID, tag FROM note_tag") {
            try db.execute(
                sql: "UPDATE note_tag SET foldedTag = ? WHERE noteID = ? AND tag = ?",
                arguments: [TextFolding.fold(row["tag"]), row["noteID"] as String, row["tag"] as String])
        }
        try rebuild(db)
    }

    /// Gives every indexed note a rowid under the current `slotsPerMillisecond`, keeping their
    /// order, then rebuilds the index (a migration).
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
        try rebuild(db)
    }

    /// The next free rowid of `modifiedAt`'s slots: one index lookup, however many notes share
    /// the millisecond (a probe per taken slot made an import of same-dated notes quadratic).
    /// Past its 4096 slots a millisecond spills above the highest rowid of the next second.
    private static func allocateRowid(modifiedAt: Int64, _ db: Database) throws -> Int64 {
        let highest = try db.cachedStatement(sql: "SELECT max(rowid) FROM search_title WHERE rowid >= ? AND rowid < ?")
        let base = baseRowid(modifiedAt: modifiedAt)
        let spill = base + slotsPerMillisecond
        var rowid = (try Int64.fetchOne(highest, arguments: [base, spill])).map { $0 + 1 } ?? base
        if rowid >= spill {
            rowid =
                (try Int64.fetchOne(highest, arguments: [spill, spill + 1000 * slotsPerMillisecond])).map { $0 + 1 }
                ?? spill
        }
        let taken = try db.cachedStatement(sql: "SELECT 1 FROM search_title WHERE rowid = ?")
        while try Bool.fetchOne(taken, arguments: [rowid]) == true { rowid += 1 }
        return rowid
    }
}
