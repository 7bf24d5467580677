import CNCurses
import Glibc

/// What the painter sends for one cell, so the terminal puts it in exactly the columns
/// `TextWidth` gave it.
///
/// Terminals disagree about emoji sequences: a ZWJ family (👨‍👩‍👧) is one 2-column glyph in some
/// and three 2-column emoji in others (tmux, xterm), and ncurses cannot even hold several
/// spacing characters in one cell. A row drawn with such a cluster shifts everything after it,
/// and the diff painter would then leave stale cells behind. So a cell sends only what every
/// terminal draws at the cell's width: the cluster's first scalar with the combining marks and
/// variation selectors that follow it; a flag's two regional indicators go in its two columns;
/// where the terminal's width (wcwidth) of the result is narrower than the cell, a space fills
/// the rest. The note's text is untouched; only its drawing is simplified.
enum CellGlyphs {
    /// One piece to draw: scalars for one ncurses cell at `column` (relative to the cell).
    struct Piece: Equatable {
        var column: Int
        var scalars: [Unicode.Scalar]
    }

    /// The pieces for a grapheme that `TextWidth` gives `width` columns (1 or 2), keeping at
    /// most `maxScalars` scalars in one piece (ncurses' CCHARW_MAX).
    static func pieces(
        for grapheme: String, width: Int, maxScalars: Int, terminalWidth: (Unicode.Scalar) -> Int = Self.wcwidth
    ) -> [Piece] {
        let scalars = Array(grapheme.unicodeScalars)
        guard let first = scalars.first else { return [Piece(column: 0, scalars: [" "])] }
        if scalars.count == 2, scalars.allSatisfy(isRegionalIndicator), width == 2 {
            return [Piece(column: 0, scalars: [scalars[0]]), Piece(column: 1, scalars: [scalars[1]])]
        }
        // A base the terminal draws narrow (❤ in ❤️) is drawn as text, a space beside it: with
        // its variation selector some terminals would take two columns and ncurses one.
        let padded = width == 2 && terminalWidth(first) < 2
        var kept = [first]
        for scalar in scalars.dropFirst() {
            guard kept.count < maxScalars, isCombining(scalar, terminalWidth) else { break }
            if padded && scalar.properties.isVariationSelector { continue }
            kept.append(scalar)
        }
        var pieces = [Piece(column: 0, scalars: kept)]
        if padded { pieces.append(Piece(column: 1, scalars: [" "])) }
        return pieces
    }

    /// Marks, variation selectors and other zero-width scalars (Hangul's conjoining vowels):
    /// drawn in the cell of the scalar before them. A ZWJ is not: what follows it is another
    /// spacing emoji.
    static func isCombining(_ scalar: Unicode.Scalar, _ terminalWidth: (Unicode.Scalar) -> Int) -> Bool {
        if scalar.value == 0x200D { return false }
        if scalar.properties.isVariationSelector { return true }
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .spacingMark: return true
        default: return terminalWidth(scalar) == 0
        }
    }

    static func isRegionalIndicator(_ scalar: Unicode.Scalar) -> Bool {
        (0x1F1E6...0x1F1FF).contains(scalar.value)
    }

    /// The C library's width of a scalar in the current locale (-1, unprintable, counts as 0).
    static func wcwidth(_ scalar: Unicode.Scalar) -> Int {
        max(0, Int(cn_wcwidth(wchar_t(bitPattern: scalar.value))))
    }
}
