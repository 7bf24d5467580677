/// A multi-line text editor as a value: the text, a cursor, soft wrap into a viewport, and
/// undo/redo. Widgets draw it; the app feeds it keys. No I/O.
///
/// Text is kept as lines (split at LF and CRLF, each break remembered as it was, so a note
/// with mixed line endings saves byte for byte as loaded where it was not edited; a new
/// break takes the ending of the one after the line it splits), so an edit costs the length of the lines it touches, not of the whole text, and
/// soft wrap is computed only for the lines on screen: a 10 MB note edits like a small one.
/// The cursor moves by grapheme cluster (Swift `Character`), so it never lands inside an
/// emoji ZWJ sequence, a flag or a letter with combining marks; columns on screen come from
/// the `Measure`, so wide (CJK, emoji) characters take two.
public struct TextEditor<Measure: GlyphMeasure>: Equatable, Sendable {
    /// The text's lines, without line breaks (at least one, maybe empty).
    public internal(set) var lines: [String]
    public internal(set) var cursor = TextPosition.zero
    public let measure: Measure
    /// Columns and rows of the pane the text is wrapped into.
    public internal(set) var viewport: Size
    /// The first visual row shown: row `column` of line `line` (a row index, not a character column).
    public internal(set) var top = TextPosition.zero
    /// The first line break the loaded text had ("\n" when it had none): what a new break
    /// gets when no neighbouring break says otherwise.
    public let lineEnding: String
    /// For each line but the last, whether the break after it is CRLF (else LF).
    var crlfAfter: [Bool]
    /// Counts every change to the text (edits, undo, redo); autosave compares it.
    public internal(set) var changeCount = 0
    /// The other end of the selection (the cursor is one end), or nil when nothing is selected.
    public internal(set) var anchor: TextPosition?
    /// True when the anchor is a mark (Ctrl-Space): plain motion extends the selection. A
    /// selection made with Shift and the arrows ends at the next plain motion instead.
    public internal(set) var anchorIsMark = false

    /// The screen column up/down motion aims for (kept across short lines), nil after other motion.
    var goalX: Int?
    var undoStack: [EditRecord] = []
    var redoStack: [EditRecord] = []
    /// What the last undo entry was, while further keys of the same kind may extend it.
    var run: EditRecord.Kind?
    /// The soft wrap of the cursor's line (derived; ignored by ==).
    var wrapCache = WrapCache()

    public init(_ text: String, measure: Measure, viewport: Size = Size(width: 80, height: 24)) {
        (lines, crlfAfter) = Self.splitLines(text)
        lineEnding = crlfAfter.first == true ? "\r\n" : "\n"
        self.measure = measure
        self.viewport = Size(width: max(1, viewport.width), height: max(1, viewport.height))
    }

    /// Lines split at LF and CRLF, found on the UTF-8 bytes (a line break is always a grapheme
    /// of its own, so this is the split by `Character`, only faster); the line ending is the
    /// breaks are returned too, true for each CRLF.
    static func splitLines(_ text: String) -> (lines: [String], crlf: [Bool]) {
        let utf8 = text.utf8
        var lines: [String] = []
        var crlfs: [Bool] = []
        var start = utf8.startIndex
        while let newline = utf8[start...].firstIndex(of: 0x0A) {
            var end = newline
            let crlf = end > start && utf8[utf8.index(before: end)] == 0x0D
            if crlf { end = utf8.index(before: end) }
            crlfs.append(crlf)
            lines.append(String(Substring(utf8[start..<end])))
            start = utf8.index(after: newline)
        }
        lines.append(String(Substring(utf8[start...])))
        return (lines, crlfs)
    }

    /// The whole text, each line break as it was loaded or typed.
    public var text: String {
        guard crlfAfter.contains(true) else { return lines.joined(separator: "\n") }
        var text = ""
        text.reserveCapacity(lines.reduce(lines.count * 2) { $0 + $1.utf8.count })
        for (i, line) in lines.enumerated() {
            text += line
            if i < crlfAfter.count { text += crlfAfter[i] ? "\r\n" : "\n" }
        }
        return text
    }

    /// The break a line break typed on line `line` gets: the one after that line, else the
    /// one before it, else `lineEnding`.
    func ending(forBreakOn line: Int) -> String {
        let crlf = line < crlfAfter.count ? crlfAfter[line] : crlfAfter.last ?? (lineEnding == "\r\n")
        return crlf ? "\r\n" : "\n"
    }

    /// The first line: a note's title.
    public var firstLine: String { lines[0] }

    public var canUndo: Bool { !undoStack.isEmpty }
    public var canRedo: Bool { !redoStack.isEmpty }

    /// Wraps into a pane of `size` from now on and keeps the cursor in view.
    public mutating func resize(_ size: Size) {
        viewport = Size(width: max(1, size.width), height: max(1, size.height))
        goalX = nil
        scrollToCursor()
    }

    /// Puts the cursor at `position` (clamped to the text) and scrolls to it.
    public mutating func moveCursor(to position: TextPosition) {
        clearSelection()
        cursor = clamped(position)
        goalX = nil
        run = nil
        scrollToCursor()
    }

    /// Replaces the whole text (a reload), keeping the cursor on its line: the same line text
    /// when it moved a little (lines added or removed above it), else the same line number, at
    /// the same column where it still exists. Undo history is dropped: it described the old text.
    public mutating func replaceAll(with text: String) {
        var kept = cursor
        let cursorLine = lines[cursor.line]
        let fresh = TextEditor(text, measure: measure, viewport: viewport)
        lines = fresh.lines
        crlfAfter = fresh.crlfAfter
        clearSelection()
        if !cursorLine.isEmpty, kept.line >= lines.count || lines[kept.line] != cursorLine {
            let nearby = (1...100).lazy.flatMap { [kept.line - $0, kept.line + $0] }
            if let found = nearby.first(where: { self.lines.indices.contains($0) && self.lines[$0] == cursorLine }) {
                kept.line = found
            }
        }
        wrapCache = WrapCache()
        undoStack = []
        redoStack = []
        run = nil
        goalX = nil
        changeCount += 1
        cursor = clamped(kept)
        scrollToCursor()
    }

    func clamped(_ position: TextPosition) -> TextPosition {
        let line = min(max(0, position.line), lines.count - 1)
        // Walks at most `column` characters: a cursor in a long line costs its column, not the line.
        let text = lines[line]
        var column = 0
        var index = text.startIndex
        while column < position.column && index < text.endIndex {
            text.formIndex(after: &index)
            column += 1
        }
        return TextPosition(line: line, column: column)
    }

    /// Replaces the text from `start` to `end` (clamped to the text) with `text` and returns
    /// what was removed and where the inserted text ends. Line breaks in both are the text's
    /// own (LF or CRLF, each kept as it is), so undo puts back exactly what was there. The one
    /// primitive every edit, undo and redo goes through.
    ///
    /// The end is counted on the new line, so text that joins a neighbouring character into
    /// one grapheme (a lone combining mark typed after a letter) leaves the cursor after that
    /// grapheme, never inside it.
    @discardableResult
    mutating func replace(
        from start: TextPosition, to end: TextPosition, with text: String
    ) -> (removed: String, end: TextPosition) {
        let line = min(max(0, start.line), lines.count - 1)
        if start.line == end.line && !text.utf8.contains(0x0A) {
            return replace(inLine: line, from: start.column, to: end.column, with: text)
        }
        let start = clamped(start)
        let end = max(start, clamped(end))
        let removed = self.text(from: start, to: end)
        let head = lines[start.line].prefix(start.column)
        let tail = lines[end.line].dropFirst(end.column)
        var (pieces, breaks) = Self.splitLines(text)
        let endLine = start.line + pieces.count - 1
        let endOffset = (pieces.count == 1 ? head.utf8.count : 0) + pieces[pieces.count - 1].utf8.count
        pieces[0] = head + pieces[0]
        pieces[pieces.count - 1] += tail
        lines.replaceSubrange(start.line...end.line, with: pieces)
        crlfAfter.replaceSubrange(start.line..<end.line, with: breaks)
        changeCount += 1
        if wrapCache.line >= start.line { wrapCache.line = -1 }
        return (removed, TextPosition(line: endLine, column: Self.column(ofUTF8Offset: endOffset, in: lines[endLine])))
    }

    /// `replace` within one line, with no line break inserted: the typing path. Reaches the
    /// edit through the kept wrap of the cursor's line, so its cost is a row, not the line.
    private mutating func replace(
        inLine line: Int, from startColumn: Int, to endColumn: Int, with text: String
    ) -> (removed: String, end: TextPosition) {
        let old = lines[line]
        let (lower, column) = index(ofColumn: max(0, startColumn), inLine: line)
        var upper = lower
        var removedCount = 0
        while removedCount < endColumn - column && upper < old.endIndex {
            old.formIndex(after: &upper)
            removedCount += 1
        }
        let removed = String(old[lower..<upper])
        let simple = !Self.mayJoin(text, replacing: lower..<upper, in: old)
        let lowerOffset = old.utf8.distance(from: old.startIndex, to: lower)
        // On the scalars: String's own replaceSubrange counts the whole line's characters.
        lines[line].unicodeScalars.replaceSubrange(lower..<upper, with: text.unicodeScalars)
        changeCount += 1
        let newEnd =
            simple
            ? column + text.count
            : Self.column(ofUTF8Offset: lowerOffset + text.utf8.count, in: lines[line])
        updateWrapCache(
            line: line, column: column, removedCount: removedCount, newEnd: newEnd,
            byteDelta: text.utf8.count - removed.utf8.count, simple: simple)
        return (removed, TextPosition(line: line, column: newEnd))
    }

    /// The number of graphemes of `line` that start before byte `offset`: the column just
    /// after text ending there, never inside a grapheme it joined.
    static func column(ofUTF8Offset offset: Int, in line: String) -> Int {
        let endIndex = line.utf8.index(line.startIndex, offsetBy: offset)
        var column = 0
        var index = line.startIndex
        while index < endIndex {
            line.formIndex(after: &index)
            column += 1
        }
        return column
    }

    /// The text between two positions, with the text's own line breaks.
    func text(from start: TextPosition, to end: TextPosition) -> String {
        guard start < end else { return "" }
        if start.line == end.line {
            let line = lines[start.line]
            return String(line.dropFirst(start.column).prefix(end.column - start.column))
        }
        var text = String(lines[start.line].dropFirst(start.column))
        for line in start.line..<end.line {
            text += crlfAfter[line] ? "\r\n" : "\n"
            text += line + 1 == end.line ? String(lines[end.line].prefix(end.column)) : lines[line + 1]
        }
        return text
    }
}
