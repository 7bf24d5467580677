import Foundation
import GRDB
import NotesCore
import NotesTestSupport
import Testing

@testable import NotesStore

/// A search's check folds a found note's body only until its terms are found, and the line of
/// the first one is all a hit copies of the body (D-236): every hit's snippet must still be the
/// one its whole head gives, whatever the query, the lines and where the terms fall.
@Suite struct SnippetLineTests {
    /// Lines of rich words (`SearchCorpus`), some long, joined by LF or CRLF.
    static func body(_ random: inout SeededRandom) -> String {
        let lines = (0..<random.below(40)).map { _ in
            SearchCorpus.text(&random, words: random.below(random.below(4) == 0 ? 120 : 20), newlines: false)
        }
        return lines.joined(separator: random.below(5) == 0 ? "\r\n" : "\n")
    }

    /// The snippet and its matches the whole head of `body` gives for `query`, as a search
    /// made them before it handed over a line (the summary's snippet when no line holds a term).
    static func expected(_ query: SearchQuery, body: String, summary: NoteSummary) -> (String, [Range<Int>]) {
        // The head: the first 100,000 characters as SQLite counts them (scalars, in UTF-8).
        let head = String(String.UnicodeScalarView(body.unicodeScalars.prefix(NoteStore.headCharacters)))
        let terms = SearchPlan.foldedTerms(query.highlightTerms)
        if let snippet = SearchHighlighter.snippet(of: head, terms: terms) { return (snippet.text, snippet.matches) }
        return (summary.snippet, [])
    }

    @Test func everyHitsSnippetIsTheOneItsWholeHeadGives() throws {
        let seed = SeededRandom.seed(default: 20_261_201)
        var random = SeededRandom(seed: seed)
        let t = try TestStore()
        var notes = (0..<400).map { _ in
            Note(
                zone: SearchCorpus.zones[random.below(SearchCorpus.zones.count)],
                title: SearchCorpus.text(&random, words: random.below(4), newlines: false), body: Self.body(&random),
                tags: (0..<random.below(3)).map { _ in SearchCorpus.tags[random.below(SearchCorpus.tags.count)] })
        }
        // Bodies longer than the head a snippet is looked for in: a term only past its end, and
        // one before it too.
        let filler = String(repeating: "filler line\n", count: 9_000)
        notes.append(Note(title: "long one", body: filler + "meeting café 東京 in the tail"))
        notes.append(Note(title: "long two", body: "e-mail\n" + filler + "meeting e-mail"))
        _ = try t.store.importNotes(notes)
        var queries = [
            "meeting", "café", "東京", "e", "the", "a e", "meeting -café", "cafe 東京", "title:meeting", "meeting OR café",
            "e-mail", "filler", "-the", "budget review", "tag:work e", "(meeting OR design) the",
        ].map { SearchQuery(parsing: $0) }
        queries += (0..<50).map { _ in SearchOracleTests.randomQuery(&random, notes: notes).0 }
        // Words of one note's first and last lines, far apart in a long body: the check must
        // go on folding past the block where it found the first.
        let stored = try notes.map { try #require(try t.store.note($0.id)) }
        let farApart = queries.count
        for note in stored.filter({ $0.body.utf8.count > 4 * SearchPlan.foldBlock }).prefix(8) {
            let lines = note.body.split(separator: "\n").map { $0.split(separator: " ").map(String.init) }
            guard let first = lines.first?.first, let last = lines.last?.last else { continue }
            for (terms, excluded) in [([first, last], []), ([last, first], []), ([first], [last])] {
                var query = SearchQuery()
                query.terms = terms
                query.excludedTerms = excluded
                queries.append(query)
            }
        }
        let oracle = SearchOracle(stored.filter { $0.body.utf8.count < 50_000 })
        let bodies = Dictionary(uniqueKeysWithValues: stored.map { ($0.id, $0.body) })
        var compared = 0
        for (index, query) in queries.enumerated() {
            let page = try t.store.search(query, limit: 2_000).hits
            // Which notes match is `SearchOracleTests`' to check; here, where the terms are far
            // apart in long bodies.
            if index >= farApart {
                let found = Dictionary(
                    page.filter { bodies[$0.note.id, default: ""].utf8.count < 50_000 }.map { ($0.note.id, $0.tier) },
                    uniquingKeysWith: { a, _ in a })
                #expect(
                    found == oracle.expected(query), "\(query.terms) -\(query.excludedTerms) (CLOUDNOTES_SEED=\(seed))")
            }
            var streamed: [SearchHit] = []
            try t.store.searchEach(query, limit: 2_000, chunk: 64) { streamed += $0 }
            #expect(streamed == page, "\(query) (CLOUDNOTES_SEED=\(seed))")
            for hit in page {
                let (snippet, matches) = Self.expected(query, body: bodies[hit.note.id] ?? "", summary: hit.note)
                #expect(
                    hit.snippet == snippet && hit.snippetMatches == matches,
                    "\(query) in \(hit.note.title.debugDescription): \(hit.snippet.debugDescription) (CLOUDNOTES_SEED=\(seed))"
                )
                compared += 1
            }
        }
        #expect(compared > 5_000)
    }

    /// A body that is not UTF-8 as stored (a damaged row) is read as a String repairs it, for
    /// the check and for the snippet alike.
    @Test func aDamagedBodyGivesTheSnippetItsRepairGives() throws {
        let t = try TestStore()
        // Indexed as the valid text, so the search's candidates name it.
        let note = Note(title: "damaged", body: "first line\ncafé meeting\nlast")
        _ = try t.store.importNotes([note])
        // "first line\n", a stray continuation byte, "caf\u{e9} meeting\nlast", a lead byte alone.
        let bytes = Array("first line\n".utf8) + [0x80] + Array("café meeting\nlast ".utf8) + [0xC3]
        try t.store.write { db in
            try db.execute(
                sql: "UPDATE note SET body = CAST(? AS TEXT) WHERE id = ?", arguments: [Data(bytes), note.idString])
        }
        let repaired = String(decoding: bytes, as: UTF8.self)
        for text in ["meeting", "cafe", "last", "first"] {
            let query = SearchQuery(parsing: text)
            let hits = try t.store.search(query).hits
            #expect(hits.count == 1, "\(text)")
            guard let hit = hits.first else { continue }
            let (snippet, matches) = Self.expected(query, body: repaired, summary: hit.note)
            #expect(hit.snippet == snippet && hit.snippetMatches == matches, "\(text): \(hit.snippet.debugDescription)")
        }
    }
}

/// A search hit's summary is copied out of its row as bytes and made later (D-237), its preview
/// and length read from the body where it lies: it must be the summary `NoteStore.summary(from:)`
/// makes of the note's row of `summaryColumns` (whose preview is SQLite's `substr` and length
/// `length(CAST(body AS BLOB))`), damaged text included.
@Suite struct SummaryBytesTests {
    @Test func theCopiedRowMakesTheSummaryTheRowMakes() throws {
        let seed = SeededRandom.seed(default: 20_261_201)
        let t = try TestStore()
        var notes = SearchCorpus.notes(count: 300, seed: seed)
        notes[0].title = ""
        notes[1].body = String(repeating: "é東👍🏽 ", count: 200)
        _ = try t.store.importNotes(notes)
        // Text as a damaged store may hold it: a NUL (GRDB's String ends there), bytes that are
        // not UTF-8, an unknown sync state.
        let damaged: [(String, [UInt8])] = [
            ("title", Array("before".utf8) + [0] + Array("after".utf8)), ("title", [0x61, 0x80, 0xC3, 0x62]),
            ("body", [0xE6, 0x9D, 0x0A, 0x00, 0x61]), ("tags", Array("[\"a\"]".utf8) + [0xFF]),
            ("syncState", Array("unheard-of".utf8)), ("zone", [0xF0, 0x9F]),
            // A preview cut inside an emoji, at a NUL, among bytes that are not UTF-8.
            ("body", Array(String(repeating: "a", count: 239).utf8) + Array("👍🏽 tail".utf8)),
            (
                "body",
                Array("ab".utf8) + [0xC3, 0xC3, 0x80, 0xFF, 0x80, 0x80] + Array(String(repeating: "é", count: 300).utf8)
            ),
            (
                "body",
                Array(String(repeating: "東", count: 100).utf8) + [0] + Array(String(repeating: "x", count: 300).utf8)
            ),
            ("body", []),
        ]
        try t.store.write { db in
            for (index, (column, bytes)) in damaged.enumerated() {
                try db.execute(
                    sql: "UPDATE note SET \(column) = CAST(? AS TEXT) WHERE id = ?",
                    arguments: [Data(bytes), notes[index + 2].idString])
            }
        }
        let compared = try t.store.read { db in
            let listed = try Row.fetchAll(db, sql: "SELECT \(NoteStore.summaryColumns) FROM note ORDER BY rowid")
            let statement = try db.makeStatement(sql: "SELECT \(NoteStore.hitColumns.sql) FROM note ORDER BY rowid")
            let rows = try Row.fetchCursor(statement)
            var count = 0
            while try rows.next() != nil {
                let copied = NoteStore.SummaryBytes(CurrentRow(statement))
                #expect(try copied.summary() == NoteStore.summary(from: listed[count]), "seed \(seed) row \(count)")
                count += 1
            }
            return count
        }
        #expect(compared == notes.count)
    }
}
