import Foundation
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
}

/// The calls of a load closure, which runs on the store's preparing thread.
private final class Calls: @unchecked Sendable {
    private let lock = NSLock()
    private var calls: [(range: Range<Int>, written: Int)] = []

    func append(_ range: Range<Int>, _ written: Int) { lock.withLock { calls.append((range, written)) } }

    var list: [(range: Range<Int>, written: Int)] { lock.withLock { calls } }
}
