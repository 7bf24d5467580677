/// Text soft-wrapped into visual lines of at most `width` columns, with the character offset
/// where each line starts (the editor maps its cursor through these).
///
/// Rules: a line break (LF or CRLF) always ends a line and belongs to it. Otherwise lines break
/// after a run of spaces when the next word does not fit, and inside a word, between grapheme
/// clusters, when the word alone is wider than a line. Spaces that would overflow a line hang
/// at its end: they belong to the line's character range but not to its `text`, so no
/// visual line is wider than `width` and the next line starts with the next word. Widths are
/// `TextWidth`'s; a wide character never straddles a break. A wide character on a line one
/// column wide is the one case that overflows (it still gets a line of its own).
/// Offsets count `Character`s (grapheme clusters) from the start of the string.
public struct WrappedText: Equatable, Sendable {
    /// One visual line.
    public struct Line: Equatable, Sendable {
        /// Offset of the line's first character.
        public var start: Int
        /// Characters that belong to the line: its text, hanging spaces and its line break.
        public var count: Int
        /// What is shown: no line break, no hanging spaces.
        public var text: String
        /// Display width of `text`.
        public var width: Int

        public init(start: Int, count: Int, text: String, width: Int) {
            self.start = start
            self.count = count
            self.text = text
            self.width = width
        }

        /// The offset after the last character of the line.
        public var end: Int { start + count }
    }

    public let width: Int
    /// The visual lines, at least one (empty text is one empty line).
    public let lines: [Line]

    public init(_ text: some StringProtocol, width: Int) {
        self.width = max(1, width)
        var builder = Builder(width: self.width)
        for character in text { builder.add(character) }
        lines = builder.finish()
    }

    /// The visual texts, for tests and simple rendering.
    public var texts: [String] { lines.map(\.text) }

    /// The visual line and column of the character at `offset` (clamped to the text). An offset
    /// at a soft break shows at the start of the next line; a cursor on a hanging space or a
    /// line break stays after the line's text, at most at column `width`.
    public func location(ofOffset offset: Int) -> (line: Int, column: Int) {
        let offset = max(0, offset)
        var index = lines.count - 1
        for (i, line) in lines.enumerated() where offset < line.end {
            index = i
            break
        }
        let line = lines[index]
        let into = offset - line.start
        var column = 0
        for character in line.text.prefix(into) { column += TextWidth.width(of: character) }
        if into > line.text.count { column = min(width, line.width + (into - line.text.count)) }
        return (index, column)
    }

    /// The offset of the character shown at `column` of visual line `line` (both clamped): the
    /// character covering that column, or the end of the line's text when the column is past it.
    public func offset(line: Int, column: Int) -> Int {
        let line = lines[min(max(0, line), lines.count - 1)]
        var x = 0
        var offset = line.start
        for character in line.text {
            let w = TextWidth.width(of: character)
            if x + w > column { return offset }
            x += w
            offset += 1
        }
        return offset
    }
}

/// Greedy line filling for `WrappedText`, one character at a time.
private struct Builder {
    let width: Int
    var lines: [WrappedText.Line] = []
    var start = 0
    var offset = 0
    var text: [Character] = []
    var textWidth = 0
    /// Characters of `text` up to and including the last space (a break opportunity).
    var breakAfter = 0
    /// Spaces hanging past the edge, waiting for the next word to start a line.
    var hanging = 0

    init(width: Int) { self.width = width }

    mutating func add(_ character: Character) {
        defer { offset += 1 }
        if character == "\n" || character == "\r\n" {
            emit(count: text.count + hanging + 1)
            return
        }
        let w = TextWidth.width(of: character)
        if character == " " {
            if hanging > 0 || textWidth + w > width {
                hanging += 1
                return
            }
        } else if hanging > 0 {
            emit(count: text.count + hanging)
        } else if textWidth + w > width && !text.isEmpty {
            if breakAfter > 0 {
                let rest = Array(text[breakAfter...])
                text.removeLast(text.count - breakAfter)
                textWidth = TextWidth.width(of: String(text))
                emit(count: text.count)
                for c in rest { append(c) }
            }
            if textWidth + w > width && !text.isEmpty { emit(count: text.count) }
        }
        append(character)
    }

    private mutating func append(_ character: Character) {
        text.append(character)
        textWidth += TextWidth.width(of: character)
        if character == " " { breakAfter = text.count }
    }

    /// Ends the current line with `count` characters, the next one starting right after them.
    private mutating func emit(count: Int) {
        lines.append(WrappedText.Line(start: start, count: count, text: String(text), width: textWidth))
        start += count
        text = []
        textWidth = 0
        breakAfter = 0
        hanging = 0
    }

    mutating func finish() -> [WrappedText.Line] {
        // The last line: there is always one, even after a final line break.
        lines.append(WrappedText.Line(start: start, count: text.count + hanging, text: String(text), width: textWidth))
        return lines
    }
}
