extension TextEditor {
    /// One visual row on screen: which line, and which of its characters.
    public struct VisualRow: Equatable, Sendable {
        public var line: Int
        /// Character offsets within the line: `columns.lowerBound` is the row's first character.
        public var columns: Range<Int>
        public var text: Substring
    }

    /// The visual row and screen column of `position`, given its line's row starts. A position
    /// in spaces hanging past the edge shows on the row's last column.
    func location(of position: TextPosition, rowStarts starts: [Int]) -> (row: Int, x: Int) {
        var row = 0
        while row + 1 < starts.count, starts[row + 1] <= position.column { row += 1 }
        var x = 0
        let rowStart = index(ofColumn: starts[row], inLine: position.line).index
        for character in lines[position.line][rowStart...].prefix(position.column - starts[row]) {
            x += measure.columns(of: character, at: x)
        }
        return (row, min(x, viewport.width - 1))
    }

    /// The column of the character at screen column `x` of visual row `row`, or the row's last
    /// cursor place when `x` is past its end.
    func column(atRow row: Int, x: Int, line: Int, rowStarts starts: [Int]) -> Int {
        let start = starts[row]
        let text = lines[line]
        let rowStart = index(ofColumn: start, inLine: line).index
        let end = row + 1 < starts.count ? starts[row + 1] : start + text[rowStart...].count
        // On a row followed by another, the last place is before the next row's first character.
        let last = row + 1 < starts.count ? max(start, end - 1) : end
        var used = 0
        var column = start
        for character in text[rowStart...].prefix(last - start) {
            let w = measure.columns(of: character, at: used)
            if used + w > x { return column }
            used += w
            column += 1
        }
        return last
    }

    /// The cursor's place in the viewport: visual row from the top of the pane, and column.
    public var cursorLocation: Point {
        let here = location(of: cursor, rowStarts: rowStarts(ofLine: cursor.line))
        var y = 0
        var line = top.line
        var row = top.column
        while line < cursor.line {
            y += rowStarts(ofLine: line).count - row
            row = 0
            line += 1
            if y > viewport.height { break }
        }
        return Point(x: here.x, y: y + here.row - row)
    }

    /// The rows that fill the viewport from `top`: only these lines are wrapped.
    public var visibleRows: [VisualRow] {
        var rows: [VisualRow] = []
        var line = top.line
        var row = top.column
        while rows.count < viewport.height && line < lines.count {
            let starts = rowStarts(ofLine: line)
            let text = lines[line]
            var index = index(ofColumn: starts[min(row, starts.count - 1)], inLine: line).index
            while row < starts.count && rows.count < viewport.height {
                let end = row + 1 < starts.count ? starts[row + 1] : starts[row] + text[index...].count
                let next = text.index(index, offsetBy: end - starts[row])
                rows.append(VisualRow(line: line, columns: starts[row]..<end, text: text[index..<next]))
                index = next
                row += 1
            }
            line += 1
            row = 0
        }
        return rows
    }

    /// Scrolls the least that brings the cursor's row into the viewport. Wraps at most a
    /// viewport's worth of lines, however long the text.
    mutating func scrollToCursor() {
        refreshWrapCache()
        if top.line >= lines.count { top = TextPosition(line: lines.count - 1, column: 0) }
        top.column = min(top.column, rowStarts(ofLine: top.line).count - 1)
        let cursorRow = location(of: cursor, rowStarts: rowStarts(ofLine: cursor.line)).row
        let cursorTop = TextPosition(line: cursor.line, column: cursorRow)
        if cursorTop < top {
            top = cursorTop
            return
        }
        // Rows from the top of the pane down to the cursor's row, stopping once past the bottom.
        var distance = 0
        var line = top.line
        var row = top.column
        while line < cursor.line && distance < viewport.height {
            distance += rowStarts(ofLine: line).count - row
            row = 0
            line += 1
        }
        if line == cursor.line { distance += cursorRow - row }
        guard line < cursor.line || distance >= viewport.height else { return }
        // Put the cursor's row on the last row of the pane.
        line = cursor.line
        row = cursorRow
        var need = viewport.height - 1
        while need > 0 {
            if row > 0 {
                let step = min(row, need)
                row -= step
                need -= step
            } else if line > 0 {
                line -= 1
                row = rowStarts(ofLine: line).count - 1
                need -= 1
            } else {
                break
            }
        }
        top = TextPosition(line: line, column: row)
    }
}

extension TextEditor {
    /// Puts the cursor on the character shown at `point` of the viewport (a mouse click); a
    /// point below the text goes to its end.
    public mutating func moveCursor(toScreen point: Point) {
        let rows = visibleRows
        guard let last = rows.last else { return }
        guard point.y < rows.count else {
            moveCursor(to: TextPosition(line: last.line, column: last.columns.upperBound))
            return
        }
        let row = rows[max(0, point.y)]
        let starts = rowStarts(ofLine: row.line)
        let index = starts.firstIndex(of: row.columns.lowerBound) ?? 0
        let column = column(atRow: index, x: max(0, point.x), line: row.line, rowStarts: starts)
        moveCursor(to: TextPosition(line: row.line, column: column))
    }
}
