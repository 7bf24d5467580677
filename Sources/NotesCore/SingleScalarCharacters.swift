/// Scalars that are each a Character of their own in any text made only of such scalars: ASCII
/// but CR, and ranges of Latin, Greek, Cyrillic, punctuation, symbols, CJK, kana, Hangul
/// syllables, fullwidth forms and emoji that hold no combining mark, joiner, variation selector,
/// regional indicator, skin tone or conjoining jamo. In Unicode's rules for grapheme clusters
/// (UAX #29) their scalars are Other, Control, LV, LVT or Extended_Pictographic, and no rule
/// joins two of those; `SingleScalarCharactersTests` holds every one of them to Swift's own
/// breaking. A line of them is counted in Characters by its scalars, where a walk of its
/// Characters looked up the breaking properties of each (a fifth of the thread that writes the
/// rows of a search that prints every match).
public enum SingleScalarCharacters {
    /// The ranges beyond ASCII, ascending (`SingleScalarCharactersTests` checks each scalar).
    static let ranges: [ClosedRange<UInt32>] = [
        0x00A0...0x02FF,  // Latin-1 Supplement, Latin Extended-A and -B, IPA, modifier letters
        0x0370...0x0482,  // Greek, Cyrillic (before its combining marks)
        0x048A...0x052F,  // Cyrillic
        0x2010...0x2027,  // dashes, quotation marks, bullets, ellipsis
        0x2030...0x205E,  // per mille, primes, more punctuation
        0x20A0...0x20C0,  // currency signs
        0x2100...0x218B,  // letterlike symbols, number forms
        0x2190...0x23FF,  // arrows, mathematical operators, technical symbols
        0x2460...0x27BF,  // enclosed alphanumerics, box drawing, shapes, symbols, dingbats
        0x2900...0x2BFF,  // arrows and mathematical symbols
        0x3000...0x3029,  // CJK symbols and punctuation (before the tone marks)
        0x3030...0x303F,
        0x3041...0x3096,  // hiragana (before the combining sound marks)
        0x309B...0x30FF,  // katakana
        0x4E00...0x9FFF,  // CJK unified ideographs
        0xAC00...0xD7A3,  // Hangul syllables
        0xFF01...0xFF9D,  // fullwidth and halfwidth forms (before the halfwidth sound marks)
        0x1F300...0x1F3FA,  // emoji (before the skin tones)
        0x1F400...0x1F64F,
        0x1F680...0x1F6FF,
        0x1F900...0x1F9FF,
    ]

    /// Whether `value` is one of the scalars.
    @inlinable
    public static func contains(_ value: UInt32) -> Bool {
        if value < 0x80 { return value != 0x0D }
        return containsBeyondASCII(value)
    }

    @usableFromInline
    static func containsBeyondASCII(_ value: UInt32) -> Bool {
        // Binary search: 21 ranges.
        var low = 0
        var high = ranges.count
        while low < high {
            let middle = (low + high) / 2
            let range = ranges[middle]
            if value < range.lowerBound {
                high = middle
            } else if value > range.upperBound {
                low = middle + 1
            } else {
                return true
            }
        }
        return false
    }

    /// The offset in `bytes` where each Character starts, when `bytes` are UTF-8 of the scalars
    /// only (each scalar is then a Character); nil otherwise.
    public static func characterStarts(_ bytes: UnsafeBufferPointer<UInt8>) -> [Int]? {
        var starts: [Int] = []
        starts.reserveCapacity(bytes.count)
        return walk(bytes) { starts.append($0) } ? starts : nil
    }

    /// Whether `bytes` are UTF-8 of the scalars only.
    public static func holds(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        walk(bytes) { _ in }
    }

    /// Hands over where each scalar of `bytes` starts, while they are UTF-8 of the scalars;
    /// false at the first byte that is not.
    @inline(__always)
    private static func walk(_ bytes: UnsafeBufferPointer<UInt8>, _ start: (Int) -> Void) -> Bool {
        guard let base = bytes.baseAddress else { return true }
        var index = 0
        while index < bytes.count {
            let lead = base[index]
            if lead < 0x80 {
                guard lead != 0x0D else { return false }
                start(index)
                index += 1
                continue
            }
            let length = UTF8Sequence.length(lead: lead)
            guard length > 0, index + length <= bytes.count,
                let value = UTF8Sequence.value(base, at: index, length: length)
            else { return false }
            // Overlong forms (0xC0 and 0xC1 lead only these) and surrogates are not UTF-8 (none
            // is in the ranges but these).
            guard containsBeyondASCII(value), value >= (length == 3 ? 0x800 : length == 4 ? 0x10000 : 0x80) else {
                return false
            }
            start(index)
            index += length
        }
        return true
    }
}
