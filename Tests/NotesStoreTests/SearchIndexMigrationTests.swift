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
            try db.execute(sql: "DELETE FROM search_posting; DELETE FROM search_segment")
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

    /// A store of the builds that kept a folded copy of each note's text (`search_text`, until
    /// D-228) loses it on its next open, keeps its index (no rebuild: the same segments), and
    /// finds what it found: by the title, the body, a tag, with an OR (checked in SQL), an
    /// excluded word, in a notebook's scan; and a note written after still takes its place.
    @Test func aStoreWithTheFoldedCopyDropsItAndSearchesAsBefore() throws {
        let t = try TestStore()
        try t.store.create(title: "Café résumé", body: "plans for 東京", tags: ["Trip"])
        t.advance(1)
        try t.store.create(title: "Groceries", body: "oat milk, CAFÉ au lait")
        t.advance(1)
        try t.store.create(title: "Straße", body: "ﬁnance report")
        let queries = ["cafe", "resume", "東京", "tag:trip", "trip", "cafe OR finance", "cafe -milk", "strasse", "a"]
        func results(_ store: NoteStore) throws -> [[String]] {
            try queries.map { query in try store.search(query).hits.map(\.note.title) }
        }
        let before = try results(t.store)
        #expect(before[0] == ["Café résumé", "Groceries"])
        #expect(before[5].count == 3)
        let directory = t.directory
        // What the build before kept: the table, its rows, and the migration not yet run.
        try t.store.pool.write { db in
            try db.execute(
                sql: """
                    CREATE TABLE search_text (rowid INTEGER PRIMARY KEY, title TEXT NOT NULL, body TEXT NOT NULL);
                    INSERT INTO search_text SELECT searchRowid, sortTitle, body FROM note WHERE searchRowid IS NOT NULL;
                    DELETE FROM grdb_migrations WHERE identifier = 'search-text-dropped';
                    """)
        }
        let segments = try t.store.pool.read { db in try Int64.fetchAll(db, sql: "SELECT id FROM search_segment") }
        let reopened = try NoteStore(directory: directory)
        let (tables, segmentsAfter) = try reopened.pool.read { db in
            (
                try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE name = 'search_text'"),
                try Int64.fetchAll(db, sql: "SELECT id FROM search_segment")
            )
        }
        #expect(tables.isEmpty)
        #expect(segmentsAfter == segments)
        #expect(try results(reopened) == before)
        try reopened.create(title: "Cafe again", body: "")
        #expect(try reopened.search("cafe").hits.map(\.note.title) == ["Cafe again", "Café résumé", "Groceries"])
        #expect(try reopened.integrityCheck() == "ok")
    }
}
