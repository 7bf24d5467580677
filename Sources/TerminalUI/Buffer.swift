/// A screen in memory: a grid of cells that widgets draw into and backends paint.
///
/// No widget touches the terminal; each draws into a Buffer, and a backend paints the
/// difference to the previous one (`BufferDiff`). Two buffers compare equal when every
/// cell (grapheme, width, style) is equal, so a screen is a value tests can compare with
/// `Buffer(lines:)`.
///
/// Invariant: a wide cell (width 2) is always followed by its continuation cell (width 0) in
/// the same row, and every continuation cell follows a wide cell. Every mutation keeps it:
/// overwriting either half of a wide character blanks the other half.
public struct Buffer: Equatable, Sendable {
    public private(set) var size: Size
    /// Row-major cells, `size.width * size.height` of them.
    public private(set) var cells: [Cell]

    /// A buffer of `size` filled with `cell` (a blank by default; a wide cell is replaced by a blank).
    public init(size: Size, filling cell: Cell = .blank) {
        let size = Size(width: max(0, size.width), height: max(0, size.height))
        self.size = size
        self.cells = Array(repeating: cell.width == 1 ? cell : .blank, count: size.width * size.height)
    }

    /// A buffer showing `lines`, one per row, as wide as the widest line (by display width);
    /// shorter lines are padded with blanks. Meant for expected screens in tests.
    public init(lines: [String], style: Style = .plain) {
        let width = lines.map { TextWidth.width(of: $0) }.max() ?? 0
        self.init(size: Size(width: width, height: lines.count))
        for (y, line) in lines.enumerated() {
            write(line, at: Point(x: 0, y: y), style: style)
        }
    }

    /// The whole buffer as a rect at the origin.
    public var area: Rect { Rect(origin: .zero, size: size) }

    /// The cell at a position inside the buffer.
    public subscript(x: Int, y: Int) -> Cell {
        precondition(area.contains(Point(x: x, y: y)), "cell (\(x), \(y)) outside \(size)")
        return cells[y * size.width + x]
    }

    public subscript(point: Point) -> Cell { self[point.x, point.y] }

    /// The text of each row; a wide character appears once, so each row is `size.width` columns wide.
    public var lines: [String] {
        (0..<size.height).map { y in
            var line = ""
            for x in 0..<size.width { line += self[x, y].grapheme }
            return line
        }
    }

    /// Writes `text` on one row from `point`, advancing by display width, and returns the column
    /// after the last cell written.
    ///
    /// Nothing is written outside `clipTo` (the whole buffer by default) or the buffer. A wide
    /// character that would straddle the right edge is replaced by a space, and writing stops
    /// there; a wide character cut by the left edge leaves a space in its visible half.
    /// Zero-width clusters (controls, stray combining marks, format characters) are skipped:
    /// pass untrusted text through NotesCore's `TerminalSafeText` first so they become visible. Line breaks are not
    /// interpreted; split lines before writing.
    @discardableResult
    public mutating func write(
        _ text: some StringProtocol, at point: Point, style: Style = .plain, clipTo clip: Rect? = nil
    ) -> Int {
        let region = (clip ?? area).intersection(area)
        guard point.y >= region.minY, point.y < region.maxY else { return point.x }
        if let end = writeASCII(text, at: point, style: style, region: region) { return end }
        return writeByCharacter(text, at: point, style: style, region: region)
    }

    /// `write` over the bytes, for text that is ASCII up to the first byte past the right edge:
    /// a cell per printable byte, none per control (as `TextWidth` measures them), without the
    /// grapheme walk (a repaint writes every visible row, most of them ASCII). Nil when a byte of
    /// 0x80 or above comes first; the walk then writes the row again from `point`, over the same
    /// cells (the byte after the last visible one is looked at too, as a combining mark there
    /// belongs to that column's cluster).
    private mutating func writeASCII(_ text: some StringProtocol, at point: Point, style: Style, region: Rect)
        -> Int?
    {
        var x = point.x
        for byte in text.utf8 {
            guard byte < 0x80 else { return nil }
            if x >= region.maxX { break }
            if byte < 0x20 || byte == 0x7F { continue }
            if x >= region.minX { set(.ascii(byte, style: style), x: x, y: point.y) }
            x += 1
        }
        return x
    }

    /// `write` by grapheme cluster, each measured by `TextWidth`.
    mutating func writeByCharacter(_ text: some StringProtocol, at point: Point, style: Style, region: Rect) -> Int {
        var x = point.x
        for character in text {
            if x >= region.maxX { break }
            let w = TextWidth.width(of: character)
            if w == 0 { continue }
            if x < region.minX {
                // Cut by the left edge: the visible half of a wide character becomes a space.
                var column = region.minX
                while column < min(x + w, region.maxX) {
                    set(Cell(" ", style: style), x: column, y: point.y)
                    column += 1
                }
            } else if x + w > region.maxX {
                set(Cell(" ", style: style), x: x, y: point.y)
                return x + 1
            } else {
                set(Cell(character, style: style), x: x, y: point.y)
            }
            x += w
        }
        return x
    }

    /// Puts one cell (width 1 or 2) at a position, keeping wide characters whole: a wide
    /// character partly overwritten is replaced by blanks in its style. A wide cell that does
    /// not fit in its row, or a continuation cell, is written as a blank.
    public mutating func set(_ cell: Cell, at point: Point) {
        guard area.contains(point) else { return }
        if cell.isContinuation || (cell.isWide && point.x + 1 >= size.width) {
            set(Cell(" ", style: cell.style), x: point.x, y: point.y)
        } else {
            set(cell, x: point.x, y: point.y)
        }
    }

    /// Fills `rect` (clipped to the buffer) with `character` in `style`. A wide character is
    /// repeated while whole ones fit, and a space fills a last odd column.
    public mutating func fill(_ rect: Rect, with character: Character = " ", style: Style = .plain) {
        let region = rect.intersection(area)
        let w = TextWidth.width(of: character)
        let filler: Character = w == 0 ? " " : character
        for y in region.minY..<region.maxY {
            var x = region.minX
            while x < region.maxX {
                if w == 2 && x + 1 >= region.maxX {
                    set(Cell(" ", style: style), x: x, y: y)
                    x += 1
                } else {
                    let cell = Cell(filler, style: style)
                    set(cell, x: x, y: y)
                    x += cell.width
                }
            }
        }
    }

    /// Replaces the style of every cell in `rect` (text is kept); a wide character and its
    /// continuation keep one style, the one of the wide cell's column.
    public mutating func setStyle(_ style: Style, in rect: Rect) {
        let region = rect.intersection(area)
        for y in region.minY..<region.maxY {
            var x = region.minX
            if x > 0 && self[x, y].isContinuation { x -= 1 }
            var end = region.maxX
            if end < size.width && self[end, y].isContinuation { end += 1 }
            while x < end {
                cells[y * size.width + x].style = style
                x += 1
            }
        }
    }

    /// Stores `cell` at (x, y), both in the buffer, `x + 1` too for a wide cell, and blanks the
    /// halves of wide characters it cuts.
    private mutating func set(_ cell: Cell, x: Int, y: Int) {
        let row = y * size.width
        let last = x + (cell.isWide ? 1 : 0)
        // The left half of a wide character whose continuation we overwrite.
        if cells[row + x].isContinuation, x > 0 {
            cells[row + x - 1] = Cell(" ", style: cells[row + x - 1].style)
        }
        // The continuation of a wide character whose left half we overwrite.
        if cells[row + last].isWide, last + 1 < size.width {
            cells[row + last + 1] = Cell(" ", style: cells[row + last + 1].style)
        }
        cells[row + x] = cell
        if cell.isWide { cells[row + x + 1] = .continuation(style: cell.style) }
    }
}
