import Foundation
import Synchronization

/// Case and diacritic folding, the normal form search compares in (ARCHITECTURE §5).
///
/// The fold works scalar by scalar: lowercase (full mapping, `ß` → `ss`, `ς` → `σ`, `ſ` → `s`,
/// ligatures such as `ﬁ` → `fi`), then
/// canonical decomposition with diacritics and variation selectors (U+FE0F) dropped: a
/// nonspacing mark goes only if it has Unicode's Diacritic property (accents, the dakuten,
/// Thai tone marks, the virama), so the vowel signs of Indic scripts and Thai stay (`isDropped`). Being
/// context-free, `fold(a + b) == fold(a) + fold(b)`, so a match in folded text maps back to
/// the original characters for highlighting, and the index and a brute-force scan agree.
/// Hangul syllables stay decomposed into jamo, so a syllable being typed already matches.
public enum TextFolding {
    /// The folded form of `text`.
    public static func fold(_ text: String) -> String {
        String(decoding: foldedUTF8(text), as: UTF8.self)
    }

    /// The UTF-8 bytes of `fold(text)`. ASCII is folded byte by byte; other scalars go through
    /// `foldScalar` once per process (memoized: Foundation's decomposition is slow).
    public static func foldedUTF8(_ text: String) -> [UInt8] {
        text.utf8.withContiguousStorageIfAvailable(foldedUTF8(bytes:)).flatMap { $0 }
            ?? foldedUTF8(scalars: text.unicodeScalars, capacity: text.utf8.count)
    }

    /// The UTF-8 bytes of the fold of part of a string (a line of a note's body).
    public static func foldedUTF8(_ text: Substring) -> [UInt8] {
        text.utf8.withContiguousStorageIfAvailable(foldedUTF8(bytes:)).flatMap { $0 }
            ?? foldedUTF8(scalars: text.unicodeScalars, capacity: text.utf8.count)
    }

    /// The fold of a string's own UTF-8 bytes, read in place (`Folder`; the walk of
    /// `unicodeScalars` was about half a fold's time). Nil for bytes that are not whole UTF-8
    /// sequences, which a String's bytes always are: the caller then folds its scalars instead.
    private static func foldedUTF8(bytes: UnsafeBufferPointer<UInt8>) -> [UInt8]? {
        var folder = Folder(tableAfter: .max)
        guard folder.fold(bytes) else { return nil }
        return folder.takeBytes()
    }

    /// The fold scalar by scalar: what `foldedUTF8` gives, by the scalars' own walk.
    static func foldedUTF8(scalars: some Sequence<Unicode.Scalar>, capacity: Int) -> [UInt8] {
        var bytes = [UInt8]()
        bytes.reserveCapacity(capacity)
        var local: [Unicode.Scalar: [UInt8]] = [:]
        for scalar in scalars {
            let v = scalar.value
            if v < 0x80 {
                let b = UInt8(v)
                bytes.append(b >= 0x41 && b <= 0x5A ? b | 0x20 : b)
            } else if let cached = local[scalar] {
                bytes.append(contentsOf: cached)
            } else {
                let encoded = foldCache.utf8(of: scalar)
                local[scalar] = encoded
                bytes.append(contentsOf: encoded)
            }
        }
        return bytes
    }

    static let foldCache = FoldCache()

    /// The process-wide memo of `foldScalar`, bounded in size.
    final class FoldCache: Sendable {
        private let table = Mutex<[Unicode.Scalar: [Unicode.Scalar]]>([:])

        func scalars(of scalar: Unicode.Scalar) -> [Unicode.Scalar] {
            if let hit = table.withLock({ $0[scalar] }) { return hit }
            let folded = TextFolding.foldScalar(scalar)
            table.withLock { table in
                if table.count < 50_000 { table[scalar] = folded }
            }
            return folded
        }

        func utf8(of scalar: Unicode.Scalar) -> [UInt8] {
            var encoded: [UInt8] = []
            for folded in scalars(of: scalar) { encoded.append(contentsOf: String(folded).utf8) }
            return encoded
        }
    }

    static func foldScalar(_ scalar: Unicode.Scalar) -> [Unicode.Scalar] {
        // Typographic ligatures (ﬁ ﬂ ﬀ ﬃ ﬄ ﬅ ﬆ, Armenian ﬓ-ﬗ), common in text pasted from a PDF,
        // fold to their letters, as case folding does: "finance" finds "ﬁnance".
        if (0xFB00...0xFB06).contains(scalar.value) || (0xFB13...0xFB17).contains(scalar.value) {
            return String(scalar).decomposedStringWithCompatibilityMapping.unicodeScalars.flatMap(foldScalar)
        }
        var result: [Unicode.Scalar] = []
        for lower in scalar.properties.lowercaseMapping.unicodeScalars {
            switch lower {
            case "ß":
                result += ["s", "s"]
                continue
            case "ς":
                result.append("σ")
                continue
            case "ſ":
                result.append("s")
                continue
            default: break
            }
            let decomposed = String(lower).decomposedStringWithCanonicalMapping
            for part in decomposed.unicodeScalars where !isDropped(part) {
                result.append(part)
            }
        }
        return result
    }

    /// Whether the fold drops `scalar` after decomposition: a nonspacing mark with the Diacritic
    /// property (é's acute, ü's diaeresis, the dakuten of ガ, the Devanagari nukta and virama,
    /// Thai tone marks), or a variation selector. Vowel signs (Devanagari ि े, Thai ี) are not
    /// diacritics: `देखें` must not fold to `दख`. (Until schema v7 every nonspacing mark was
    /// dropped; `v7-fold-diacritics-only` refolds stores.) Spacing and enclosing marks stay.
    static func isDropped(_ scalar: Unicode.Scalar) -> Bool {
        let properties = scalar.properties
        if properties.isVariationSelector { return true }
        return properties.generalCategory == .nonspacingMark && properties.isDiacritic
    }
}
