import GRDB
import NotesCore

/// Keeps the search tables in step with the notes (DESIGN §5).
///
/// `note_fts` holds the folded title, body and tags under a trigram tokenizer (case-sensitive,
/// because the text is already folded), so any substring of three or more scalars is an index
/// lookup. `search_title` is a narrow copy of the folded titles for the short queries the
/// trigram index cannot answer. Both are keyed by the note's `searchRowid`, which is ordered by
/// modification time (`modifiedAt` ms × 256 + a tie-breaker): "most recent first" is then
/// "rowid descending", which FTS5 streams without sorting, so a query stops after its first
/// page instead of ranking every match. Notes in the trash are not indexed.
enum SearchIndex {
    /// Reindexes `note`; returns its searchRowid (nil when in the trash).
    static func update(note: Note, previous: Note?, _ db: Database) throws -> Int64? {
        let oldRowid = try Int64.fetchOne(
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
        let title = TextFolding.fold(note.title)
        try db.run(
            "INSERT INTO note_fts(rowid, title, body, tags) VALUES (?, ?, ?, ?)",
            [
                rowid, title, TextFolding.fold(note.body),
                TextFolding.fold(note.tags.joined(separator: "\n")),
            ])
        try db.run(
            "INSERT INTO search_title(rowid, title) VALUES (?, ?)",
            [rowid, title])
        return rowid
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

    private static func allocateRowid(modifiedAt: Int64, _ db: Database) throws -> Int64 {
        var rowid = modifiedAt &* 256
        let taken = try db.cachedStatement(sql: "SELECT 1 FROM search_title WHERE rowid = ?")
        while try Bool.fetchOne(taken, arguments: [rowid]) == true {
            rowid += 1
        }
        return rowid
    }
}
