extension TextWidth {
    /// Whether a scalar is East Asian Wide (W) or Fullwidth (F) in Unicode's
    /// EastAsianWidth.txt (UAX #11), leaving out the emoji, which `isEmojiPresentation` covers.
    ///
    /// The stdlib does not expose East_Asian_Width, so the blocks are listed here (Unicode 15.1),
    /// merged where neighbouring ranges are all wide.
    static func isEastAsianWide(_ v: UInt32) -> Bool {
        if v < 0x1100 { return false }
        var low = 0
        var high = wideRanges.count - 1
        while low <= high {
            let mid = (low + high) / 2
            let range = wideRanges[mid]
            if v < range.lowerBound {
                high = mid - 1
            } else if v > range.upperBound {
                low = mid + 1
            } else {
                return true
            }
        }
        return false
    }

    /// Sorted, non-overlapping ranges of W and F code points.
    private static let wideRanges: [ClosedRange<UInt32>] = [
        0x1100...0x115F,  // Hangul Jamo initial consonants
        0x2329...0x232A,  // angle brackets
        0x2E80...0x2E99, 0x2E9B...0x2EF3,  // CJK radicals supplement
        0x2F00...0x2FD5,  // Kangxi radicals
        0x2FF0...0x2FFF,  // ideographic description characters
        0x3000...0x303E,  // ideographic space, CJK symbols and punctuation
        0x3041...0x3096, 0x3099...0x30FF,  // Hiragana, Katakana
        0x3105...0x312F,  // Bopomofo
        0x3131...0x318E,  // Hangul compatibility jamo
        0x3190...0x31E3,  // Kanbun, Bopomofo extended, CJK strokes
        0x31EF...0x321E,  // Katakana phonetic extensions, enclosed CJK
        0x3220...0x3247,
        0x3250...0x4DBF,  // enclosed CJK, CJK compatibility, CJK extension A
        0x4E00...0xA48C,  // CJK unified ideographs, Yi syllables
        0xA490...0xA4C6,  // Yi radicals
        0xA960...0xA97C,  // Hangul Jamo extended-A
        0xAC00...0xD7A3,  // Hangul syllables
        0xF900...0xFAFF,  // CJK compatibility ideographs
        0xFE10...0xFE19,  // vertical forms
        0xFE30...0xFE52, 0xFE54...0xFE66, 0xFE68...0xFE6B,  // CJK compatibility and small forms
        0xFF01...0xFF60,  // fullwidth ASCII variants
        0xFFE0...0xFFE6,  // fullwidth signs
        0x16FE0...0x16FE4, 0x16FF0...0x16FF1,  // ideographic symbols
        0x17000...0x187F7, 0x18800...0x18CD5, 0x18D00...0x18D08,  // Tangut, Khitan
        0x1AFF0...0x1AFF3, 0x1AFF5...0x1AFFB, 0x1AFFD...0x1AFFE,  // Kana extended-B
        0x1B000...0x1B122, 0x1B132...0x1B132, 0x1B150...0x1B152, 0x1B155...0x1B155,  // Kana
        0x1B164...0x1B167, 0x1B170...0x1B2FB,  // Nushu
        0x1F200...0x1F202, 0x1F210...0x1F23B, 0x1F240...0x1F248, 0x1F250...0x1F251,  // enclosed ideographs
        0x1F260...0x1F265,
        0x20000...0x2FFFD,  // CJK extensions B–F, compatibility supplement
        0x30000...0x3FFFD,  // CJK extensions G, H
    ]
}
