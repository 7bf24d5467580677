import Foundation
import GRDB
import NotesCore
import Testing

@testable import NotesStore

/// Databases made by the shipped builds of every earlier schema version open with today's code,
/// migrate, and keep their notes.
///
/// `Fixtures/schema-vN.sqlite` were written by `cloudnotes` built at the last commit whose newest
/// migration was vN (v1 1fe280d, v2 2b6240e, v3 b60a73e, v4 5b90174, v5 710cc7f, v6 7f0ec01),
/// each with the same four `cloudnotes add` commands (one note then moved to the trash), then
/// checkpointed. They are never regenerated: they are what those builds wrote.
@Suite struct SchemaFixtureTests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures")

    @Test(arguments: ["v1", "v2", "v3", "v4", "v5", "v6"])
    func aDatabaseOfAnEarlierSchemaOpensWithItsNotes(version: String) throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("schema-\(version)-\(UUID())")
        defer { try? FileManager.default.removeItem(at: directory) }
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try FileManager.default.copyItem(
            at: Self.fixtures.appendingPathComponent("schema-\(version).sqlite"),
            to: directory.appendingPathComponent("notes.sqlite"))
        let store = try NoteStore(directory: directory)

        let live = try store.list(ListRequest(section: .all))
        #expect(Set(live.map(\.title)) == ["Groceries", "Release checklist", "Café in Zürich with 東京 friends"])
        let ids = Dictionary(uniqueKeysWithValues: live.map { ($0.title, $0.id) })
        func note(_ title: String) throws -> Note? { try ids[title].flatMap { try store.note($0) } }
        let groceries = try #require(try note("Groceries"))
        #expect(groceries.body == "oat milk, jalapeños, crème fraîche")
        #expect(groceries.tags == ["food"])
        let checklist = try #require(try note("Release checklist"))
        #expect(checklist.isFavorite)
        #expect(checklist.body == "Steps:\n- tag v1.2\n- update the changelog")
        #expect(try store.list(ListRequest(section: .favorites)).map(\.title) == ["Release checklist"])
        let cafe = try #require(try note("Café in Zürich with 東京 friends"))
        #expect(cafe.tags == ["travel"])
        #expect(try store.history(cafe.id).count == 1)
        #expect(try store.list(ListRequest(section: .trash)).map(\.title) == ["Old draft"])

        // The search index was built by the migrations: folding, ligatures, CJK, tags, and the
        // trash left out.
        func titles(_ query: String) throws -> Set<String> {
            Set(try store.search(query).hits.map { $0.note.title })
        }
        #expect(try titles("jalapeno") == ["Groceries"])
        #expect(try titles("zuri") == ["Café in Zürich with 東京 friends"])
        #expect(try titles("東京") == ["Café in Zürich with 東京 friends"])
        #expect(try titles("fine ligature") == ["Café in Zürich with 東京 friends"])
        #expect(try titles("tag:work") == ["Release checklist"])
        #expect(try titles("draft").isEmpty)

        // A write after the migration works and is searchable.
        _ = try store.update(groceries.id) { $0.body += "\nbread" }
        #expect(try titles("bread") == ["Groceries"])
        let check = try DatabaseQueue(path: directory.appendingPathComponent("notes.sqlite").path)
        #expect(try check.read { try String.fetchOne($0, sql: "PRAGMA integrity_check") } == "ok")
    }

    /// The schema as a comparable value: every table, index and trigger with its SQL, white
    /// space folded (GRDB's own table and SQLite's sequence table left out).
    static func schema(_ db: Database) throws -> [String] {
        try Row.fetchAll(
            db,
            sql: """
                SELECT type, name, tbl_name, sql FROM sqlite_master
                WHERE name NOT IN ('grdb_migrations', 'sqlite_sequence') ORDER BY type, name
                """
        ).map { row in
            let sql = (row["sql"] as String?)?.split(whereSeparator: \.isWhitespace).joined(separator: " ") ?? ""
            return "\(row["type"] as String) \(row["name"] as String) on \(row["tbl_name"] as String): \(sql)"
        }
    }

    @Test func aNewDatabaseGetsTheSchemaTheFrozenStepsBuildWithoutEverCreatingFTS5() throws {
        let fresh = try DatabaseQueue()
        try Schema.migrate(fresh)
        let stepped = try DatabaseQueue()
        try Schema.legacyMigrator(through: "v8-trash-title-index").migrate(stepped)
        let freshSchema = try fresh.read(Self.schema)
        #expect(!freshSchema.isEmpty)
        #expect(!freshSchema.contains { $0.contains("fts5") })
        #expect(try fresh.read(DerivedData.isCurrent))
        #expect(try fresh.read(Schema.isCurrent))
        // The stepped database is migrated by the merged step (then the later ones) and rebuilds
        // its derived data.
        #expect(try !stepped.read(Schema.isCurrent))
        try Schema.migrate(stepped)
        #expect(freshSchema == (try stepped.read(Self.schema)))
        #expect(try stepped.read(Schema.isCurrent))
        #expect(
            try stepped.read { try Schema.migrator.appliedIdentifiers($0) } == [
                "aliases-1", "attachments-1", "chunks-1", "chunks-2", "frontmatter-1", "links-1", "note-changes-1",
                "notebooks-1", "revision-body-1", "search-dates-1", "search-filters-1", "search-text-dropped",
                "v8-baseline",
            ])
    }
}
