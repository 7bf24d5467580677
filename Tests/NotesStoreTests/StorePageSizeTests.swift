import Foundation
import GRDB
import Testing

@testable import NotesStore

/// New stores are made with 16 KB pages (D-229); a store made before keeps its 4 KB pages and
/// works as it did.
@Suite struct StorePageSizeTests {
    @Test func aNewStoreHasSixteenKilobytePages() throws {
        let t = try TestStore()
        try t.store.create(title: "First", body: String(repeating: "a long body line\n", count: 500))
        #expect(try t.store.pool.read { db in try Int.fetchOne(db, sql: "PRAGMA page_size") } == 16384)
        #expect(try t.store.search("long body").hits.count == 1)
        #expect(try t.store.integrityCheck() == "ok")
    }

    @Test func aStoreWithFourKilobytePagesKeepsThem() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "cloudnotes-pages-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        // What a build before made: SQLite's default page size, in WAL mode, migrated.
        let pool = try DatabasePool(path: directory.appendingPathComponent(NoteStore.databaseFileName).path)
        try Schema.migrate(pool)
        #expect(try pool.read { db in try Int.fetchOne(db, sql: "PRAGMA page_size") } == 4096)
        try pool.close()
        let store = try NoteStore(directory: directory)
        try store.create(title: "Kept", body: String(repeating: "a long body line\n", count: 500))
        #expect(try store.pool.read { db in try Int.fetchOne(db, sql: "PRAGMA page_size") } == 4096)
        let reopened = try NoteStore(directory: directory)
        #expect(try reopened.search("kept").hits.map(\.note.title) == ["Kept"])
        #expect(try reopened.integrityCheck() == "ok")
    }
}
