import NotesCore
import NotesTestSupport
import Testing

/// `ByteSearch.firstIndex` over bytes in memory (`memchr`, `memcmp`) finds what the loop over a
/// collection finds, over random bytes of a small alphabet (so needles occur, overlap and
/// repeat), every start, and empty needles and haystacks.
@Suite struct ByteSearchTests {
    @Test func theSearchInMemoryFindsWhatTheLoopFinds() {
        let seed = SeededRandom.seed(default: 20_261_201)
        var random = SeededRandom(seed: seed)
        for _ in 0..<3_000 {
            let haystack = (0..<random.below(40)).map { _ in UInt8(0x61 + random.below(3)) }
            let needle = (0..<random.below(4)).map { _ in UInt8(0x61 + random.below(3)) }
            let from = random.below(haystack.count + 2)
            let inMemory = haystack.withUnsafeBufferPointer { ByteSearch.firstIndex(of: needle, in: $0, from: from) }
            let looped = ByteSearch.firstIndex(of: needle, in: haystack[...], from: from)
            #expect(inMemory == looped, "\(haystack) \(needle) from \(from) (CLOUDNOTES_SEED=\(seed))")
        }
    }
}
