import Foundation
import GRDB
import NotesCore
import Testing
@testable import NotesStore

/// Migration v4: folded forms written before ligatures were folded are refreshed.
@Suite struct SearchIndexMigrationTests {
    @Test func refoldRefreshesSortTitlesTagsAndTheIndex() throws {
        let t = try TestStore()
        let note = try t.store.create(title: "ﬁnance", body: "oﬃce", tags: ["ﬁn"])
        try t.store.create(title: "gamma", body: "")
        try t.store.pool.write { db in
            // What an older build stored: the ligatures unfolded.
            try db.execute(sql: "UPDATE note SET sortTitle = title")
            try db.execute(sql: "UPDATE note_tag SET foldedTag = tag")
            try db.execute(sql: "DELETE FROM note_fts; DELETE FROM search_title")
            let rows = try Row.fetchAll(db, sql: "SELECT searchRowid, title, body, tags FROM note WHERE searchRowid IS NOT NULL")
            for row in rows {
                let tags = NoteStore.decodeTags(row["tags"]).joined(separator: "\n")
                try db.execute(
                    sql: "INSERT INTO note_fts(rowid, title, body, tags) VALUES (?, ?, ?, ?)",
                    arguments: [row["searchRowid"] as Int64, row["title"] as String + SearchIndex.ending,
                                row["body"] as String + SearchIndex.ending, tags + SearchIndex.ending])
                try db.execute(sql: "INSERT INTO search_title(rowid, title) VALUES (?, ?)", arguments: [row["searchRowid"] as Int64, row["title"] as String])
            }
        }
        #expect(try t.store.search("office").hits.isEmpty, "the simulated old index")
        try t.store.pool.write { db in try SearchIndex.refold(db) }
        #expect(try t.store.search("office").hits.map(\.note.id) == [note.id])
        #expect(try t.store.search("tag:fin").hits.map(\.note.id) == [note.id])
        #expect(try t.store.list(ListRequest(section: .all, sort: .title)).map(\.title) == ["ﬁnance", "gamma"])
        #expect(try t.store.integrityCheck() == "ok")
    }
}
