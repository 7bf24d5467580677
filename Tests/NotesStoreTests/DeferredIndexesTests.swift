import Foundation
import GRDB
import NotesCore
import Testing

@testable import NotesStore

/// An import into an empty store builds the secondary indexes once, at its end
/// (`DeferredIndexes`, issue 27): the store it leaves, and one a kill left half way, has every
/// index of a store that never imported, and answers the same.
@Suite struct DeferredIndexesTests {
    /// Notes in two notebooks, some favorites, some in the trash, with tags, links and aliases.
    static func corpus(_ count: Int) -> [Note] {
        let base = Date(timeIntervalSince1970: 1_700_000_000)
        return (0..<count).map { index in
            let modified = base.addingTimeInterval(Double(index))
            return Note(
                zone: index % 4 == 0 ? "work" : Note.defaultZone, title: "note \(index)",
                body: "body \(index) alpha [[note \(index % 7)]]", tags: index % 3 == 0 ? ["tag\(index % 5)"] : [],
                isFavorite: index % 6 == 0, createdAt: modified.addingTimeInterval(-50), modifiedAt: modified,
                deletedAt: index % 9 == 0 ? modified : nil)
        }
    }

    /// The secondary indexes (not constraints') the database has, by name.
    static func indexNames(_ store: NoteStore) throws -> [String] {
        try store.read { db in
            try String.fetchAll(
                db, sql: "SELECT name FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL ORDER BY name")
        }
    }

    /// What a user sees of the store: lists in each order, counts, notebooks, tags, a title
    /// looked up, searches, links.
    static func answers(_ store: NoteStore, _ notes: [Note]) throws -> [String] {
        var lines: [String] = []
        for section in ListSection.allCases {
            for sort in ListSort.allCases {
                let page = try store.list(ListRequest(section: section, sort: sort, limit: 500))
                lines.append("\(section) \(sort): " + page.map(\.id.lowercasedString).joined(separator: ","))
            }
            lines.append("count \(section): \(try store.count(section))")
        }
        lines.append("notebooks: " + (try store.notebooks().map { "\($0.zone)=\($0.count)" }.sorted().joined()))
        lines.append("tags: " + (try store.tagCounts().map { "\($0.tag)=\($0.count)" }.joined(separator: ",")))
        lines.append("resolve: " + (try store.resolve("note 24").id.lowercasedString))
        for query in ["alpha", "body 1", "tag:tag0", "in:work"] {
            let hits = try store.search(SearchQuery(parsing: query), limit: 500).hits.map(\.note.idString)
            lines.append("search \(query): " + hits.joined(separator: ","))
        }
        let backlinks = try store.backlinks(of: try store.resolve("note 3").id).map(\.id.lowercasedString)
        lines.append("backlinks: " + backlinks.sorted().joined(separator: ","))
        return lines
    }

    @Test func anImportIntoAnEmptyStoreBuildsItsIndexesAtTheEndAndEndsWithEveryOne() throws {
        let t = try TestStore()
        let store = t.store
        let notes = Self.corpus(120)
        let never = try TestStore()
        let schema = try never.store.read(SchemaFixtureTests.schema)
        // The indexes there while each chunk is read: none of the deferred ones.
        let seen = Seen()
        let counts = try store.importNotes(count: notes.count, batchSize: 40, chunkSize: 10) { range in
            seen.append(try Self.indexNames(store))
            return Array(notes[range])
        }
        #expect(counts.created == 120)
        let during = seen.list
        #expect(!during.isEmpty)
        for names in during {
            #expect(!names.contains("note_by_title") && !names.contains("revision_by_record"), "\(names)")
        }
        #expect(try store.read(SchemaFixtureTests.schema) == schema)
        #expect(try store.read(DeferredIndexes.pending) == nil)
        #expect(try store.integrityCheck() == "ok")
    }

    /// The change sequence's insert trigger is dropped with the indexes; at the end every note
    /// takes its number at once, in the order written, after every number before the import (a
    /// note purged earlier and imported again included).
    @Test func theChangeSequenceNamesEveryImportedNoteInOrderAfterWhatCameBefore() throws {
        let t = try TestStore()
        let gone = try t.store.create(title: "gone", body: "soon")
        try t.store.purge(gone.id)
        let (_, start) = try t.store.allNoteHeadsAndSequence()
        let notes = Self.corpus(30).enumerated().map { index, note in
            var note = note
            if index == 5 { note.id = gone.id }
            return note
        }
        _ = try t.store.importNotes(count: notes.count, batchSize: 10) { Array(notes[$0]) }
        let changed = try t.store.read { db in
            try String.fetchAll(
                db, sql: "SELECT noteID FROM note_change WHERE seq > ? ORDER BY seq", arguments: [start])
        }
        #expect(changed == notes.map(\.idString))
        let live = try t.store.noteHeads(changedAfter: start).live.map(\.id)
        #expect(Set(live) == Set(notes.filter { $0.deletedAt == nil }.map(\.id)))
    }

    @Test func anImportIntoAStoreWithNotesDropsNoIndex() throws {
        let t = try TestStore()
        let store = t.store
        try store.create(title: "already here", body: "one note")
        let all = try Self.indexNames(store)
        let notes = Self.corpus(60)
        let seen = Seen()
        #expect(
            try store.importNotes(count: notes.count, batchSize: 20, chunkSize: 5) { range in
                seen.append(try Self.indexNames(store))
                return Array(notes[range])
            }.created == 60)
        #expect(!seen.list.isEmpty)
        #expect(seen.list.allSatisfy { $0 == all })
        #expect(try store.read(DeferredIndexes.pending) == nil)
    }

    /// A kill between the first batch and the end leaves the indexes dropped and the marker
    /// (simulated: dropped by hand after an import). Another process's reads still work, by
    /// scans; the next open builds every index, and the store answers as before.
    @Test func aStoreLeftWithItsIndexesDeferredIsRepairedWhenOpened() throws {
        let t = try TestStore()
        let notes = Self.corpus(90)
        _ = try t.store.importNotes(count: notes.count, batchSize: 30) { Array(notes[$0]) }
        let schema = try t.store.read(SchemaFixtureTests.schema)
        let before = try Self.answers(t.store, notes)

        try t.store.pool.write { try DeferredIndexes.drop($0) }
        #expect(try Self.indexNames(t.store).allSatisfy { !$0.hasPrefix("note_") && !$0.hasPrefix("revision_") })
        #expect(try Self.answers(t.store, notes) == before)

        let reopened = try NoteStore(directory: t.directory, clock: { t.now })
        #expect(try reopened.read(SchemaFixtureTests.schema) == schema)
        #expect(try reopened.read(DeferredIndexes.pending) == nil)
        #expect(try Self.answers(reopened, notes) == before)
        #expect(try reopened.integrityCheck() == "ok")
    }

    /// An import into an empty store that fails at a batch keeps the batches before it, with
    /// every index (not only after the next open).
    @Test func aFailingImportIntoAnEmptyStoreLeavesItsIndexes() throws {
        let t = try TestStore()
        let never = try TestStore()
        let good = Self.corpus(50)
        let all = Array(good[..<35]) + [Note(title: "nul", body: "a\u{0}b")] + Array(good[35...])
        #expect(throws: StoreError.self) {
            try t.store.importNotes(count: all.count, batchSize: 10) { Array(all[$0]) }
        }
        #expect(try t.store.count(.all) > 0)
        #expect(try t.store.read(SchemaFixtureTests.schema) == (try never.store.read(SchemaFixtureTests.schema)))
        #expect(try t.store.read(DeferredIndexes.pending) == nil)
    }

    /// A new device's first sync (`deferIndexesForFirstSync`): the revisions of another store,
    /// applied in two groups with the indexes deferred, leave the store that applying them with
    /// every index leaves; the indexes a sync's apply reads by stay up meanwhile. A store that
    /// holds a note defers nothing.
    @Test func aFirstSyncWithItsIndexesDeferredEndsAsOneThatKeptThem() throws {
        let source = try TestStore()
        let notes = Self.corpus(90)
        _ = try source.store.importNotes(count: notes.count, batchSize: 30) { Array(notes[$0]) }
        let revisions = try notes.flatMap { try source.store.history($0.id).reversed() }
        let keep: NoteStore.HeadsResolver = { _, _ in (nil, false) }
        let kept = try TestStore()
        _ = try kept.store.applyFetchedRevisions(revisions, engineState: "{}", resolve: keep)

        let deferred = try TestStore()
        #expect(try deferred.store.deferIndexesForFirstSync())
        let during = try Self.indexNames(deferred.store)
        #expect(!during.contains("note_by_title") && !during.contains("note_tag_folded"), "\(during)")
        #expect(DeferredIndexes.readBySync.isSubset(of: during), "\(during)")
        // The engine counts conflicts after each group: by an index, not the note table's rows.
        let plan = try deferred.store.read { db in
            try Row.fetchAll(db, sql: "EXPLAIN QUERY PLAN " + NoteStore.conflictCountSQL).map { $0["detail"] as String }
        }
        #expect(plan.contains { $0.contains("note_conflicts") }, "\(plan)")
        _ = try deferred.store.applyFetchedRevisions(Array(revisions[..<45]), engineState: "{}", resolve: keep)
        _ = try deferred.store.applyFetchedRevisions(Array(revisions[45...]), engineState: "{}", resolve: keep)
        try deferred.store.restoreDeferredIndexes()

        #expect(try deferred.store.read(SchemaFixtureTests.schema) == kept.store.read(SchemaFixtureTests.schema))
        #expect(try deferred.store.read(DeferredIndexes.pending) == nil)
        #expect(try Self.answers(deferred.store, notes) == Self.answers(kept.store, notes))
        #expect(
            try Set(deferred.store.noteHeads(changedAfter: 0).live.map(\.id))
                == Set(notes.filter { $0.deletedAt == nil }.map(\.id)))
        #expect(try deferred.store.integrityCheck() == "ok")
        #expect(try !kept.store.deferIndexesForFirstSync())
        #expect(try kept.store.read(DeferredIndexes.pending) == nil)
    }
}

/// What a load closure saw, on the store's preparing thread.
private final class Seen: @unchecked Sendable {
    private let lock = NSLock()
    private var seen: [[String]] = []

    func append(_ names: [String]) { lock.withLock { seen.append(names) } }
    var list: [[String]] { lock.withLock { seen } }
}
