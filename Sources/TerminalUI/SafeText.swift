/// The display sanitizer for untrusted note text in widgets (DESIGN §7, terminal safety).
///
/// Note text arrives from other devices, so nothing in it may reach the terminal raw: ncurses
/// passes bidi overrides and zero-width characters through and interprets CR, BS and TAB, so
/// a note could overwrite the UI on its row. Storage stays byte-identical; only display changes:
/// - ESC and the other C0 controls, DEL and a lone CR become control pictures (`␛`, `␍`, `␡`);
/// - C1 controls (U+0080–009F) become `<U+009B>`;
/// - bidi controls (U+061C, U+200E/F, U+202A–202E, U+2066–2069), line and paragraph separators
///   and the other invisible format characters (Cf) become `<U+202E>` markers in `.line` mode
///   and are dropped in `.block` mode; ZWJ stays (emoji sequences need it), and so do tag
///   characters after a black flag 🏴 (subdivision flags such as Scotland's);
/// - TAB becomes spaces, LF is `⏎` in a line and a line break in a block;
/// - combining marks beyond `maxCombiningMarks` per grapheme are dropped (Zalgo text).
///
/// The rules are NotesCore's `TerminalSafeText`, restated here because TerminalUI imports
/// nothing of ours; the two must give identical output (change both together).
public enum SafeText {
    public enum Mode: Sendable {
        /// One line (titles, list rows, error messages): a line break is shown as `⏎`.
        case line
        /// Multi-line text (a note body): LF stays a line break, invisible characters are dropped.
        case block
    }

    /// Combining marks kept per grapheme; more than this paints over neighbouring rows.
    public static let maxCombiningMarks = 4
    public static let tabWidth = 4

    /// `text` with every control and invisible character made visible (or dropped, see `Mode`).
    public static func sanitize(_ text: some StringProtocol, mode: Mode = .line) -> String {
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
    /// (approximately, counting one per scalar: only TAB expansion uses it).
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
            out.append(Unicode.Scalar(0x2400 + v)!)
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
        switch scalar.value {
        case 0x200D: return false
        case 0x061C, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069: return true
        case 0x2028, 0x2029: return true
        default: return scalar.properties.generalCategory == .format
        }
    }
}
