/// The keys of the search index (`SearchIndex`): byte trigrams of folded text.
///
/// A key is three consecutive bytes of folded UTF-8 text (24 bits), plus `titleSpace` for the
/// keys of titles. Every field is read as if followed by two 0xFF bytes (which UTF-8 never
/// contains), so every position of the text starts a key: a term of one or two bytes is found
/// through the keys that begin with it, a term of three or more bytes through all of its own.
enum SearchKeys {
    /// Keys of titles (tier 0) live above the 24 bits of a trigram.
    static let titleSpace: UInt32 = 1 << 24
    /// Exclusive upper bound of every key.
    static let limit: UInt32 = 1 << 25
    /// The byte that pads every field (never part of UTF-8).
    static let pad: UInt32 = 0xFF

    /// Adds the keys of `bytes` (padded) in `space` to `set`.
    static func collect(_ bytes: UnsafeBufferPointer<UInt8>, space: UInt32, into set: inout KeySet) {
        let n = bytes.count
        guard n > 0 else { return }
        var key = UInt32(bytes[0]) << 8 | (n > 1 ? UInt32(bytes[1]) : pad)
        var i = 2
        while i < n {
            key = (key << 8 | UInt32(bytes[i])) & 0xFF_FFFF
            set.insert(key | space)
            i += 1
        }
        // The last two windows run into the padding (for n == 1, only the window of the pad).
        for _ in 0..<min(2, n) {
            key = (key << 8 | pad) & 0xFF_FFFF
            set.insert(key | space)
        }
    }

    /// The distinct keys of a term of three or more bytes (empty for a shorter one).
    static func keys(ofTerm term: [UInt8], space: UInt32) -> [UInt32] {
        guard term.count >= 3 else { return [] }
        var seen = Set<UInt32>()
        var result: [UInt32] = []
        for i in 0...(term.count - 3) {
            let key = (UInt32(term[i]) << 16 | UInt32(term[i + 1]) << 8 | UInt32(term[i + 2])) | space
            if seen.insert(key).inserted { result.append(key) }
        }
        return result
    }

    /// The range of keys that begin with a term of one or two bytes.
    static func prefixRange(ofTerm term: [UInt8], space: UInt32) -> Range<UInt32> {
        precondition((1...2).contains(term.count))
        if term.count == 1 {
            let low = UInt32(term[0]) << 16 | space
            return low..<(low + (1 << 16))
        }
        let low = UInt32(term[0]) << 16 | UInt32(term[1]) << 8 | space
        return low..<(low + (1 << 8))
    }
}
