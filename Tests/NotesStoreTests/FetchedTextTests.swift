import Foundation
import NotesCore
import NotesTestSupport
import Testing

@testable import NotesStore

/// A large fetched group's search text, made on another thread while its revisions are stored
/// (`FetchedText`, a new device's first sync): the store it leaves answers as one that made
/// every note's text as it wrote it, whatever the order the group brings its records in.
@Suite struct FetchedTextTests {
    /// Another store's revisions, each note's oldest first, in the order the notes were made:
    /// new notes, notes in the trash, notes edited twice, a note deleted for good.
    static func revisions(_ notes: [Note]) throws -> (source: TestStore, revisions: [Revision]) {
        let source = try TestStore()
        _ = try source.store.importNotes(count: notes.count, batchSize: 400) { Array(notes[$0]) }
        for note in notes.prefix(40) where note.deletedAt == nil {
            _ = try source.store.update(note.id) { $0.body += " edited omega" }
        }
        try source.store.purge(notes[41].id)
        let revisions = try notes.flatMap { try source.store.history($0.id).reversed() }
        return (source, revisions)
    }

    static func keep(_ heads: [Revision], _ history: RevisionHistory) -> (merged: Revision?, conflict: Bool) {
        (nil, false)
    }

    /// Searches whose answers depend on every note's text, in the order they list notes.
    static func searches(_ store: NoteStore) throws -> [String] {
        try ["alpha", "omega", "body 12", "tag:tag0", "in:work", "note 12"].map { query in
            let hits = try store.search(SearchQuery(parsing: query), limit: 5_000).hits.map(\.note.idString)
            return "\(query): " + hits.joined(separator: ",")
        }
    }

    @Test func aLargeGroupIndexesWhatSmallGroupsIndex() throws {
        let notes = DeferredIndexesTests.corpus(1_300)
        let (source, revisions) = try Self.revisions(notes)
        #expect(revisions.count >= FetchedText.threshold)

        let large = try TestStore()
        _ = try large.store.applyFetchedRevisions(revisions, engineState: "{}", resolve: Self.keep)
        let small = try TestStore()
        for start in stride(from: 0, to: revisions.count, by: 300) {
            let group = Array(revisions[start..<min(start + 300, revisions.count)])
            _ = try small.store.applyFetchedRevisions(group, engineState: "{}", resolve: Self.keep)
        }
        #expect(try Self.searches(large.store) == Self.searches(small.store))
        #expect(try Self.searches(large.store) == Self.searches(source.store))
        #expect(
            try DeferredIndexesTests.answers(large.store, notes) == DeferredIndexesTests.answers(small.store, notes))
        #expect(try large.store.integrityCheck() == "ok")

        // The records in another order (each one's revisions still oldest first): the segment
        // sorted ahead no longer fits, and what is stored is the same.
        let seed = SeededRandom.seed(default: 27)
        var rng = SeededRandom(seed: seed)
        let byRecord = Dictionary(grouping: revisions, by: \.recordID)
        let shuffled = byRecord.keys.sorted { $0.uuidString < $1.uuidString }.shuffled(using: &rng).flatMap {
            byRecord[$0] ?? []
        }
        let other = try TestStore()
        _ = try other.store.applyFetchedRevisions(shuffled, engineState: "{}", resolve: Self.keep)
        #expect(
            try Self.searches(other.store) == Self.searches(small.store), "seed \(seed) (CLOUDNOTES_SEED replays it)")
        #expect(try other.store.integrityCheck() == "ok")
    }

    /// A group looks up what the store has once for all its revisions (D-239): revisions it
    /// repeats, ones an earlier group applied and children before their parents are each
    /// applied once, and only records with something new are told changed.
    @Test func aGroupWithRepeatsKnownRevisionsAndChildrenFirstAppliesEachOnce() throws {
        let notes = DeferredIndexesTests.corpus(400)
        let (source, revisions) = try Self.revisions(notes)
        let seed = SeededRandom.seed(default: 20_261_201)
        var random = SeededRandom(seed: seed)
        let ordered = try TestStore()
        _ = try ordered.store.applyFetchedRevisions(revisions, engineState: "{}", resolve: Self.keep)

        let device = try TestStore()
        let first = Array(revisions.prefix(revisions.count / 3))
        _ = try device.store.applyFetchedRevisions(first, engineState: "{}", resolve: Self.keep)
        // Everything again, shuffled (children before parents), with a hundred repeated.
        let group = (revisions + (0..<100).map { _ in revisions[random.below(revisions.count)] }).shuffled(
            using: &random)
        let applied = try device.store.applyFetchedRevisions(group, engineState: "{}", resolve: Self.keep)
        let firstIDs = Set(first.map(\.id))
        let recordsWithNews = Set(revisions.filter { !firstIDs.contains($0.id) }.map(\.recordID))
        #expect(Set(applied.changed) == recordsWithNews, "CLOUDNOTES_SEED=\(seed)")
        #expect(applied.changed.count == recordsWithNews.count)
        #expect(applied.buffered == 0)
        let stored = try device.store.read { db in
            try Int.fetchOne(db, sql: "SELECT count(*) FROM revision") ?? 0
        }
        #expect(stored == Set(revisions.map(\.id)).count)
        #expect(try Self.searches(device.store) == Self.searches(source.store), "CLOUDNOTES_SEED=\(seed)")
        #expect(
            try DeferredIndexesTests.answers(device.store, notes) == DeferredIndexesTests.answers(ordered.store, notes))
        #expect(try device.store.integrityCheck() == "ok")
    }

    /// What was prepared for a group is handed back with fewer of its revisions, or with others
    /// (the engine may hold some back): the store uses it only where it fits.
    @Test func whatWasPreparedForMoreRevisionsIsUsedWhereItFits() throws {
        let notes = DeferredIndexesTests.corpus(1_300)
        let (source, revisions) = try Self.revisions(notes)
        let prepared = source.store.prepareFetched(Array(revisions.dropFirst(100)))
        #expect(prepared != nil)
        #expect(source.store.prepareFetched(Array(revisions.prefix(FetchedText.threshold - 1))) == nil)
        let device = try TestStore()
        for group in [revisions[..<700], revisions[700...]] {
            _ = try device.store.applyFetchedRevisions(
                Array(group), prepared: prepared, engineState: "{}", resolve: Self.keep)
        }
        #expect(try Self.searches(device.store) == Self.searches(source.store))
        let other = try TestStore()
        _ = try other.store.applyFetchedRevisions(
            revisions, prepared: "not the store's", engineState: "{}", resolve: Self.keep)
        #expect(try Self.searches(other.store) == Self.searches(source.store))
    }

    /// Notes saved in the same millisecond list and search on a new device in the order they
    /// do on the device that made them (which publishes them in that order).
    @Test func aNewDeviceOrdersNotesOfTheSameMillisecondAsTheirDevice() throws {
        let notes = DeferredIndexesTests.corpus(1_200).enumerated().map { index, note in
            var note = note
            note.modifiedAt = Date(timeIntervalSince1970: 1_700_000_000 + Double(index / 4))
            note.deletedAt = nil
            return note
        }
        let (source, revisions) = try Self.revisions(notes)
        let device = try TestStore()
        _ = try device.store.applyFetchedRevisions(revisions, engineState: "{}", resolve: Self.keep)
        #expect(try Self.searches(device.store) == Self.searches(source.store))
    }
}
