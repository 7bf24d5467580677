/// The display width of text in terminal columns, computed per grapheme cluster.
///
/// The rules, in order, for one grapheme cluster (a Swift `Character`):
/// 1. An `Emoji` base followed by VS16 (U+FE0F, as in ❤️), a keycap mark (U+20E3, as in
///    1⃣ even without VS16) or a ZWJ (U+200D, as in ⛹‍♂ even without VS16) is an emoji: 2.
///    VS15 (U+FE0E) asks for text presentation: the base's own width (☺︎ is 1).
/// 2. Otherwise the widest scalar of the cluster counts. That covers the other emoji
///    sequences, whose parts have `Emoji_Presentation` themselves (👩‍💻, flags 🇩🇪 and 🏴 with
///    tags, skin tones as in ☝🏽), a base plus combining marks (the base's width) and a Hangul
///    syllable made of conjoining jamo (the leading jamo's 2).
///    A cluster that starts with a control character is 0.
///
/// And for one scalar:
/// - 0: C0 and C1 controls and DEL (they draw nothing; `TerminalSafeText` turns them into visible
///   pictures before they reach a buffer), nonspacing and enclosing marks (Mn, Me), format
///   characters (Cf: ZWJ, ZWSP, bidi controls, soft hyphen), line and paragraph separators,
///   and the Hangul medial vowels and final consonants (U+1160–11FF, U+D7B0–D7FF).
/// - 2: `Emoji_Presentation` scalars and the East Asian Wide and Fullwidth ranges
///   (`TextWidth+EastAsianWide.swift`: CJK, kana, Hangul syllables, fullwidth forms).
/// - 1: everything else, including ambiguous-width characters (as in a non-CJK locale).
///
/// These match what current terminals (xterm, VTE, kitty, tmux) do for the common cases;
/// text whose width terminals disagree on is rare in notes and is at worst off by one column
/// inside its own row, since every row is clipped by us.
public enum TextWidth {
    /// Columns taken by one scalar drawn alone.
    public static func width(of scalar: Unicode.Scalar) -> Int {
        let v = scalar.value
        if v < 0x20 || (0x7F...0x9F).contains(v) { return 0 }
        if v < 0x7F { return 1 }
        if (0x1160...0x11FF).contains(v) || (0xD7B0...0xD7FF).contains(v) { return 0 }
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .format, .lineSeparator, .paragraphSeparator:
            return 0
        default:
            break
        }
        if scalar.properties.isEmojiPresentation { return 2 }
        return isEastAsianWide(v) ? 2 : 1
    }

    /// Columns taken by one grapheme cluster: 0, 1 or 2.
    public static func width(of character: Character) -> Int {
        let scalars = character.unicodeScalars
        guard let first = scalars.first else { return 0 }  // a Character always has a scalar
        if first.value < 0x80 && scalars.count == 1 {
            return first.value < 0x20 || first.value == 0x7F ? 0 : 1
        }
        let firstWidth = width(of: first)
        if firstWidth == 0 && isControl(first) { return 0 }
        if first.properties.isEmoji {
            for scalar in scalars.dropFirst() {
                switch scalar.value {
                case 0xFE0E: return isEastAsianWide(first.value) ? 2 : 1
                case 0xFE0F, 0x20E3, 0x200D: return 2
                default: continue
                }
            }
        }
        var widest = firstWidth
        for scalar in scalars.dropFirst() where widest < 2 {
            widest = max(widest, width(of: scalar))
        }
        return widest
    }

    /// Columns taken by a string: the sum over its grapheme clusters.
    ///
    /// Inlinable, as `widthByCharacter` and `clip` are, so that a caller in another module gets
    /// it specialized for its string type: unspecialized, each byte was a protocol witness
    /// call (two thirds of the layout of a search's result rows).
    @inlinable
    public static func width(of text: some StringProtocol) -> Int {
        // ASCII: a column per printable byte, none per control (CR LF, one cluster, is 0 too),
        // counted over the bytes instead of a grapheme walk.
        var printable = 0
        for byte in text.utf8 {
            guard byte < 0x80 else { return widthByCharacter(of: text) }
            if byte >= 0x20 && byte != 0x7F { printable += 1 }
        }
        return printable
    }

    /// `width(of:)` of any text, a grapheme cluster at a time.
    @inlinable
    static func widthByCharacter(of text: some StringProtocol) -> Int {
        var total = 0
        for character in text { total += width(of: character) }
        return total
    }

    private static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
    }
}
