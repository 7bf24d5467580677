import Foundation
import GRDB
import NotesCore
import NotesTestSupport
import Testing

@testable import NotesStore

/// The search index's blobs as read back from the database (ARCHITECTURE §7): posting lists and
/// segment document tables, damaged at random, decode or throw `SearchIndexDamage`, never trap;
/// and a store whose index is damaged still finds every note and repairs it on the next merge.
@Suite struct SearchPostingsFuzzTests {
    static func encoded(_ list: [UInt32]) -> [UInt8] {
        var bytes: [UInt8] = []
        Postings.encode(list, into: &bytes)
        return bytes
    }

    static func decoded(_ bytes: [UInt8]) throws -> [UInt32] {
        var list: [UInt32] = []
        try bytes.withUnsafeBytes { try Postings.decode($0, into: &list) }
        return list
    }

    /// Ascending lists: short and long, small gaps and gaps up to the 32-bit edge.
    static func seedLists(_ rng: inout SeededRandom) -> [[UInt32]] {
        var lists: [[UInt32]] = [[0], [UInt32.max], [0, UInt32.max], [3, 4, 200, 70_000, 4_000_000_000]]
        for _ in 0..<40 {
            var document = UInt32.random(in: 0...1000, using: &rng)
            var list = [document]
            let maxGap: UInt32 = [2, 200, 70_000, 100_000_000].randomElement(using: &rng)!
            for _ in 0..<Int.random(in: 0...60, using: &rng) {
                let (next, overflow) = document.addingReportingOverflow(UInt32.random(in: 1...maxGap, using: &rng))
                if overflow { break }
                document = next
                list.append(document)
            }
            lists.append(list)
        }
        // Dense lists from the start of a segment, which are stored as bitmaps (D-230).
        for _ in 0..<20 {
            let density = Int.random(in: 2...9, using: &rng)
            let list = (0..<UInt32.random(in: 8...400, using: &rng)).filter { _ in
                Int.random(in: 0..<10, using: &rng) < density
            }
            if !list.isEmpty { lists.append(list) }
        }
        return lists
    }

    @Test func postingListsDecodeOrThrow() throws {
        let run = FuzzRun("posting lists", defaultIterations: 30_000)
        var rng = SeededRandom(seed: run.seed)
        let lists = Self.seedLists(&rng)
        for list in lists {
            #expect(try Self.decoded(Self.encoded(list)) == list, "\(run.context(0)): \(list)")
        }
        let mutator = ByteMutator(corpus: lists.map(Self.encoded))
        var merger = PostingMerger()
        var decodedCount = 0
        for iteration in 0..<run.iterations {
            let bytes = mutator.mutate(mutator.corpus.randomElement(using: &rng)!, using: &rng)
            guard let list = try? Self.decoded(bytes) else { continue }
            decodedCount += 1
            // What decodes is in order and round-trips through the encoder.
            guard zip(list, list.dropFirst()).allSatisfy({ $0 <= $1 }), try Self.decoded(Self.encoded(list)) == list
            else {
                Issue.record("\(run.context(iteration)): \(bytes) decoded to \(list)")
                return
            }
            // Merging: renumbered into another segment, or shifted after one.
            merger.reset()
            let renumber = (0..<Int.random(in: 0...80, using: &rng)).map { _ in
                Bool.random(using: &rng) ? UInt32.max : UInt32.random(in: 0...200, using: &rng)
            }.sorted()
            try? bytes.withUnsafeBytes { try merger.add($0, renumber: renumber) }
            _ = merger.encoded()
            merger.reset()
            let documents = Int.random(in: 0...100, using: &rng)
            let offset = Bool.random(using: &rng) ? UInt32.random(in: 0...1000, using: &rng) : UInt32.max - 10
            for _ in 0..<2 {
                try? bytes.withUnsafeBytes { try merger.append($0, shiftedBy: offset, documents: documents) }
            }
            if let concatenation = try? merger.concatenation() {
                let merged = try Self.decoded(concatenation)
                #expect(zip(merged, merged.dropFirst()).allSatisfy { $0 <= $1 }, "\(run.context(iteration))")
            }
        }
        print("fuzz posting lists: \(decodedCount) of \(run.iterations) damaged lists still decoded")
    }

    @Test func segmentDocumentTablesDecodeOrThrow() throws {
        let run = FuzzRun("segment document tables")
        var rng = SeededRandom(seed: run.seed)
        var tables: [[Int64]] = [[], [Int64.min, Int64.max], [-1, 0, 1]]
        for _ in 0..<30 {
            var rowid = Int64.random(in: -1_000_000...7_000_000_000_000_000, using: &rng)
            var table: [Int64] = []
            for _ in 0..<Int.random(in: 1...40, using: &rng) {
                table.append(rowid)
                rowid += Int64.random(in: 1...100_000, using: &rng)
            }
            tables.append(table)
        }
        for table in tables {
            #expect(try SegmentDocs.decode(SegmentDocs.encode(table)) == table, "\(run.context(0))")
        }
        let mutator = ByteMutator(corpus: tables.map { Array(SegmentDocs.encode($0)) })
        for iteration in 0..<run.iterations {
            let bytes = mutator.mutate(mutator.corpus.randomElement(using: &rng)!, using: &rng)
            guard let table = try? SegmentDocs.decode(Data(bytes)) else { continue }
            // A table that decodes is the canonical encoding of itself, and lookups stay in it.
            guard Array(SegmentDocs.encode(table)) == bytes else {
                Issue.record("\(run.context(iteration)): \(bytes) decoded to \(table)")
                return
            }
            let probe = table.randomElement(using: &rng) ?? 0
            #expect(SegmentDocs.index(of: probe, in: table).map { table[$0] == probe } ?? table.isEmpty)
        }
    }

    // MARK: Regressions (inputs that trapped before the decoders threw)

    @Test func postingListsThatOverflowOrEndEarlyAreDamage() {
        for bytes: [UInt8] in [
            [0xFF, 0xFF, 0xFF, 0xFF, 0x0F, 0x01],  // UInt32.max, then a gap of 1: traps on +
            [0xFF, 0xFF, 0xFF, 0xFF, 0x1F],  // 33 bits
            [0x80, 0x80, 0x80, 0x80, 0x80, 0x01],  // six bytes
            [0x05, 0x80],  // cut short
        ] {
            #expect(throws: SearchIndexDamage.self, "\(bytes)") { try Self.decoded(bytes) }
        }
        var merger = PostingMerger()
        // Past the segment's documents, or shifted past 2^32: both trapped or broke the order.
        #expect(throws: SearchIndexDamage.self) {
            try Self.encoded([7]).withUnsafeBytes { try merger.append($0, shiftedBy: 0, documents: 3) }
        }
        #expect(throws: SearchIndexDamage.self) {
            try Self.encoded([7]).withUnsafeBytes { try merger.append($0, shiftedBy: UInt32.max - 2, documents: 8) }
        }
        #expect(throws: SearchIndexDamage.self) { try SegmentDocs.decode(Data([1, 2, 3])) }
        #expect(throws: SearchIndexDamage.self) { try SegmentDocs.decode(SegmentDocs.encode([5, 4])) }
    }

    @Test func aDamagedIndexStillFindsEveryNoteAndIsRebuiltByTheNextMerge() throws {
        let t = try TestStore()
        for i in 0..<5 {
            t.advance(1)
            _ = try t.store.create(title: "note \(i)", body: "walrus \(i)")
        }
        // Every list of the first segment names a document 2^32 - 1 (an index into its table:
        // trapped), and the second segment's table is out of order.
        try t.store.pool.write { db in
            let ids = try Int64.fetchAll(db, sql: "SELECT id FROM search_segment ORDER BY id")
            try db.execute(
                sql: "UPDATE search_posting SET docs = ? WHERE rowid >= ? AND rowid < ?",
                arguments: [Data([0xFF, 0xFF, 0xFF, 0xFF, 0x0F]), ids[0] << 25, (ids[0] + 1) << 25])
            try db.execute(
                sql: "UPDATE search_segment SET docs = ? WHERE id = ?",
                arguments: [SegmentDocs.encode([9, 3]), ids[1]])
        }
        #expect(try t.store.search("walrus").hits.count == 5)
        #expect(try t.store.search("note 3").hits.map(\.note.title) == ["note 3"])
        // Three more writes make eight segments of one class: their merge meets the damage
        // and rebuilds the index.
        for i in 5..<8 {
            t.advance(1)
            _ = try t.store.create(title: "note \(i)", body: "walrus \(i)")
        }
        let damaged = try t.store.pool.read { db in
            try Data.fetchAll(db, sql: "SELECT docs FROM search_segment").filter {
                (try? SegmentDocs.decode($0)) == nil
            }
        }
        #expect(damaged.isEmpty)
        #expect(try t.store.search("walrus").hits.count == 8)
        #expect(try t.store.integrityCheck() == "ok")
    }

    @Test func keySetCapacityMustBeAPowerOfTwo() {
        #expect([2, 4, 8, 4096].allSatisfy(KeySet.isValid(capacity:)))
        #expect(![-4, 0, 1, 3, 6, 4095].contains(where: KeySet.isValid(capacity:)))
        var set = KeySet(capacity: 2)
        for key in UInt32(0)..<100 { set.insert(key) }
        #expect(set.count == 100)
    }
}
