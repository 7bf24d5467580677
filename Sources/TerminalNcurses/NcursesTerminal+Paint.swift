import CNCurses
import Glibc
import TerminalUI

extension NcursesTerminal {
    /// Paints the runs of a diff into ncurses' screen (shown by the next `refresh`).
    ///
    /// Each cell is placed at its own column, and sends only what fits its width
    /// (`CellGlyphs`), so a character whose width the terminal judges differently from
    /// `TextWidth` cannot shift the rest of the row.
    func paint(_ diff: BufferDiff) {
        let maxScalars = Int(cn_ccharw_max())
        var text = [wchar_t](repeating: 0, count: maxScalars + 1)
        // Runs are mostly of one style: its attributes are looked up again only when it changes.
        var last: (style: Style, attributes: attr_t, pair: Int32)?
        for run in diff.runs {
            var x = run.origin.x
            for cell in run.cells {
                defer { x += 1 }
                if cell.isContinuation { continue }
                if last?.style != cell.style {
                    let (attributes, pair) = palette.attributes(for: cell.style)
                    last = (cell.style, attributes, pair)
                }
                guard let (_, attributes, pair) = last else { continue }
                // An ASCII cell (one byte, one column) is its own and only piece.
                if cell.grapheme.utf8.count == 1, let byte = cell.grapheme.utf8.first {
                    text[0] = wchar_t(byte)
                    text[1] = 0
                    _ = cn_mvadd_cell(Int32(run.origin.y), Int32(x), text, attributes, pair)
                    continue
                }
                for piece in CellGlyphs.pieces(for: cell.grapheme, width: cell.width, maxScalars: maxScalars) {
                    for (index, scalar) in piece.scalars.enumerated() {
                        text[index] = wchar_t(bitPattern: scalar.value)
                    }
                    text[piece.scalars.count] = 0
                    _ = cn_mvadd_cell(Int32(run.origin.y), Int32(x + piece.column), text, attributes, pair)
                }
            }
        }
    }
}

/// Styles as ncurses attributes and colour pairs, made on first use.
///
/// Bright colours use colours 8-15 when the terminal has 16 or more, else the plain colour in
/// bold. Without colour (`NO_COLOR`, a monochrome terminal) only the attributes are drawn.
struct ColorPalette {
    let enabled: Bool
    let colorCount: Int
    private var pairs: [PairKey: Int32] = [:]
    private var nextPair: Int32 = 1

    private struct PairKey: Hashable {
        var foreground: Int16
        var background: Int16
    }

    init(enabled: Bool, colorCount: Int) {
        self.enabled = enabled
        self.colorCount = colorCount
    }

    mutating func attributes(for style: Style) -> (attr_t, Int32) {
        var attributes = cn_a_normal()
        if style.isBold { attributes |= cn_a_bold() }
        if style.isUnderlined { attributes |= cn_a_underline() }
        if style.isReversed { attributes |= cn_a_reverse() }
        if style.isDim { attributes |= cn_a_dim() }
        // A terminal without italics (no `sitm` in terminfo) shows underline instead.
        if style.isItalic { attributes |= (term_attrs() & cn_a_italic()) != 0 ? cn_a_italic() : cn_a_underline() }
        guard enabled, style.foreground != .default || style.background != .default else { return (attributes, 0) }
        let (foreground, brightFallback) = number(style.foreground)
        let (background, _) = number(style.background)
        if brightFallback { attributes |= cn_a_bold() }
        let key = PairKey(foreground: foreground, background: background)
        if let pair = pairs[key] { return (attributes, pair) }
        guard nextPair < cn_color_pairs(), init_extended_pair(nextPair, Int32(foreground), Int32(background)) == cn_ok()
        else { return (attributes, 0) }
        let pair = nextPair
        pairs[key] = pair
        nextPair += 1
        return (attributes, pair)
    }

    /// The curses colour number (-1 is the terminal's default), and whether a bright colour had
    /// to be shown as its plain colour in bold.
    private func number(_ color: Style.Color) -> (Int16, Bool) {
        let base: Int16
        var bright = false
        switch color {
        case .default: return (-1, false)
        case .black: base = 0
        case .red: base = 1
        case .green: base = 2
        case .yellow: base = 3
        case .blue: base = 4
        case .magenta: base = 5
        case .cyan: base = 6
        case .white: base = 7
        case .brightBlack: (base, bright) = (0, true)
        case .brightRed: (base, bright) = (1, true)
        case .brightGreen: (base, bright) = (2, true)
        case .brightYellow: (base, bright) = (3, true)
        case .brightBlue: (base, bright) = (4, true)
        case .brightMagenta: (base, bright) = (5, true)
        case .brightCyan: (base, bright) = (6, true)
        case .brightWhite: (base, bright) = (7, true)
        }
        if bright && colorCount >= 16 { return (base + 8, false) }
        return (base, bright)
    }
}
