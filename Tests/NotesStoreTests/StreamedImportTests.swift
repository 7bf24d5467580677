import Foundation
import GRDB
import NotesCore
import NotesTestSupport
import Testing

@testable import NotesStore

/// An import given as batches it loads one at a time (`importNotes(count:load:)`, what the CLI
/// uses for large imports, issue 27): a batch is read only once the batches two before it are
/// written, so memory holds a batch or two whatever the import's size.
@Suite struct StreamedImportTests {
    @Test func eachBatchIsLoadedOnlyAfterTheOnesBeforeItAreWritten() throws {
        let t = try TestStore()
        let base = Date(timeIntervalSince1970: 1_700_000_000)
        let notes = (0..<450).map { index in
            Note(title: "note \(index)", body: "body \(index)", createdAt: base.addingTimeInterval(Double(index)))
        }
        // Per call: the range asked for, and how many notes the store held then.
        let calls = Calls()
        let store = t.store
        let counts = try store.importNotes(count: notes.count, batchSize: 100) { range in
            let written = try store.count(.all)
            calls.append(range, written)
            return Array(notes[range])
        }
        #expect(counts.created == 450)
        let seen = calls.list
        #expect(seen.map(\.range) == [0..<10, 10..<43, 43..<143, 143..<243, 243..<343, 343..<443, 443..<450])
        // When a batch is read, every batch but the one being written is in the store.
        for (previous, call) in zip(seen, seen.dropFirst()) {
            #expect(call.written >= previous.range.lowerBound, "\(call.range) read with \(call.written) written")
        }
        #expect(try store.count(.all) == 450)
        #expect(try store.search("body", limit: 500).hits.count == 450)
    }

    @Test func aBatchThatCannotBeStoredStopsTheImportWithTheBatchesBeforeItWritten() throws {
        let t = try TestStore()
        let good = (0..<30).map { Note(title: "ok \($0)", body: "line") }
        let bad = Note(title: "nul", body: "a\u{0}b")
        let all = good + [bad]
        #expect(throws: StoreError.self) {
            try t.store.importNotes(count: all.count, batchSize: 10) { Array(all[$0]) }
        }
        // Batches 0..<1, 1..<4, 4..<14, 14..<24 are written; 24..<31 holds the bad note.
        #expect(try t.store.count(.all) == 24)
        // Importing again finishes the job without duplicates.
        #expect(try t.store.importNotes(count: good.count, batchSize: 10) { Array(good[$0]) }.unchanged == 24)
        #expect(try t.store.count(.all) == 30)
    }

    /// A batch is read and prepared in chunks but written as one transaction: a chunk that
    /// fails leaves nothing of its batch, and importing again finishes the job.
    @Test func aBatchOfSeveralChunksIsWrittenWhollyOrNotAtAll() throws {
        let t = try TestStore()
        let good = (0..<60).map { Note(title: "ok \($0)", body: "line \($0)") }
        let all = Array(good[..<37]) + [Note(title: "nul", body: "a\u{0}b")] + Array(good[37...])
        let calls = Calls()
        #expect(throws: StoreError.self) {
            try t.store.importNotes(count: all.count, batchSize: 20, chunkSize: 5) { range in
                calls.append(range, 0)
                return Array(all[range])
            }
        }
        // Batches 0..<2, 2..<8, 8..<28 are written; 28..<48 (chunks of 5) holds the bad note at 37.
        #expect(calls.list.map(\.range).prefix(6) == [0..<2, 2..<7, 7..<8, 8..<13, 13..<18, 18..<23])
        #expect(try t.store.count(.all) == 28)
        #expect(try t.store.search("line", limit: 100).hits.count == 28)
        let again = try t.store.importNotes(count: good.count, batchSize: 20, chunkSize: 5) { Array(good[$0]) }
        #expect(again.unchanged == 28 && again.created == 32)
        #expect(try t.store.search("line", limit: 100).hits.count == 60)
    }

    /// An import stopped by a batch that fails, run again, leaves the store an uninterrupted
    /// import leaves: the same notes, revision ids and fields, heads stored without the body
    /// (`HeadBody`), and search results; and the bulk writes' settings are SQLite's defaults
    /// again afterwards (a later VACUUM keeps its copy on disk, not in memory).
    @Test func anImportResumedAfterAFailingBatchEndsAsAnUninterruptedOne() throws {
        let words = ["alpha", "Bravo", "café", "東京", "delta", "echo", "fox", "golf", "\"quoted\"", "back\\slash"]
        let base = Date(timeIntervalSince1970: 1_700_000_000)
        let notes = (0..<64).map { index in
            let body = (0..<(1 + index % 7)).map { line in
                (0..<(3 + line)).map { words[(index * 7 + line * 3 + $0) % words.count] }.joined(separator: " ")
            }.joined(separator: "\n")
            // Two notes per second: some share their modification time.
            let modified = base.addingTimeInterval(Double(index / 2))
            return Note(
                title: "note \(index) \(words[index % words.count])", body: body,
                tags: index % 3 == 0 ? ["tag\(index % 4)"] : [], isFavorite: index % 5 == 0,
                createdAt: modified.addingTimeInterval(-100), modifiedAt: modified,
                deletedAt: index % 11 == 0 ? modified : nil)
        }
        let whole = try TestStore()
        #expect(try whole.store.importNotes(count: notes.count, batchSize: 10) { Array(notes[$0]) }.created == 64)

        let resumed = try TestStore()
        let failing = Array(notes[..<40]) + [Note(title: "nul", body: "a\u{0}b")] + Array(notes[40...])
        #expect(throws: StoreError.self) {
            try resumed.store.importNotes(count: failing.count, batchSize: 10) { Array(failing[$0]) }
        }
        #expect(try resumed.store.count(.all) < 64)
        let again = try resumed.store.importNotes(count: notes.count, batchSize: 10) { Array(notes[$0]) }
        #expect(again.created + again.unchanged == 64 && again.updated == 0)

        func state(_ t: TestStore) throws -> [String] {
            try t.store.allNotes(includeTrash: true).sorted { $0.idString < $1.idString }.map { note in
                let history = try t.store.history(note.id).map {
                    "\($0.id) \($0.fields.map { $0.json.canonicalString } ?? "-")"
                }
                return [
                    note.idString, note.title, note.body, note.tags.joined(separator: ","), "\(note.isFavorite)",
                    "\(note.createdAt.millisecondsSince1970)", "\(note.modifiedAt.millisecondsSince1970)",
                    "\(note.deletedAt?.millisecondsSince1970 ?? 0)", note.headRev ?? "-", note.syncState.rawValue,
                ].joined(separator: "|") + " " + history.joined(separator: " ")
            }
        }
        #expect(try state(resumed) == state(whole))
        for t in [whole, resumed] {
            let heads = try t.store.read { db in
                try Int.fetchOne(
                    db,
                    sql: "SELECT count(*) FROM note JOIN revision r ON r.id = note.headRev WHERE r.bodyAt IS NOT NULL")
            }
            #expect(heads == 64)
            // Per connection: the writer's.
            let settings = try t.store.pool.writeWithoutTransaction { db in
                [
                    try Int.fetchOne(db, sql: "PRAGMA temp_store"),
                    try Int.fetchOne(db, sql: "PRAGMA wal_autocheckpoint"),
                ]
            }
            #expect(settings == [0, 1000])
        }
        for query in ["alpha", "cafe", "東京", "tag:tag0", "quoted", "note 3", "golf echo", "xyz"] {
            let found = { (t: TestStore) in
                try t.store.search(SearchQuery(parsing: query), limit: 100).hits.map { "\($0.note.id) \($0.tier)" }
            }
            #expect(try found(resumed) == found(whole), "\(query)")
            if query != "xyz" { #expect(try !found(whole).isEmpty, "\(query)") }
        }
    }
}

/// The calls of a load closure, which runs on the store's preparing thread.
private final class Calls: @unchecked Sendable {
    private let lock = NSLock()
    private var calls: [(range: Range<Int>, written: Int)] = []

    func append(_ range: Range<Int>, _ written: Int) { lock.withLock { calls.append((range, written)) } }

    var list: [(range: Range<Int>, written: Int)] { lock.withLock { calls } }
}
