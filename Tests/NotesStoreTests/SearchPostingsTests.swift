import Foundation
import NotesTestSupport
import Testing

@testable import NotesStore

/// The building blocks of the search index: keys, key sets and posting lists.
@Suite struct SearchPostingsTests {
    func keys(_ text: String, space: UInt32 = 0) -> Set<UInt32> {
        var set = KeySet(capacity: 8)
        Array(text.utf8).withUnsafeBufferPointer { SearchKeys.collect($0, space: space, into: &set) }
        return Set(set.keys)
    }

    func key(_ a: UInt8, _ b: UInt8, _ c: UInt8) -> UInt32 { UInt32(a) << 16 | UInt32(b) << 8 | UInt32(c) }

    @Test func everyPositionStartsAKeyThroughThePadding() {
        let p = UInt8(0xFF)
        #expect(keys("a") == [key(0x61, p, p)])
        #expect(keys("ab") == [key(0x61, 0x62, p), key(0x62, p, p)])
        #expect(keys("abcd") == [key(0x61, 0x62, 0x63), key(0x62, 0x63, 0x64), key(0x63, 0x64, p), key(0x64, p, p)])
        #expect(keys("").isEmpty)
        #expect(keys("ab", space: SearchKeys.titleSpace).allSatisfy { $0 & SearchKeys.titleSpace != 0 })
    }

    @Test func aTermsKeysAreInTheTextThatContainsIt() {
        for (term, text) in [("東京", "a trip to 東京 soon"), ("ngst", "ångström"), ("👍🏽x", "ok 👍🏽x")] {
            let termKeys = SearchKeys.keys(ofTerm: Array(term.utf8), space: 0)
            #expect(!termKeys.isEmpty)
            #expect(Set(termKeys).isSubset(of: keys(text)), "\(term)")
        }
        #expect(SearchKeys.keys(ofTerm: Array("ab".utf8), space: 0).isEmpty)
        // One and two bytes: the range of keys beginning with them holds every occurrence.
        let range = SearchKeys.prefixRange(ofTerm: Array("b".utf8), space: 0)
        #expect(keys("ab").filter(range.contains).count == 1)
        let twoBytes = SearchKeys.prefixRange(ofTerm: Array("é".utf8), space: 0)
        #expect(keys("café").filter(twoBytes.contains).count == 1)
    }

    @Test func keySetsDeduplicateGrowAndEmpty() {
        var set = KeySet(capacity: 4)
        for round in 0..<3 {
            set.removeAll()
            for value in 0..<1000 { set.insert(UInt32(value * 7 + round) % 997) }
            #expect(set.count == 997)
            #expect(Set(set.keys).count == 997)
        }
        set.removeAll()
        #expect(set.count == 0)
        set.insert(5)
        set.insert(5)
        #expect(Array(set.keys) == [5])
    }

    @Test func postingListsRoundTripAndCombine() throws {
        let lists: [[UInt32]] = [[], [0], [3, 4, 200, 70_000, 4_000_000_000], Array(0..<500).map { $0 * 3 }]
        for list in lists {
            var bytes: [UInt8] = []
            Postings.encode(list, into: &bytes)
            var decoded: [UInt32] = []
            try bytes.withUnsafeBytes { try Postings.decode($0, into: &decoded) }
            #expect(decoded == list)
        }
        #expect(Postings.intersect([1, 3, 5, 7], [3, 4, 5, 8]) == [3, 5])
        #expect(Postings.union([1, 3, 5], [2, 3, 9]) == [1, 2, 3, 5, 9])
        #expect(Postings.union([], [4]) == [4])
    }

    @Test func pairsSortByKeyKeepingDocumentOrder() {
        var rng = SystemRandomNumberGenerator()
        var pairs: [UInt64] = []
        for document in 0..<2000 {
            for _ in 0..<5 {
                pairs.append(UInt64(UInt32.random(in: 0..<SearchKeys.limit, using: &rng)) << 32 | UInt64(document))
            }
        }
        let expected = pairs.enumerated().sorted { ($0.element >> 32, $0.offset) < ($1.element >> 32, $1.offset) }.map(
            \.element)
        Postings.sortByKey(&pairs)
        #expect(pairs == expected)
    }

    @Test func mergedListsStaySortedWhetherSegmentsFollowOrInterleave() throws {
        var merger = PostingMerger()
        func blob(_ list: [UInt32]) -> [UInt8] {
            var bytes: [UInt8] = []
            Postings.encode(list, into: &bytes)
            return bytes
        }
        // Segment 0's documents 0, 1, 2 become 0, 2, 4; segment 1's 0, 1 become 1, 5 (2 dropped).
        for (list, renumber) in [([0, 1, 2] as [UInt32], [0, 2, 4] as [UInt32]), ([0, 1, 2], [1, 5, .max])] {
            try blob(list).withUnsafeBytes { try merger.add($0, renumber: renumber) }
        }
        var decoded: [UInt32] = []
        try merger.encoded()!.withUnsafeBytes { try Postings.decode($0, into: &decoded) }
        #expect(decoded == [0, 1, 2, 4, 5])
        merger.reset()
        try blob([0]).withUnsafeBytes { try merger.add($0, renumber: [.max]) }
        #expect(merger.encoded() == nil)
        // Segments one after another: shifted and copied.
        merger.reset()
        try blob([0, 2, 300]).withUnsafeBytes { try merger.append($0, shiftedBy: 0, documents: 400) }
        try blob([1, 5]).withUnsafeBytes { try merger.append($0, shiftedBy: 400, documents: 6) }
        try blob([0]).withUnsafeBytes { try merger.append($0, shiftedBy: 100_000, documents: 1) }
        decoded = []
        try #require(try merger.concatenation()).withUnsafeBytes { try Postings.decode($0, into: &decoded) }
        #expect(decoded == [0, 2, 300, 401, 405, 100_000])
        // Dense segments, stored as bitmaps, copied one after another: the result is a bitmap.
        merger.reset()
        let first = Array(UInt32(0)..<100)
        let second = Array(UInt32(0)..<50).map { $0 * 2 }
        #expect(blob(first).starts(with: Postings.bitmapMarker) && blob(second).starts(with: Postings.bitmapMarker))
        try blob(first).withUnsafeBytes { try merger.append($0, shiftedBy: 0, documents: 100) }
        try blob(second).withUnsafeBytes { try merger.append($0, shiftedBy: 100, documents: 100) }
        let both = try #require(try merger.concatenation())
        #expect(both.starts(with: Postings.bitmapMarker))
        decoded = []
        try both.withUnsafeBytes { try Postings.decode($0, into: &decoded) }
        #expect(decoded == first + second.map { $0 + 100 })
    }

    /// Random lists of every density round-trip, each stored in the shorter of its two forms:
    /// varint gaps, or a bitmap (the marker, then a byte per eight documents up to the last)
    /// when that is strictly shorter (D-230).
    @Test func aListIsStoredInItsShorterForm() throws {
        let seed = SeededRandom.seed(default: 230)
        var rng = SeededRandom(seed: seed)
        for _ in 0..<2_000 {
            let span = UInt32(rng.below(5_000) + 1)
            let keepOneIn = rng.below(40) + 1
            let start = UInt32(rng.below(3) == 0 ? rng.below(100_000) : 0)
            let list = (start..<start + span).filter { _ in rng.below(keepOneIn) == 0 }
            var bytes: [UInt8] = []
            Postings.encode(list, into: &bytes)
            var gaps: [UInt8] = []
            Postings.encodeGaps(list, into: &gaps)
            let bitmap = list.last.map { 2 + Int($0 / 8) + 1 } ?? 0
            #expect(bytes.count == (gaps.count > bitmap ? bitmap : gaps.count), "seed \(seed)")
            #expect(bytes.starts(with: Postings.bitmapMarker) == (gaps.count > bitmap), "seed \(seed)")
            var decoded: [UInt32] = []
            try bytes.withUnsafeBytes { try Postings.decode($0, into: &decoded) }
            #expect(decoded == list, "seed \(seed)")
        }
    }

    /// Segments that follow one another, each list stored in its own shorter form (gaps or a
    /// bitmap) and copied into one merged list (the merger ORs bitmaps once the whole is dense):
    /// the merged list is byte for byte what `Postings.encode` makes of all their documents.
    @Test func aCopiedMergeStoresWhatEncodingEveryDocumentStores() throws {
        let seed = SeededRandom.seed(default: 231)
        var rng = SeededRandom(seed: seed)
        var merger = PostingMerger()
        var dense = 0
        for round in 0..<600 {
            merger.reset()
            var offset: UInt32 = 0
            var all: [UInt32] = []
            for _ in 0..<rng.below(6) + 1 {
                let documents = rng.below([8, 64, 600][rng.below(3)]) + 1
                let keepOneIn = [1, 2, 3, 8, 9, 40][rng.below(6)]
                let list = (0..<UInt32(documents)).filter { _ in rng.below(keepOneIn) == 0 }
                if !list.isEmpty {
                    var bytes: [UInt8] = []
                    Postings.encode(list, into: &bytes)
                    try bytes.withUnsafeBytes { try merger.append($0, shiftedBy: offset, documents: documents) }
                    all += list.map { $0 + offset }
                }
                offset += UInt32(documents) + UInt32(rng.below(3) == 0 ? rng.below(50) : 0)
            }
            var expected: [UInt8] = []
            Postings.encode(all, into: &expected)
            let merged = try merger.concatenation()
            #expect(merged == (all.isEmpty ? nil : expected), "seed \(seed), round \(round): \(all)")
            if expected.starts(with: Postings.bitmapMarker) { dense += 1 }
        }
        // Both forms of the result came up often.
        #expect(dense > 100 && dense < 500, "seed \(seed): \(dense) of 600 merged lists were bitmaps")
    }
}
