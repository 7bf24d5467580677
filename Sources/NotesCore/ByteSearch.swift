import Foundation

/// Where a run of bytes first occurs in others: the search of the highlighter's folded text, of
/// a head revision's fields (`HeadBody`) and of the text a search checks (`SearchPlan`), over
/// arrays or buffers alike.
public enum ByteSearch {
    /// The first index of `needle` in `haystack` at or after `from`; nil when it does not occur
    /// (or is empty).
    @inlinable public static func firstIndex<Haystack: RandomAccessCollection<UInt8>>(
        of needle: [UInt8], in haystack: Haystack, from: Int = 0
    ) -> Int? where Haystack.Index == Int {
        guard let first = needle.first, needle.count <= haystack.count else { return nil }
        var i = haystack.startIndex + from
        let last = haystack.endIndex - needle.count
        while i <= last {
            if haystack[i] == first, haystack[i..<(i + needle.count)].elementsEqual(needle) { return i }
            i += 1
        }
        return nil
    }

    /// `firstIndex(of:in:from:)` over bytes in memory: `memchr` to each place the needle's first
    /// byte occurs, `memcmp` there (a search that checks every match folds and looks through
    /// each note's text; the loop over a collection was a tenth of the highlighter's time).
    public static func firstIndex(of needle: [UInt8], in haystack: UnsafeBufferPointer<UInt8>, from: Int = 0) -> Int? {
        needle.withUnsafeBufferPointer { needle in
            guard let first = needle.first, let start = haystack.baseAddress, let needleStart = needle.baseAddress,
                haystack.count >= needle.count
            else { return nil }
            let lastStart = haystack.count - needle.count
            var i = from
            while i <= lastStart {
                guard let hit = memchr(start + i, Int32(first), lastStart - i + 1) else { return nil }
                let position = start.distance(to: hit.assumingMemoryBound(to: UInt8.self))
                if memcmp(start + position, needleStart, needle.count) == 0 { return position }
                i = position + 1
            }
            return nil
        }
    }
}
