/// Where a run of bytes first occurs in others: the search of the highlighter's folded text and
/// of a head revision's fields (`HeadBody`), over arrays or buffers alike.
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
}
