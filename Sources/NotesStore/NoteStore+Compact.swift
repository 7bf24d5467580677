import Foundation
import GRDB
import NotesCore

/// What `compact` did: the file's size before and after, and the heads it cut.
public struct Compaction: Sendable, Equatable {
    public var bytesBefore: Int64
    public var bytesAfter: Int64
    public var headsCut: Int
}

extension NoteStore {
    /// Gives back the room the store no longer needs (`cloudnotes compact`, D-211): cuts the
    /// body out of every head revision still stored whole (a store written before D-208 keeps
    /// each note's body twice until the note is next written), then rebuilds the file with
    /// SQLite's VACUUM, which frees the pages the cuts and earlier deletions left empty inside.
    ///
    /// The cuts go in batches of `batch` notes, each its own transaction, in id order; a head
    /// whose fields do not hold its note's body as stored stays whole (`HeadBody.elide`). The
    /// VACUUM needs about the file's size free on the disk while it runs; when it fails (a full
    /// disk, another process writing), the store is as it was before it, with the cuts kept.
    public func compact(batch: Int = 1000) throws -> Compaction {
        let before = fileBytes()
        var cut = 0
        var after = ""
        while true {
            let (last, done) = try write { db -> (String?, Int) in
                let rows = try Row.fetchAll(
                    db,
                    sql: """
                        SELECT n.id, n.body, r.id AS head, r.fields FROM note n
                        JOIN revision r ON r.id = n.headRev AND r.recordID = n.id
                        WHERE n.id > ? AND r.bodyAt IS NULL AND r.fields IS NOT NULL
                        ORDER BY n.id LIMIT ?
                        """, arguments: [after, max(1, batch)])
                var done = 0
                for row in rows {
                    if try Self.cutHeadBody(row["head"], fields: row["fields"], body: row["body"], db) { done += 1 }
                }
                return (rows.last?["id"], done)
            }
            cut += done
            guard let last else { break }
            after = last
        }
        do {
            try pool.vacuum()
        } catch let error as DatabaseError {
            throw Self.storeError(error, path: databaseURL.path)
        }
        // The rebuilt pages went through the write-ahead log: emptied into the file, it gives
        // its room back too. A reader holding it (the app, open) leaves it for later: the size
        // printed then includes it, as the disk does.
        _ = try? pool.writeWithoutTransaction { db in try db.checkpoint(.truncate) }
        return Compaction(bytesBefore: before, bytesAfter: fileBytes(), headsCut: cut)
    }

    /// The database file's size with its write-ahead log (what the store takes on the disk).
    func fileBytes() -> Int64 {
        [databaseURL.path, databaseURL.path + "-wal"].reduce(0) { total, path in
            var info = stat()
            return total + (stat(path, &info) == 0 ? Int64(info.st_size) : 0)
        }
    }
}
