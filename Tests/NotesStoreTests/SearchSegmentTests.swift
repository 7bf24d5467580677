import Foundation
import GRDB
import NotesCore
import Testing

@testable import NotesStore

/// The search index's segments over the life of a store: one per write, merged by size class,
/// old versions of edited notes dropped; and the checkpoints of bulk writes.
@Suite struct SearchSegmentTests {
    func segments(_ store: NoteStore) throws -> (count: Int, documents: Int) {
        try store.pool.read { db in
            let row = try Row.fetchOne(db, sql: "SELECT count(*), coalesce(sum(documents), 0) FROM search_segment")!
            return (row[0], row[1])
        }
    }

    @Test func singleWritesMergeAndEditedTextStopsMatching() throws {
        let t = try TestStore()
        var notes: [Note] = []
        for i in 0..<120 {
            t.advance(1)
            notes.append(try t.store.create(title: "note \(i)", body: "first draft alpha\(i)"))
        }
        for note in notes.prefix(60) {
            t.advance(1)
            _ = try t.store.update(note.id) { $0.body = "second draft omega" }
        }
        for note in notes.suffix(10) { _ = try t.store.trash(note.id) }
        let (count, documents) = try segments(t.store)
        // 180 writes, each its own segment, merged eight at a time by size class.
        #expect(count < 24, "\(count) segments")
        #expect(documents < 180 + 10, "merges drop the versions that were edited")
        #expect(try t.store.search("omega", limit: 100).hits.count == 60)
        #expect(try t.store.search("second draft", limit: 100).hits.count == 60)
        #expect(try t.store.search("first draft", limit: 100).hits.count == 50)
        #expect(
            try t.store.search("alpha7").hits.map(\.note.title).sorted() == [
                "note 70", "note 71", "note 72", "note 73", "note 74", "note 75", "note 76", "note 77", "note 78",
                "note 79",
            ])
        #expect(try t.store.search("alpha5").hits.isEmpty, "edited away (note 5, 50-59)")
        #expect(try t.store.search("alpha115").hits.isEmpty, "in the trash")
        #expect(try t.store.integrityCheck() == "ok")
    }

    @Test func anImportEndsWithItsDataInTheDatabaseFile() throws {
        let t = try TestStore()
        var notes: [Note] = []
        for i in 0..<3000 {
            let date = Date(timeIntervalSince1970: Double(1_600_000_000 + i))
            let tags: [String] = i % 3 == 0 ? ["third"] : []
            notes.append(
                Note(
                    title: "imported \(i)", body: "line \(i)\nzebra\(i % 7)", tags: tags, createdAt: date,
                    modifiedAt: date))
        }
        let counts = try t.store.importNotes(notes, batchSize: 500)
        #expect(counts.created == 3000)
        let wal = t.directory.appendingPathComponent(NoteStore.databaseFileName + "-wal").path
        let walSize = ((try? FileManager.default.attributesOfItem(atPath: wal)[.size]) as? NSNumber)?.intValue ?? 0
        #expect(walSize == 0, "the WAL is checkpointed and truncated after an import")
        let reopened = try NoteStore(directory: t.directory)
        #expect(try reopened.count(.all) == 3000)
        #expect(try reopened.search("zebra3", limit: 1000).hits.count == 429)
        #expect(try reopened.search("tag:third", limit: 2000).hits.count == 1000)
        #expect(try reopened.integrityCheck() == "ok")
    }

    /// An import sorts each batch's segment before it is written; it must be the segment a
    /// sort at commit makes, and not be used for a transaction that indexed other documents.
    @Test func aBatchSortedAheadIsTheSegmentSortedAtCommit() throws {
        let keys: [[UInt32]] = [[7, 3, 0x01_0203], [3], [], [0x01_0203, 9, 7], [5]]
        let rowids: [Int64] = [40_960, 40_961, 81_920, 81_921, 90_000]
        let sorted = SegmentSort.sort(rowids: rowids, keys: keys, keyCount: 8)
        let ahead = try #require(SegmentSort.Ahead(keys: keys).segment(rowids: rowids, keys: keys))
        #expect(ahead.documents == sorted.documents)
        #expect(ahead.keys == sorted.keys)
        #expect(ahead.ends == sorted.ends)
        #expect(ahead.bytes == sorted.bytes)
        let other = SegmentSort.Ahead(keys: keys)
        #expect(other.segment(rowids: [1, 2, 3, 5, 4], keys: keys) == nil, "rowids not ascending")
        #expect(
            other.segment(rowids: Array(rowids.prefix(4)), keys: Array(keys.prefix(4))) == nil, "a note not written")
        #expect(other.segment(rowids: rowids, keys: [[7, 3, 0x01_0203], [3], [], [9, 7], [5]]) == nil, "other keys")
    }

    /// A batch of an import where some notes are unchanged, or in the trash, indexes the others.
    @Test func anImportAgainWithUnchangedAndTrashedNotesIndexesTheRest() throws {
        let t = try TestStore()
        func notes(_ word: (Int) -> String) -> [Note] {
            (0..<40).map { i in
                let date = Date(timeIntervalSince1970: Double(1_600_000_000 + i))
                var note = Note(
                    title: "note \(i)", body: "body \(word(i))", createdAt: date, modifiedAt: date)
                note.id = UUID(uuidString: String(format: "00000000-0000-0000-0000-%012d", i))!
                if i % 10 == 9 { note.deletedAt = date }
                return note
            }
        }
        _ = try t.store.importNotes(notes { _ in "kiwi" }, batchSize: 30)
        let counts = try t.store.importNotes(notes { $0 % 2 == 0 ? "mango\($0)" : "kiwi" }, batchSize: 30)
        #expect(counts.updated == 20 && counts.unchanged == 20)
        #expect(try t.store.search("kiwi", limit: 100).hits.count == 16)
        #expect(try t.store.search("mango", limit: 100).hits.count == 20)
        #expect(try t.store.search("mango12").hits.map(\.note.title) == ["note 12"])
        #expect(try t.store.integrityCheck() == "ok")
    }
}
