import Foundation
import NotesCore
import NotesTestSupport
import Testing

@testable import NotesStore

@Suite struct NoteStoreListTests {
    /// Five notes a minute apart: b and d favorites, e in the trash.
    func fixture() throws -> (TestStore, [String: Note]) {
        let t = try TestStore()
        var notes: [String: Note] = [:]
        for (title, fav) in [("delta", false), ("Bravo", true), ("alpha", false), ("Écho", true), ("charlie", false)] {
            t.advance(60)
            notes[title] = try t.store.create(title: title, body: "", isFavorite: fav)
        }
        t.advance(60)
        _ = try t.store.trash(notes["charlie"]!.id)
        return (t, notes)
    }

    func titles(_ t: TestStore, _ section: ListSection, _ sort: ListSort = .modified, offset: Int = 0, limit: Int = 200)
        throws -> [String]
    {
        try t.store.list(ListRequest(section: section, sort: sort, offset: offset, limit: limit)).map(\.title)
    }

    @Test func sectionsAndSortOrders() throws {
        let (t, _) = try fixture()
        #expect(try titles(t, .all) == ["Écho", "alpha", "Bravo", "delta"])
        #expect(try titles(t, .favorites) == ["Écho", "Bravo"])
        #expect(try titles(t, .others) == ["alpha", "delta"])
        #expect(try titles(t, .trash) == ["charlie"])
        // Title order is by folded title: case and accents do not split the alphabet.
        #expect(try titles(t, .all, .title) == ["alpha", "Bravo", "delta", "Écho"])
        #expect(try titles(t, .favorites, .title) == ["Bravo", "Écho"])
    }

    @Test func templatesStayOutOfTheListsAndOfSearchButInTheirNotebook() throws {
        let (t, _) = try fixture()
        t.advance(60)
        _ = try t.store.create(title: "Meeting {{date}}", body: "agenda alpha", zone: NoteTemplate.zone)
        let starred = try t.store.create(title: "Starred template", body: "", isFavorite: true, zone: NoteTemplate.zone)
        #expect(try titles(t, .all) == ["Écho", "alpha", "Bravo", "delta"])
        #expect(try titles(t, .favorites) == ["Écho", "Bravo"])
        // Favorites, others, all, trash: the counts leave templates out as the lists do.
        #expect(try ListSection.allCases.map { try t.store.count($0) } == [2, 2, 4, 1])
        #expect(try t.store.search("alpha").hits.map(\.note.title) == ["alpha"])
        #expect(try t.store.search("in:templates alpha").hits.map(\.note.title) == ["Meeting {{date}}"])
        #expect(try t.store.search("in:templates").hits.count == 2)
        // Still a note: found by its title for `add --template`, and trashed like any.
        #expect(try t.store.template(named: "meeting {{DATE}}")?.body == "agenda alpha")
        _ = try t.store.trash(starred.id)
        #expect(try ListSection.allCases.map { try t.store.count($0) } == [2, 2, 4, 2])
    }

    @Test func pagesAreOffsetAndLimit() throws {
        let (t, _) = try fixture()
        #expect(try titles(t, .all, limit: 2) == ["Écho", "alpha"])
        #expect(try titles(t, .all, offset: 2, limit: 2) == ["Bravo", "delta"])
        #expect(try titles(t, .all, offset: 4, limit: 2).isEmpty)
        #expect(try titles(t, .all, .title, offset: 1, limit: 2) == ["Bravo", "delta"])
    }

    /// Pages from deep in FAVORITES or NOTES are found by their first row's key, not by OFFSET
    /// (`ListSeek`): every page of every section and sort is its slice of the whole list, with
    /// templates (favorite or not) anywhere among the notes, notes modified in the same
    /// millisecond, equal titles, and notes in the trash. Seeded; the seed is printed.
    @Test func everyPageIsItsSliceOfTheWholeList() throws {
        let seed = SeededRandom.seed(default: UInt64.random(in: 1...UInt64.max))
        print("NoteStoreListTests.everyPageIsItsSliceOfTheWholeList seed: \(seed) (CLOUDNOTES_SEED=\(seed) replays it)")
        var random = SeededRandom(seed: seed)
        for _ in 0..<4 {
            let t = try TestStore()
            // A note in each section, so that neither is empty whatever the seed gives.
            _ = try t.store.create(title: "a", body: "", isFavorite: true)
            _ = try t.store.create(title: "B", body: "")
            for _ in 0..<Int.random(in: 10...60, using: &random) {
                // Ties: several notes in one millisecond, and titles from a small set.
                if Bool.random(using: &random) { t.advance(Double(Int.random(in: 1...3, using: &random))) }
                let zone = Int.random(in: 0..<5, using: &random) == 0 ? NoteTemplate.zone : Note.defaultZone
                let note = try t.store.create(
                    title: ["a", "B", "ç", "d", "a"].randomElement(using: &random) ?? "a", body: "",
                    isFavorite: Bool.random(using: &random), zone: zone)
                if Int.random(in: 0..<8, using: &random) == 0 { _ = try t.store.trash(note.id) }
            }
            for section in [ListSection.favorites, .others] {
                for sort in ListSort.allCases {
                    let whole = try t.store.list(ListRequest(section: section, sort: sort, limit: 1_000)).map(\.id)
                    let count = try t.store.count(section)
                    #expect(whole.count == count, "seed \(seed)")
                    #expect(!whole.isEmpty, "seed \(seed)")
                    for offset in 0...whole.count + 1 {
                        let limit = Int.random(in: 1...7, using: &random)
                        let page = try t.store.list(
                            ListRequest(section: section, sort: sort, offset: offset, limit: limit))
                        #expect(
                            page.map(\.id) == Array(whole.dropFirst(offset).prefix(limit)),
                            "seed \(seed): \(section) by \(sort), offset \(offset), limit \(limit)")
                    }
                }
            }
        }
    }

    @Test func counts() throws {
        let (t, _) = try fixture()
        #expect(try ListSection.allCases.map { try t.store.count($0) } == [2, 2, 4, 1])
    }

    @Test func summariesCarryAPreviewAndTheBodyLength() throws {
        let t = try TestStore()
        let body = "Title line\n\nsecond line é\n" + String(repeating: "x", count: 500)
        try t.store.create(title: "Title line", body: body, tags: ["b", "a"])
        let summary = try #require(try t.store.list(ListRequest(section: .all)).first)
        #expect(summary.preview.count == NoteSummary.previewLength)
        #expect(summary.snippet == "second line é")
        #expect(summary.bodyLength == body.utf8.count && summary.tags == ["a", "b"])
    }

    @Test func resolveByIDPrefixOrExactTitle() throws {
        let t = try TestStore()
        let a = try t.store.create(
            title: "Plan", body: "", id: UUID(uuidString: "aaaa1111-0000-4000-8000-000000000001")!)
        let b = try t.store.create(
            title: "Plan", body: "", id: UUID(uuidString: "aaaa2222-0000-4000-8000-000000000002")!)
        let c = try t.store.create(
            title: "Diary", body: "", id: UUID(uuidString: "bbbb0000-0000-4000-8000-000000000003")!)
        #expect(try t.store.resolve(a.idString).id == a.id)
        #expect(try t.store.resolve(a.id.uuidString).id == a.id)
        #expect(try t.store.resolve("aaaa1").id == a.id)
        #expect(try t.store.resolve(" AAAA2 ").id == b.id)
        #expect(try t.store.resolve("Diary").id == c.id)
        _ = try t.store.trash(c.id)
        #expect(try t.store.resolve("bbbb").id == c.id, "the trash can be resolved, to restore")

        let ambiguous = #expect(throws: StoreError.self) { try t.store.resolve("aaaa") }
        #expect(ambiguous?.code == .ambiguous)
        #expect(Set(ambiguous?.candidates.map(\.id) ?? []) == [a.id, b.id])
        #expect(ambiguous?.message.contains("matches 2 notes") == true)
        let byTitle = #expect(throws: StoreError.self) { try t.store.resolve("Plan") }
        #expect(byTitle?.code == .ambiguous && byTitle?.candidates.count == 2)

        let spaced = try t.store.create(title: " Padded ", body: "")
        _ = try t.store.create(title: "Padded", body: "")
        #expect(try t.store.resolve(" Padded ").id == spaced.id, "a title with outer spaces is named exactly")

        for missing in ["cccc", "plan", "", "Nope", "\u{1B}[2J"] {
            let error = #expect(throws: StoreError.self) { try t.store.resolve(missing) }
            #expect(error?.code == .notFound, "\(missing)")
            #expect(error?.message.contains("\u{1B}") == false)
        }
    }
}
