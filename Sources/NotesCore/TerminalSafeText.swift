/// The one function through which note text reaches a terminal (ARCHITECTURE §7).
///
/// Note text is untrusted: it arrives from other devices. Storage stays byte-identical; only
/// what is displayed changes. ESC and the other C0 controls, DEL and a lone CR become visible
/// control pictures (`␛`, `␍`), C1 controls become `<U+009B>`, bidi controls and invisible
/// format characters become `<U+202E>` markers (in a body they are dropped instead), a TAB
/// becomes spaces and combining marks are capped per character, so no note can move the
/// cursor, recolour, retitle or reorder the screen.
public enum TerminalSafeText {
    public enum Mode: Sendable {
        /// One line (titles, list rows, error messages): a line break is shown as `⏎`.
        case line
        /// Multi-line text (a note body): LF stays a line break, invisible characters are dropped.
        case block
    }

    /// Combining marks kept per character; more than this is "Zalgo" text that paints over rows.
    public static let maxCombiningMarks = 4
    public static let tabWidth = 4

    public static func sanitize(_ text: String, mode: Mode = .line) -> String {
        // Most rows and lines are printable ASCII: nothing in them is changed (one pass over the
        // bytes, not a grapheme walk with a property look-up per scalar).
        if text.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) { return text }
        // Most other text has nothing to change either (accents, CJK, emoji): one pass over its
        // scalars says so, without the grapheme walk and a new string (a search printing every
        // match spent a sixth of its time walking its rows and snippets).
        if isUnchanged(text) { return text }
        return sanitizedByCharacter(text, mode: mode)
    }

    /// Whether `sanitizedByCharacter` gives `text` back as it is, in either mode: no control,
    /// no invisible format character (the tag characters of a subdivision flag included), and
    /// no run of more than `maxCombiningMarks` marks. False sends a text the long way, so where
    /// in doubt it is false: a run of marks counts from its first, where the walk lets a
    /// character's first scalar go uncounted.
    static func isUnchanged(_ text: String) -> Bool {
        var marks = 0
        for scalar in text.unicodeScalars {
            let v = scalar.value
            if v < 0x20 || (0x7F...0x9F).contains(v) || v == 0xAD { return false }
            // No mark or format character comes before the combining diacritics (but the soft
            // hyphen).
            // Nor is any other scalar that is a Character of its own a mark or a format
            // character (`SingleScalarCharactersTests`): its category is not looked up.
            if v < 0x300 || SingleScalarCharacters.containsBeyondASCII(v) {
                marks = 0
                continue
            }
            let category = scalar.properties.generalCategory
            if category == .nonspacingMark || category == .enclosingMark {
                marks += 1
                if marks > maxCombiningMarks { return false }
                continue
            }
            if isInvisibleFormat(scalar, category: category) { return false }
            marks = 0
        }
        return true
    }

    /// `sanitize` of any text, a grapheme cluster at a time.
    static func sanitizedByCharacter(_ text: String, mode: Mode) -> String {
        var out = String.UnicodeScalarView()
        var column = 0
        for character in text {
            if character == "\r\n" || character == "\n" {
                if mode == .block {
                    out.append("\n")
                    column = 0
                } else {
                    out.append("⏎")
                    column += 1
                }
                continue
            }
            var marks = 0
            let isFlag = character.unicodeScalars.first == "\u{1F3F4}"
            for (i, scalar) in character.unicodeScalars.enumerated() {
                // Tag characters (format, so invisible) spell subdivision flags: 🏴 + "gbsct" + end.
                // Only after 🏴: elsewhere they would be invisible text.
                if i > 0, isFlag, (0xE0020...0xE007F).contains(scalar.value) {
                    out.append(scalar)
                    continue
                }
                if i > 0,
                    scalar.properties.generalCategory == .nonspacingMark
                        || scalar.properties.generalCategory == .enclosingMark
                {
                    marks += 1
                    if marks > maxCombiningMarks { continue }
                }
                column += append(scalar, to: &out, mode: mode, column: column)
            }
        }
        return String(out)
    }

    /// Appends the displayable form of one scalar; returns how many columns it advanced
    /// (approximately: only TAB expansion needs it).
    private static func append(
        _ scalar: Unicode.Scalar, to out: inout String.UnicodeScalarView, mode: Mode, column: Int
    ) -> Int {
        let v = scalar.value
        switch v {
        case 0x09:
            let spaces = mode == .line ? 1 : tabWidth - column % tabWidth
            out.append(contentsOf: repeatElement(" ", count: spaces))
            return spaces
        case 0x0A:
            out.append("⏎")
            return 1
        case 0x00..<0x20:
            // U+2400 + v: the Control Pictures block (never a surrogate).
            out.append(Unicode.Scalar(UInt16(0x2400 + v)) ?? "\u{FFFD}")
            return 1
        case 0x7F:
            out.append("␡")
            return 1
        case 0x80...0x9F:
            return appendMarker(v, to: &out)
        default:
            break
        }
        if isInvisibleFormat(scalar) {
            return mode == .block ? 0 : appendMarker(v, to: &out)
        }
        out.append(scalar)
        return 1
    }

    private static func appendMarker(_ v: UInt32, to out: inout String.UnicodeScalarView) -> Int {
        let hex = String(v, radix: 16, uppercase: true)
        let marker = "<U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex + ">"
        out.append(contentsOf: marker.unicodeScalars)
        return marker.count
    }

    /// Bidi controls and other invisible format characters; ZWJ stays (emoji sequences need it).
    public static func isInvisibleFormat(_ scalar: Unicode.Scalar) -> Bool {
        isInvisibleFormat(scalar, category: scalar.properties.generalCategory)
    }

    /// `isInvisibleFormat` of a scalar whose general category the caller has (looked up only
    /// when the scalar's value does not decide).
    static func isInvisibleFormat(
        _ scalar: Unicode.Scalar, category: @autoclosure () -> Unicode.GeneralCategory
    ) -> Bool {
        switch scalar.value {
        case ..<0xAD: return false  // no format character (Cf) comes before the soft hyphen
        case 0x200D: return false
        case 0x061C, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069: return true
        case 0x2028, 0x2029: return true
        default: return category() == .format
        }
    }
}
