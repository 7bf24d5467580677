import Foundation
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

    /// A hit's body and search rowid are read by position after the summary's columns.
    @Test func theSummaryColumnsAreAsManyAsCounted() throws {
        let t = try TestStore()
        let columns = try t.store.read { db in
            try db.makeStatement(sql: "SELECT \(NoteStore.summaryColumns) FROM note").columnCount
        }
        #expect(columns == NoteStore.summaryColumnCount)
    }
}
