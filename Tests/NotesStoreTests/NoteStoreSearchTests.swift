import Foundation
import NotesCore
import Testing

@testable import NotesStore

@Suite struct NoteStoreSearchTests {
    @Test func titleHitsComeFirstThenRecency() throws {
        let t = try TestStore()
        let body = try t.store.create(title: "Notes", body: "the budget review")
        t.advance(60)
        let title = try t.store.create(title: "Budget 2025", body: "numbers")
        t.advance(60)
        let newer = try t.store.create(title: "Misc", body: "budget again", tags: ["finance"])
        let hits = try t.store.search("budget").hits
        #expect(hits.map(\.note.id) == [title.id, newer.id, body.id])
        #expect(hits.map(\.tier) == [0, 2, 2])
        #expect(try t.store.search("budget review").hits.map(\.tier) == [2])
        #expect(try t.store.search("budget numbers").hits.map(\.tier) == [1])
        #expect(try t.store.search("numbers budget").hits.map(\.note.id) == [title.id])
    }

    @Test func hitsCarryHighlightRangesAndASnippet() throws {
        let t = try TestStore()
        try t.store.create(title: "Café crème", body: "first line\nwe met at the CAFÉ near Zürich\nlast")
        let hit = try #require(try t.store.search("cafe zurich").hits.first)
        #expect(hit.tier == 1)
        #expect(hit.titleMatches == [0..<4])
        #expect(hit.snippet == "we met at the CAFÉ near Zürich")
        #expect(hit.snippetMatches == [14..<18, 24..<30])
    }

    @Test func shortAndLongTermsCJKAndEmoji() throws {
        let t = try TestStore()
        let a = try t.store.create(title: "会議メモ", body: "東京 🎉 👍🏽")
        let b = try t.store.create(title: "x", body: "a ❤️ b")
        #expect(try t.store.search("会").hits.map(\.note.id) == [a.id])
        #expect(try t.store.search("会議メモ").hits.map(\.note.id) == [a.id])
        #expect(try t.store.search("🎉").hits.map(\.note.id) == [a.id])
        #expect(try t.store.search("👍🏽").hits.map(\.note.id) == [a.id])
        #expect(try t.store.search("❤️").hits.map(\.note.id) == [b.id])
        #expect(try t.store.search("❤").hits.map(\.note.id) == [b.id])
        #expect(try t.store.search("-🎉").hits.map(\.note.id) == [b.id])
    }

    @Test func shortTermsMatchInsideLongerGraphemes() throws {
        // Rare one- and two-scalar terms go through the trigram vocabulary: a term is a prefix of
        // a trigram by scalars even where a Character comparison says otherwise.
        let t = try TestStore()
        let thumbs = try t.store.create(title: "x", body: "ok 👍🏽 then")
        let korean = try t.store.create(title: "y", body: "한국어")
        let flag = try t.store.create(title: "z", body: "🇯🇵")
        #expect(try t.store.search("👍").hits.map(\.note.id) == [thumbs.id])
        #expect(try t.store.search("하").hits.map(\.note.id) == [korean.id])
        #expect(try t.store.search("한").hits.map(\.note.id) == [korean.id])
        #expect(try t.store.search("🇯").hits.map(\.note.id) == [flag.id])
        #expect(try t.store.search("-👍").hits.map(\.note.id).contains(thumbs.id) == false)
    }

    @Test func textPastedFromAPDFWithLigaturesIsFound() throws {
        let t = try TestStore()
        let note = try t.store.create(title: "Quarterly ﬁnance", body: "the oﬃce ﬂow", tags: ["ﬁn"])
        for query in ["finance", "fi", "office", "flow", "tag:fin", "ﬁnance"] {
            #expect(try t.store.search(query).hits.map(\.note.id) == [note.id], "\(query)")
        }
        let hit = try #require(try t.store.search("finance").hits.first)
        #expect(hit.titleMatches == [10..<16])
    }

    @Test func termsWithQuotesAndQuerySyntaxAreMatchedLiterally() throws {
        let t = try TestStore()
        let a = try t.store.create(title: "say \"hi\" AND NOT *", body: "col: title : x")
        #expect(try t.store.search(SearchQuery(terms: ["\"hi\""])).hits.map(\.note.id) == [a.id])
        #expect(try t.store.search(SearchQuery(terms: ["and not *"])).hits.map(\.note.id) == [a.id])
        #expect(try t.store.search(SearchQuery(terms: ["title : x"])).hits.map(\.note.id) == [a.id])
        #expect(try t.store.search(SearchQuery(terms: ["\"hi\" or"])).hits.isEmpty)
    }

    @Test func filtersByTagFavoriteAndNotebook() throws {
        let t = try TestStore()
        let a = try t.store.create(title: "a", body: "x", tags: ["Work"], isFavorite: true, zone: "work")
        let b = try t.store.create(title: "b", body: "x", tags: ["café"])
        #expect(try t.store.search("tag:work").hits.map(\.note.id) == [a.id])
        #expect(try t.store.search("tag:CAFE").hits.map(\.note.id) == [b.id])
        #expect(try t.store.search("tag:caf").hits.isEmpty, "tags match whole")
        #expect(try t.store.search("x -tag:work").hits.map(\.note.id) == [b.id])
        #expect(try t.store.search("is:fav").hits.map(\.note.id) == [a.id])
        #expect(try t.store.search("in:work x").hits.map(\.note.id) == [a.id])
        #expect(try t.store.search("in:notes").hits.map(\.note.id) == [b.id])
    }

    @Test func anEditMovesANoteToItsNewPlace() throws {
        let t = try TestStore()
        let a = try t.store.create(title: "alpha", body: "word")
        t.advance(10)
        let b = try t.store.create(title: "beta", body: "word")
        #expect(try t.store.search("word").hits.map(\.note.id) == [b.id, a.id])
        t.advance(10)
        _ = try t.store.update(a.id) { $0.body = "word changed" }
        #expect(try t.store.search("word").hits.map(\.note.id) == [a.id, b.id])
        #expect(try t.store.search("changed").hits.map(\.note.id) == [a.id])
        _ = try t.store.update(a.id) { $0.body = "other" }
        #expect(try t.store.search("word").hits.map(\.note.id) == [b.id])
    }

    @Test func theLastPageHasNoCursor() throws {
        let t = try TestStore()
        for i in 0..<6 {
            t.advance(1)
            try t.store.create(title: "n\(i)", body: "same")
        }
        let first = try t.store.search("same", limit: 3)
        #expect(first.hits.count == 3 && first.next != nil)
        let second = try t.store.search("same", limit: 3, after: first.next)
        #expect(second.hits.map(\.note.title) == ["n2", "n1", "n0"])
        #expect(second.next == nil, "a page that ends the results must not promise more")
    }
}
