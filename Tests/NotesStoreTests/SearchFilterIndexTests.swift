import Foundation
import GRDB
import NotesCore
import Testing

@testable import NotesStore

/// A search's filters name their notes from indexes alone (`search-filters-1`, D-247): reading a
/// row per note they allow made `tag:work` take 65 ms at 100k notes, and `is:fav` scan the table.
@Suite struct SearchFilterIndexTests {
    /// Each filter's statement, as `SearchPlan.allowedRowids` runs it, reads a covering index.
    @Test func eachFilterIsReadFromACoveringIndex() throws {
        let t = try TestStore()
        _ = try t.store.create(title: "one", body: "text", tags: ["work"])
        for condition in [SearchPlan.taggedCondition, "isFavorite = 1", "isFavorite = 0", "zone = ?"] {
            let plan = try t.store.read { db in
                try Row.fetchAll(
                    db, sql: "EXPLAIN QUERY PLAN " + SearchPlan.filteredRowidsSQL(condition),
                    arguments: condition.contains("?") ? ["x"] : []
                ).map { $0["detail"] as String }
            }
            #expect(plan.contains { $0.hasPrefix("SEARCH n USING COVERING INDEX") }, "\(condition): \(plan)")
            #expect(!plan.contains { $0.hasPrefix("SCAN n") }, "\(condition): \(plan)")
        }
    }

    /// The filters' indexes serve the statements that ask for searchRowids only: the list's
    /// counts, on the first screen of the app and after `list`, read the indexes they did before
    /// (the count of favorites took `note_search_by_favorite` and read every favorite's row).
    @Test func theListsCountsDoNotTakeTheFiltersIndexes() throws {
        let t = try TestStore()
        for sql in [NoteStore.liveCountSQL, NoteStore.favoriteCountSQL] {
            let plan = try t.store.read { db in
                try Row.fetchAll(db, sql: "EXPLAIN QUERY PLAN " + sql, arguments: [NoteTemplate.zone]).map {
                    $0["detail"] as String
                }
            }
            #expect(!plan.contains { $0.contains("note_search_by") }, "\(plan)")
            #expect(!plan.contains { $0.hasPrefix("SCAN note") && !$0.contains("INDEX") }, "\(plan)")
        }
    }

    /// Filters together, and filters that exclude, allow what each allows: their notes in common,
    /// less the excluded ones, as a user reads the query.
    @Test func filtersTogetherAllowTheNotesTheyHaveInCommon() throws {
        let t = try TestStore()
        let work = try t.store.createNotebook(named: "Work").zone
        var expected: [String: Set<String>] = [:]
        for index in 0..<60 {
            let tags = [index % 2 == 0 ? "a" : nil, index % 3 == 0 ? "b" : nil].compactMap { $0 }
            let fav = index % 4 == 0
            let inWork = index % 5 == 0
            let note = try t.store.create(
                title: "note \(index)", body: "word", tags: tags, isFavorite: fav,
                zone: inWork ? work : Note.defaultZone)
            func add(_ query: String, _ yes: Bool) { if yes { expected[query, default: []].insert(note.title) } }
            add("tag:a tag:b", index % 6 == 0)
            add("tag:a -tag:b", index % 2 == 0 && index % 3 != 0)
            add("-tag:a", index % 2 != 0)
            add("is:fav -tag:a", fav && index % 2 != 0)
            add("in:work is:fav", inWork && fav)
            add("-in:work tag:b", !inWork && index % 3 == 0)
            add("word tag:b -is:fav", index % 3 == 0 && !fav)
        }
        for (query, titles) in expected {
            #expect(Set(try t.store.search(query, limit: 100).hits.map(\.note.title)) == titles, "\(query)")
        }
    }
}
