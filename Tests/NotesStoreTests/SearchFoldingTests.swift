import Foundation
import GRDB
import NotesCore
import Testing

@testable import NotesStore

/// Search folds away diacritics only (ARCHITECTURE §5), and stores made under the old fold, which
/// dropped every nonspacing mark, are refolded (`DerivedData`).
@Suite struct SearchFoldingTests {
    @Test func vowelSignsCountInSearchWhileAccentsDoNot() throws {
        let t = try TestStore()
        let dekhen = try t.store.create(title: "हिन्दी", body: "कृपया देखें")
        let dakh = try t.store.create(title: "note", body: "दख")
        let rian = try t.store.create(title: "เรียน", body: "")
        let re = try t.store.create(title: "เร", body: "")
        let cafe = try t.store.create(title: "Café", body: "Zürich")
        let japanese = try t.store.create(title: "ガイド", body: "")
        let korean = try t.store.create(title: "한국어", body: "")
        func ids(_ text: String) throws -> Set<UUID> { Set(try t.store.search(text).hits.map(\.note.id)) }
        #expect(try ids("देखें") == [dekhen.id])
        #expect(try ids("दख") == [dakh.id])
        #expect(try ids("เรี") == [rian.id])
        #expect(try ids("เร") == [rian.id, re.id])
        #expect(try ids("cafe") == [cafe.id])
        #expect(try ids("zuri") == [cafe.id])
        #expect(try ids("カイ") == [japanese.id])
        #expect(try ids("하") == [korean.id])
        let hit = try #require(try t.store.search("देखें").hits.first)
        #expect(hit.snippetMatches == [4..<6], "\(hit.snippet)")
    }

    /// A store whose folded text was made by the old fold (every nonspacing mark dropped) is
    /// searchable by vowel signs once its derived data is rebuilt (DerivedData 0 → 1), and sorted and tag-filtered by
    /// the new fold.
    @Test func migrationV7RefoldsAStoreMadeUnderTheOldFold() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "cloudnotes-v6-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let queue = try DatabaseQueue(path: directory.appendingPathComponent(NoteStore.databaseFileName).path)
        try Schema.legacyMigrator(through: "v6-trigram-index").migrate(queue)
        func oldFold(_ text: String) -> String {
            String(
                String.UnicodeScalarView(
                    TextFolding.fold(text).unicodeScalars.filter { $0.properties.generalCategory != .nonspacingMark }))
        }
        let notes = [("देखें", "कृपया देखें", "किताब"), ("दख", "दख", "दख"), ("Café", "Zürich", "café")]
        try queue.write { db in
            for (index, (title, body, tag)) in notes.enumerated() {
                let id = UUID().uuidString.lowercased()
                try db.execute(
                    sql: """
                        INSERT INTO note(id, zone, title, body, tags, createdAt, modifiedAt, sortTitle, searchRowid)
                        VALUES (?, 'notes', ?, ?, ?, 0, ?, ?, ?)
                        """,
                    arguments: [id, title, body, "[\"\(tag)\"]", index, oldFold(title), index * 4096])
                try db.execute(
                    sql: "INSERT INTO note_tag(noteID, tag, foldedTag) VALUES (?, ?, ?)",
                    arguments: [id, tag, oldFold(tag)])
                try db.execute(
                    sql: "INSERT INTO search_text(rowid, title, body) VALUES (?, ?, ?)",
                    arguments: [index * 4096, oldFold(title), oldFold(body) + "\u{FFFF}" + oldFold(tag)])
            }
        }
        try queue.close()
        let store = try NoteStore(directory: directory)
        #expect(try store.search("देखें").hits.map(\.note.title) == ["देखें"])
        #expect(try store.search("दख").hits.map(\.note.title) == ["दख"])
        #expect(try store.search("tag:किताब").hits.map(\.note.title) == ["देखें"])
        #expect(try store.search("tag:कतब").hits.isEmpty)
        #expect(try store.search("cafe zurich").hits.map(\.note.title) == ["Café"])
        let sortTitles = try store.pool.read { db in
            try String.fetchAll(db, sql: "SELECT sortTitle FROM note ORDER BY sortTitle")
        }
        #expect(sortTitles == ["cafe", "दख", TextFolding.fold("देखें")])
        #expect(TextFolding.fold("देखें") != "दख")
        #expect(try store.integrityCheck() == "ok")
    }

    /// DerivedData 0 → 1 rebuilds the index only when some indexed text folds differently now: a store of
    /// Latin, Greek, CJK and emoji keeps its segments (no multi-second rebuild on first open).
    @Test func migrationV7RebuildsTheIndexOnlyWhenSomeTextFoldsDifferently() throws {
        let t = try TestStore()
        try t.store.create(title: "Café", body: "Zürich ΟΔΟΣ 東京 한국어 🎉 ❤️")
        try t.store.create(title: "Plan", body: "naïve", tags: ["ガイド"])
        #expect(try t.store.pool.read(SearchIndex.hasTextFoldedDifferentlySinceV7) == false)
        try t.store.create(title: "Hindi", body: "", tags: ["देखें"])
        #expect(try t.store.pool.read(SearchIndex.hasTextFoldedDifferentlySinceV7) == true)
        let other = try TestStore()
        try other.store.create(title: "เรียน", body: "")
        #expect(try other.store.pool.read(SearchIndex.hasTextFoldedDifferentlySinceV7) == true)
    }

    /// The oracle's fold (written from the definition) and `TextFolding` agree on every scalar
    /// of planes 0 and 1, so the oracle tests check the store against the definition.
    @Test func oracleFoldAgreesWithTextFoldingOnEveryScalar() {
        var differing: [String] = []
        for value in 0...0x1FFFF {
            guard let scalar = Unicode.Scalar(value) else { continue }
            let text = String(scalar)
            if SearchOracle.foldedString(text).unicodeScalars.elementsEqual(TextFolding.fold(text).unicodeScalars) {
                continue
            }
            differing.append("U+" + String(value, radix: 16))
            if differing.count > 10 { break }
        }
        #expect(differing.isEmpty, "\(differing)")
    }
}
