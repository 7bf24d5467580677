import TerminalUI

/// ASCII stand-ins for the app's own glyphs, for a terminal whose locale is not UTF-8.
let asciiGlyphs: [String: String] = [
    "★": "*", "✓": "+", "↻": "~", "⚠": "!", "↑": "^", "│": "|", "─": "-", "┌": "+", "┐": "+", "└": "+",
    "┘": "+", "…": ".", "▏": "|", "·": "-", "“": "\"", "”": "\"", "◌": "o", "•": "*", "▸": ">",
    "┼": "+", "═": "=",
]

/// Replaces every non-ASCII cell: the app's glyphs by their stand-ins, anything else (note
/// text the terminal could not show) by `?`, one per column.
func asciiFallback(_ buffer: inout Buffer) {
    for y in 0..<buffer.size.height {
        for x in 0..<buffer.size.width {
            let cell = buffer[x, y]
            guard !cell.isContinuation, !cell.grapheme.utf8.allSatisfy({ $0 < 0x80 }) else { continue }
            let replacement = asciiGlyphs[cell.grapheme] ?? "?"
            buffer.set(Cell(Character(replacement), style: cell.style), at: Point(x: x, y: y))
            if cell.isWide { buffer.set(Cell("?", style: cell.style), at: Point(x: x + 1, y: y)) }
        }
    }
}
