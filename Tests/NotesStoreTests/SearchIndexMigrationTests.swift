import Foundation
import GRDB
import NotesCore
import Testing

@testable import NotesStore

/// Migrations that touch search: v4 (refold) and v6 (the trigram index replaces FTS5).
@Suite struct SearchIndexMigrationTests {
    @Test func refoldThenRebuildRefreshesSortTitlesTagsAndTheIndex() throws {
        let t = try TestStore()
        let note = try t.store.create(title: "ﬁnance", body: "oﬃce", tags: ["ﬁn"])
        try t.store.create(title: "gamma", body: "")
        try t.store.pool.write { db in
            // What an older build stored: the ligatures unfolded, no index for them.
            try db.execute(sql: "UPDATE note SET sortTitle = title")
            try db.execute(sql: "UPDATE note_tag SET foldedTag = tag")
            try db.execute(sql: "DELETE FROM search_text; DELETE FROM search_posting; DELETE FROM search_segment")
        }
        #expect(try t.store.search("office").hits.isEmpty, "the simulated old index")
        try t.store.pool.write { db in
            try SearchIndex.refold(db)
            try SearchIndex.rebuild(db)
        }
        #expect(try t.store.search("office").hits.map(\.note.id) == [note.id])
        #expect(try t.store.search("tag:fin").hits.map(\.note.id) == [note.id])
        #expect(try t.store.list(ListRequest(section: .all, sort: .title)).map(\.title) == ["ﬁnance", "gamma"])
        #expect(try t.store.integrityCheck() == "ok")
    }

    /// A store made by a build with the FTS5 index (schema v5) opens with the new index built
    /// from its notes, and the FTS5 tables gone.
    @Test func storeFromTheFTS5BuildIsSearchableAfterUpgrade() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "cloudnotes-v5-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let queue = try DatabaseQueue(path: directory.appendingPathComponent(NoteStore.databaseFileName).path)
        try Schema.legacyMigrator(through: "v5-sync").migrate(queue)
        try queue.write { db in
            for (index, (title, body)) in [("Café résumé", "plans for 東京"), ("Groceries", "oat milk")].enumerated() {
                try db.execute(
                    sql: """
                        INSERT INTO note(id, zone, title, body, tags, createdAt, modifiedAt, sortTitle, searchRowid)
                        VALUES (?, 'notes', ?, ?, '["trip"]', 0, ?, ?, ?)
                        """,
                    arguments: [
                        UUID().uuidString.lowercased(), title, body, index, TextFolding.fold(title), index * 4096,
                    ])
                try db.execute(
                    sql: "INSERT INTO note_fts(rowid, title, body, tags) VALUES (?, ?, ?, 'trip')",
                    arguments: [index * 4096, TextFolding.fold(title), TextFolding.fold(body)])
            }
        }
        try queue.close()
        let store = try NoteStore(directory: directory)
        #expect(try store.search("resume").hits.map(\.note.title) == ["Café résumé"])
        #expect(try store.search("東京").hits.map(\.note.title) == ["Café résumé"])
        #expect(try store.search("trip").hits.count == 2)
        #expect(try store.search("milk").hits.map(\.note.title) == ["Groceries"])
        let tables = try store.pool.read { db in
            try String.fetchAll(
                db, sql: "SELECT name FROM sqlite_master WHERE name LIKE 'note_fts%' OR name = 'search_title'")
        }
        #expect(tables.isEmpty)
        #expect(try store.integrityCheck() == "ok")
    }
}
