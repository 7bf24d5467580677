import Foundation
import GRDB
import NotesCore
import Testing

@testable import NotesStore

/// Naming a note by full id, id prefix or exact title (`resolve`), and doing it with index
/// lookups only: an id prefix once cost a scan of every title (264 ms at 100k notes).
@Suite struct NoteStoreResolveTests {
    @Test func idPrefixesAndTitlesNameNotesLiveFavoriteOrTrashed() throws {
        let t = try TestStore()
        let plain = try t.store.create(
            title: "Plain", body: "", id: UUID(uuidString: "19d68947-0000-4000-8000-000000000001")!)
        let favorite = try t.store.create(
            title: "Starred", body: "", isFavorite: true, id: UUID(uuidString: "19d6ffff-0000-4000-8000-000000000002")!)
        let trashed = try t.store.create(
            title: "Gone", body: "", id: UUID(uuidString: "29d69999-0000-4000-8000-000000000003")!)
        _ = try t.store.trash(trashed.id)
        #expect(try t.store.resolve("19d68947").id == plain.id)
        #expect(try t.store.resolve("19D68947-0000").id == plain.id)
        #expect(try t.store.resolve("19d6f").id == favorite.id)
        #expect(try t.store.resolve(favorite.idString).id == favorite.id)
        #expect(try t.store.resolve("Plain").id == plain.id)
        #expect(try t.store.resolve("Starred").id == favorite.id)
        #expect(try t.store.resolve("Gone").id == trashed.id)
        #expect(try t.store.resolve("29d6").id == trashed.id)
        // Exact title only: another case or a prefix of the title is not a name.
        #expect(throws: StoreError.self) { try t.store.resolve("plain") }
        #expect(throws: StoreError.self) { try t.store.resolve("Pla") }
        let both = #expect(throws: StoreError.self) { try t.store.resolve("19d6") }
        #expect(both?.code == .ambiguous)
        // A title that looks like an id prefix is ambiguous with the id it prefixes.
        try t.store.create(title: "19d68947", body: "")
        let clash = #expect(throws: StoreError.self) { try t.store.resolve("19d68947") }
        #expect(clash?.code == .ambiguous)
    }

    @Test func prefixRangesEndAtTheSuccessorOfTheLastCharacter() {
        #expect(NoteStore.idPrefixRange("19d6") == "19d6"..<"19d7")
        #expect(NoteStore.idPrefixRange("ABF") == "abf"..<"abg")
        #expect(NoteStore.idPrefixRange("19d68947-") == "19d68947-"..<"19d68947.")
        #expect(NoteStore.idPrefixRange("9") == "9"..<":")
        #expect(NoteStore.idPrefixRange("groceries") == nil)
        #expect(NoteStore.idPrefixRange("") == nil)
    }

    /// Every statement a lookup by id prefix or title runs is an index search: SQLite's query
    /// plan for it has no SCAN of the note table or of an index.
    @Test func lookupsByIdPrefixAndTitleNeverScan() throws {
        let t = try TestStore()
        for i in 0..<50 {
            let note = try t.store.create(title: "note \(i)", body: "body \(i)", isFavorite: i % 7 == 0)
            if i % 5 == 0 { _ = try t.store.trash(note.id) }
        }
        let anyID = try #require(try t.store.list(ListRequest(section: .all)).first).id.lowercasedString
        for reference in [String(anyID.prefix(8)), "note 3", "note 5", " note 7 ", "19d6"] {
            let plans = try t.store.pool.read { db -> [String] in
                let traced = StatementLog()
                db.trace(options: .statement) { event in
                    if case .statement(let statement) = event { traced.sql.append(statement.expandedSQL) }
                }
                _ = try NoteStore.ids(matching: reference, db)
                db.trace(options: [])
                #expect(!traced.sql.isEmpty)
                return try traced.sql.flatMap { sql in
                    try Row.fetchAll(db, sql: "EXPLAIN QUERY PLAN " + sql).map { "\($0["detail"] as String)" }
                }
            }
            #expect(!plans.contains { $0.hasPrefix("SCAN") }, "\(reference): \(plans)")
        }
    }
}

private final class StatementLog: @unchecked Sendable {
    var sql: [String] = []
}
