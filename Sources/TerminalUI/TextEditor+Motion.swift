extension TextEditor {
    /// Ways the cursor moves; the editor's keys map onto these.
    public enum Motion: Equatable, Sendable {
        case left, right, up, down
        /// Start and end of the line (the logical line, not the visual row).
        case lineStart, lineEnd
        /// To the start of the previous word, or the end of the next one (Ctrl/Alt-←→).
        case wordLeft, wordRight
        /// A viewport's height less one row.
        case pageUp, pageDown
        case textStart, textEnd
    }

    /// Moves the cursor; a selection made with Shift ends, a mark's selection follows.
    public mutating func move(_ motion: Motion) {
        if !anchorIsMark { anchor = nil }
        moveKeepingAnchor(motion)
    }

    mutating func moveKeepingAnchor(_ motion: Motion) {
        run = nil
        switch motion {
        case .left: setCursor(position(before: cursor))
        case .right: setCursor(position(after: cursor))
        case .up: moveVertically(by: -1)
        case .down: moveVertically(by: 1)
        case .lineStart: setCursor(TextPosition(line: cursor.line, column: 0))
        case .lineEnd: setCursor(TextPosition(line: cursor.line, column: lines[cursor.line].count))
        case .wordLeft: setCursor(wordStart(before: cursor))
        case .wordRight: setCursor(wordEnd(after: cursor))
        case .pageUp: moveVertically(by: -max(1, viewport.height - 1))
        case .pageDown: moveVertically(by: max(1, viewport.height - 1))
        case .textStart: setCursor(.zero)
        case .textEnd: setCursor(TextPosition(line: lines.count - 1, column: lines[lines.count - 1].count))
        }
        scrollToCursor()
    }

    private mutating func setCursor(_ position: TextPosition) {
        cursor = position
        goalX = nil
    }

    /// The position one character back (the end of the previous line from a line's start).
    func position(before position: TextPosition) -> TextPosition {
        if position.column > 0 { return TextPosition(line: position.line, column: position.column - 1) }
        guard position.line > 0 else { return position }
        return TextPosition(line: position.line - 1, column: lines[position.line - 1].count)
    }

    /// The position one character on (the start of the next line from a line's end).
    func position(after position: TextPosition) -> TextPosition {
        if !lines[position.line].dropFirst(position.column).isEmpty {
            return TextPosition(line: position.line, column: position.column + 1)
        }
        guard position.line + 1 < lines.count else { return position }
        return TextPosition(line: position.line + 1, column: 0)
    }

    private static func isWord(_ character: Character) -> Bool {
        character.isLetter || character.isNumber || character == "_"
    }

    /// The start of the word before `position`; from a line's start, the previous line's end.
    func wordStart(before position: TextPosition) -> TextPosition {
        guard position.column > 0 else { return self.position(before: position) }
        let characters = Array(lines[position.line].prefix(position.column))
        var i = characters.count
        while i > 0, !Self.isWord(characters[i - 1]) { i -= 1 }
        while i > 0, Self.isWord(characters[i - 1]) { i -= 1 }
        return TextPosition(line: position.line, column: i)
    }

    /// The end of the word after `position`; from a line's end, the next line's start.
    func wordEnd(after position: TextPosition) -> TextPosition {
        let line = lines[position.line]
        let characters = Array(line.dropFirst(position.column))
        guard !characters.isEmpty else { return self.position(after: position) }
        var i = 0
        while i < characters.count, !Self.isWord(characters[i]) { i += 1 }
        while i < characters.count, Self.isWord(characters[i]) { i += 1 }
        return TextPosition(line: position.line, column: position.column + i)
    }

    /// Moves by `rows` visual rows, aiming for the same screen column (`goalX`).
    private mutating func moveVertically(by rows: Int) {
        var starts = rowStarts(ofLine: cursor.line)
        let here = location(of: cursor, rowStarts: starts)
        let goal = goalX ?? here.x
        var line = cursor.line
        var row = here.row
        var remaining = rows
        while remaining != 0 {
            if remaining > 0 {
                if row + 1 < starts.count {
                    row += 1
                } else if line + 1 < lines.count {
                    line += 1
                    starts = rowStarts(ofLine: line)
                    row = 0
                } else {
                    // Down on the last row goes to the end of the text.
                    cursor = TextPosition(line: line, column: lines[line].count)
                    goalX = goal
                    return
                }
                remaining -= 1
            } else {
                if row > 0 {
                    row -= 1
                } else if line > 0 {
                    line -= 1
                    starts = rowStarts(ofLine: line)
                    row = starts.count - 1
                } else {
                    cursor = .zero
                    goalX = goal
                    return
                }
                remaining += 1
            }
        }
        cursor = TextPosition(line: line, column: column(atRow: row, x: goal, line: line, rowStarts: starts))
        goalX = goal
    }
}
