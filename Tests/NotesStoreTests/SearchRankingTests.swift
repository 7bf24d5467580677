import Foundation
import GRDB
import NotesCore
import Testing

@testable import NotesStore

@Suite struct SearchRankingTests {
    /// searchRowid is modifiedAt × slotsPerMillisecond plus a tie-breaker. With 256 slots the
    /// 257th note of one millisecond spilled into the next millisecond and outranked newer notes.
    @Test func manyNotesOfOneMillisecondDoNotOutrankANewerNote() throws {
        let t = try TestStore()
        let t0: Int64 = 1_700_000_000_000
        let newer = Note(title: "newer", body: "same", createdAt: Date(millisecondsSince1970: t0 + 1))
        _ = try t.store.importNotes([newer])
        let batch = (0..<300).map { i in
            Note(title: "old \(i)", body: "same", createdAt: Date(millisecondsSince1970: t0))
        }
        _ = try t.store.importNotes(batch)
        let hits = try t.store.search("same", limit: 500).hits
        #expect(hits.count == 301)
        #expect(hits.first?.note.id == newer.id)
    }

    /// An import of notes that all carry one date (a tool that did not keep dates) spills past
    /// the millisecond's slots; every note still gets its own rowid and is found.
    @Test func moreNotesInOneMillisecondThanSlotsAreAllIndexed() throws {
        let t = try TestStore()
        let t0: Int64 = 1_700_000_000_000
        let count = Int(SearchIndex.slotsPerMillisecond) + 500
        let batch = (0..<count).map { i in
            Note(title: "same \(i)", body: "x", createdAt: Date(millisecondsSince1970: t0))
        }
        _ = try t.store.importNotes(batch)
        let rowids = try t.store.pool.read { db in
            try Int64.fetchAll(db, sql: "SELECT searchRowid FROM note WHERE searchRowid IS NOT NULL")
        }
        #expect(rowids.count == count)
        #expect(Set(rowids).count == count)
        var found = 0
        var cursor: SearchCursor?
        repeat {
            let page = try t.store.search("same", limit: 1000, after: cursor)
            found += page.hits.count
            cursor = page.next
        } while cursor != nil
        #expect(found == count)
    }

    @Test func extremeDatesStillIndexAndRank() throws {
        let t = try TestStore()
        let dates: [Int64] = [-62_135_596_800_000, 0, 1_700_000_000_000, 253_402_300_799_000, .max / 1000]
        let notes = dates.map { Note(title: "d", body: "x", createdAt: Date(millisecondsSince1970: $0)) }
        _ = try t.store.importNotes(notes)
        let hits = try t.store.search("x").hits.map(\.note.modifiedAt.millisecondsSince1970)
        #expect(hits.count == dates.count)
        #expect(hits == hits.sorted(by: >))
    }

    /// Migrations v3 and v6: a database indexed with 256 slots per millisecond is renumbered in
    /// order and indexed again.
    @Test func renumberingOldRowidsKeepsOrderAndEveryHit() throws {
        let t = try TestStore()
        var ids: [UUID] = []
        for i in 0..<20 {
            t.advance(i % 4 == 0 ? 0 : 1)
            ids.append(try t.store.create(title: "n\(i)", body: "common \(i)").id)
        }
        _ = try t.store.trash(ids[3])
        try t.store.pool.write { db in
            // The old numbering, as an older build wrote it.
            let rows = try Row.fetchAll(
                db, sql: "SELECT id, modifiedAt FROM note WHERE searchRowid IS NOT NULL ORDER BY searchRowid")
            try db.execute(sql: "UPDATE note SET searchRowid = NULL")
            for (i, row) in rows.enumerated() {
                try db.execute(
                    sql: "UPDATE note SET searchRowid = ? WHERE id = ?",
                    arguments: [(row["modifiedAt"] as Int64) * 256 + Int64(i % 3), row["id"] as String])
            }
            try SearchIndex.rebuild(db)
            // v3 renumbers; v6 builds the index over the new rowids.
            try SearchIndex.renumber(db)
            try SearchIndex.rebuild(db)
        }
        let hits = try t.store.search("common").hits
        #expect(Set(hits.map(\.note.id)) == Set(ids).subtracting([ids[3]]))
        let times = hits.map(\.note.modifiedAt)
        #expect(times == times.sorted(by: >))
        let rowids = try t.store.pool.read { db in
            try Row.fetchAll(db, sql: "SELECT modifiedAt, searchRowid FROM note WHERE searchRowid IS NOT NULL")
        }
        #expect(
            rowids.allSatisfy {
                ($0["searchRowid"] as Int64) / SearchIndex.slotsPerMillisecond == $0["modifiedAt"] as Int64
            })
        #expect(try t.store.search("n1").hits.count == 11)
        #expect(try t.store.integrityCheck() == "ok")
    }
}
