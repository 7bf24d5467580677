import Foundation
import GRDB
import NotesCore
import NotesTestSupport
import Testing

@testable import NotesStore

/// `searchEach` (what `cloudnotes search` prints from, issue 27) hands over a search's hits a
/// chunk at a time: the same hits in the same order as one page of them, however the chunks
/// fall across the tiers, and never more than `limit`.
@Suite struct StreamedSearchTests {
    @Test func chunksGiveThePageHitsInOrder() throws {
        let t = try TestStore()
        let base = Date(timeIntervalSince1970: 1_700_000_000)
        // Titles with both words (tier 0), one (tier 1), none (tier 2: the body only).
        let notes = (0..<530).map { index in
            let title = ["alpha beta \(index)", "alpha \(index)", "note \(index)"][index % 3]
            return Note(
                title: title, body: "alpha beta body \(index)", createdAt: base.addingTimeInterval(Double(index)))
        }
        _ = try t.store.importNotes(notes)
        for (query, limit) in [("alpha beta", 1000), ("alpha beta", 300), ("body", 77), ("-note alpha", 1000)] {
            let page = try t.store.search(query, limit: limit).hits
            var chunks: [[SearchHit]] = []
            try t.store.searchEach(SearchQuery(parsing: query), limit: limit, chunk: 64) { chunks.append($0) }
            #expect(chunks.flatMap { $0 } == page, "\(query) --limit \(limit)")
            #expect(chunks.allSatisfy { $0.count <= 64 })
            #expect(page.count == min(limit, query == "-note alpha" ? 354 : 530))
        }
    }

    /// Without previews (what `search` prints: rows and snippets, no preview) each hit is the
    /// page's but for its preview, which is made only where it gives the snippet: a note whose
    /// body holds no term (its title does) shows its preview's first line, as before.
    @Test func hitsWithoutPreviewsDifferOnlyInThePreviewsTheyDoNotShow() throws {
        let t = try TestStore()
        let notes = (0..<150).map { index in
            index % 3 == 0
                ? Note(title: "alpha \(index)", body: "\nfirst line of \(index)\nsecond")
                : Note(title: "note \(index)", body: "intro\nthe alpha line \(index)\nend")
        }
        _ = try t.store.importNotes(notes)
        let page = try t.store.search("alpha", limit: 1000).hits
        var streamed: [SearchHit] = []
        try t.store.searchEach(SearchQuery(parsing: "alpha"), limit: 1000, previews: false) { streamed += $0 }
        #expect(streamed.count == 150)
        for (hit, expected) in zip(streamed, page) {
            var withPreview = hit
            withPreview.note.preview = expected.note.preview
            #expect(withPreview == expected)
            let bodyMatches = expected.note.title.hasPrefix("note")
            #expect(hit.note.preview == (bodyMatches ? "" : expected.note.preview), "\(expected.note.title)")
            let number = expected.note.title.split(separator: " ")[1]
            #expect(hit.snippet == (bodyMatches ? "the alpha line \(number)" : "first line of \(number)"))
        }
    }

    /// A hit's body and search rowid are read by position after the summary's columns.
    @Test func theSummaryColumnsAreAsManyAsCounted() throws {
        let t = try TestStore()
        let columns = try t.store.read { db in
            try db.makeStatement(sql: "SELECT \(NoteStore.summaryColumns) FROM note").columnCount
        }
        #expect(columns == NoteStore.summaryColumnCount)
    }
}

/// `searchEach` reads on a thread of its own while the caller's makes and prints the hits: an
/// error either side stops both and reaches the caller, and the store is free afterwards.
@Suite struct StreamedSearchErrorTests {
    struct Stop: Error {}

    @Test func anErrorOfTheCallerStopsTheReadingAndIsThrown() throws {
        let t = try TestStore()
        _ = try t.store.importNotes((0..<530).map { Note(title: "alpha \($0)", body: "body") })
        var calls = 0
        #expect(throws: Stop.self) {
            try t.store.searchEach(SearchQuery(parsing: "alpha"), limit: 1000, chunk: 64) { _ in
                calls += 1
                if calls == 2 { throw Stop() }
            }
        }
        #expect(calls == 2)
        // The reading ended with its transaction: the store writes and searches again.
        _ = try t.store.importNotes([Note(title: "alpha after", body: "")])
        #expect(try t.store.search("alpha after").hits.map(\.note.title) == ["alpha after"])
    }

    @Test func anErrorOfTheReadingIsThrownAndNothingIsHandedOver() throws {
        let t = try TestStore()
        _ = try t.store.importNotes([Note(title: "alpha", body: "")])
        var calls = 0
        #expect(throws: StoreError.self) {
            try t.store.searchEach(SearchQuery(parsing: "in:nowhere alpha"), limit: 10) { _ in calls += 1 }
        }
        #expect(calls == 0)
    }
}

/// A hit's snippet is looked for in the body's first 100,000 characters as SQLite's `substr`
/// counts them, cut from the body's bytes in Swift.
@Suite struct HeadLengthTests {
    @Test func theHeadIsCutWhereSQLitesSubstrCutsIt() throws {
        let seed = SeededRandom.seed(default: 20_261_130)
        var random = SeededRandom(seed: seed)
        let queue = try DatabaseQueue()
        // Valid UTF-8 of every length, and bytes that are not UTF-8 (stray continuation bytes,
        // lead bytes without them, 0xFF), and runs of ASCII (counted eight bytes at a time). No
        // NUL: `substr` stops at one, the head goes on.
        let pieces: [[UInt8]] = [
            [0x61], [0x0A], [0xC3, 0xA9], [0xE6, 0x9D, 0xB1], [0xF0, 0x9F, 0x98, 0x80], [0x80], [0xBF], [0xC3],
            [0xE6, 0x9D], [0xFF], [0xF0, 0x80, 0x80, 0x80, 0x80], Array("abcdefg".utf8), Array("abcdefghijklm".utf8),
        ]
        try queue.read { db in
            for _ in 0..<3_000 {
                let text = (0..<random.below(30)).flatMap { _ in pieces[random.below(pieces.count)] }
                let characters = 1 + random.below(60)
                let expected =
                    try Data.fetchOne(
                        db, sql: "SELECT CAST(substr(CAST(? AS TEXT), 1, ?) AS BLOB)",
                        arguments: [Data(text), characters]) ?? Data()
                let length = text.withUnsafeBufferPointer { NoteStore.headLength($0, characters: characters) }
                #expect(Data(text.prefix(length)) == expected, "\(text) \(characters) (CLOUDNOTES_SEED=\(seed))")
            }
        }
    }
}
