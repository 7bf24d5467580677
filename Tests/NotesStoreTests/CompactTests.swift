import Foundation
import GRDB
import NotesTestSupport
import Testing

@testable import NotesCore
@testable import NotesStore

/// `cloudnotes compact` (D-211): a store an older build wrote keeps each note's body twice until
/// the note is next written; compaction cuts the copies and gives the room back, and every
/// revision still reads byte for byte as it was.
struct CompactTests {
    @Test func compactCutsTheCopiesAnOlderBuildKeptAndGivesTheRoomBack() throws {
        let t = try TestStore()
        var notes: [Note] = []
        for i in 0..<150 {
            let body = String(repeating: "line \(i) of a body that takes some room on the disk\n", count: 50)
            notes.append(try t.store.create(title: "note \(i)", body: body))
        }
        _ = try t.store.update(notes[0].id) { $0.body += "an edit" }
        // As a build before D-208 stored them: every revision whole.
        try t.store.write { db in
            for row in try Row.fetchAll(db, sql: "SELECT * FROM revision") {
                try db.execute(
                    sql: "UPDATE revision SET fields = ?, bodyAt = NULL WHERE id = ?",
                    arguments: [try NoteStore.fieldsText(of: row, db), row["id"] as String])
            }
        }
        let histories = try notes.map { try t.store.history($0.id) }
        let bodies = notes.reduce(0) { $0 + $1.body.utf8.count }

        let done = try t.store.compact(batch: 40)
        #expect(done.headsCut == notes.count)
        // At least half of the second copies' room is given back on the disk.
        #expect(done.bytesAfter < done.bytesBefore - Int64(bodies / 2), "\(done), bodies \(bodies)")
        #expect(done.bytesAfter == t.store.fileBytes())
        #expect(try notes.map { try t.store.history($0.id) } == histories)
        let elided = try t.store.read { db in
            try Int.fetchOne(db, sql: "SELECT count(*) FROM revision WHERE bodyAt IS NOT NULL")
        }
        #expect(elided == notes.count)
        try HeadBodyTests.check([t], model: HeadBodyTests.ModelStore())
        // Nothing is left to cut the second time; the notes still read and search.
        #expect(try t.store.compact().headsCut == 0)
        #expect(try t.store.search("\"line 7 of\"").hits.map(\.note.title) == ["note 7"])
    }
}
