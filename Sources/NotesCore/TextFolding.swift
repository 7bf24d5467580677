import Foundation

/// Case and diacritic folding, the normal form search compares in (DESIGN §5).
///
/// The fold works scalar by scalar: lowercase (full mapping, `ß` → `ss`, `ς` → `σ`), then
/// canonical decomposition with nonspacing marks (accents, U+FE0F) dropped. Being
/// context-free, `fold(a + b) == fold(a) + fold(b)`, so a match in folded text maps back to
/// the original characters for highlighting, and the index and a brute-force scan agree.
/// Hangul syllables stay decomposed into jamo, so a syllable being typed already matches.
public enum TextFolding {
    /// The folded form of `text`.
    public static func fold(_ text: String) -> String {
        var bytes = [UInt8]()
        bytes.reserveCapacity(text.utf8.count)
        var isASCII = true
        for b in text.utf8 {
            if b >= 0x80 {
                isASCII = false
                break
            }
            bytes.append(b >= 0x41 && b <= 0x5A ? b | 0x20 : b)
        }
        if isASCII { return String(decoding: bytes, as: UTF8.self) }
        var out = String.UnicodeScalarView()
        var cache: [Unicode.Scalar: [Unicode.Scalar]] = [:]
        for scalar in text.unicodeScalars {
            appendFold(of: scalar, to: &out, cache: &cache)
        }
        return String(out)
    }

    /// Folds each Character of `text`; element i holds the folded scalars of character i.
    public static func foldedCharacters(_ text: String) -> [[Unicode.Scalar]] {
        var cache: [Unicode.Scalar: [Unicode.Scalar]] = [:]
        return text.map { ch in
            var out = String.UnicodeScalarView()
            for scalar in ch.unicodeScalars { appendFold(of: scalar, to: &out, cache: &cache) }
            return Array(out)
        }
    }

    @inline(__always)
    private static func appendFold(
        of scalar: Unicode.Scalar, to out: inout String.UnicodeScalarView,
        cache: inout [Unicode.Scalar: [Unicode.Scalar]]
    ) {
        let v = scalar.value
        if v < 0x80 {
            out.append(v >= 0x41 && v <= 0x5A ? Unicode.Scalar(v | 0x20)! : scalar)
            return
        }
        if let cached = cache[scalar] {
            out.append(contentsOf: cached)
            return
        }
        let folded = foldScalar(scalar)
        cache[scalar] = folded
        out.append(contentsOf: folded)
    }

    private static func foldScalar(_ scalar: Unicode.Scalar) -> [Unicode.Scalar] {
        var result: [Unicode.Scalar] = []
        for lower in scalar.properties.lowercaseMapping.unicodeScalars {
            switch lower {
            case "ß":
                result += ["s", "s"]
                continue
            case "ς":
                result.append("σ")
                continue
            default: break
            }
            let decomposed = String(lower).decomposedStringWithCanonicalMapping
            for part in decomposed.unicodeScalars where part.properties.generalCategory != .nonspacingMark {
                result.append(part)
            }
        }
        return result
    }
}
