/// A place in multi-line text: a line (split at line breaks) and a column counted in grapheme
/// clusters (Swift `Character`s) from the start of that line.
public struct TextPosition: Hashable, Sendable, Comparable, CustomStringConvertible {
    public var line: Int
    public var column: Int

    public init(line: Int, column: Int) {
        self.line = line
        self.column = column
    }

    public static let zero = TextPosition(line: 0, column: 0)

    public static func < (a: TextPosition, b: TextPosition) -> Bool {
        (a.line, a.column) < (b.line, b.column)
    }

    public var description: String { "\(line):\(column)" }

    /// Where the cursor ends after inserting `text` (LF-separated) here. Line breaks are found
    /// on the UTF-8 bytes; only the last line's characters are counted.
    public func advanced(over text: String) -> TextPosition {
        let utf8 = text.utf8
        guard let lastBreak = utf8.lastIndex(of: 0x0A) else {
            return TextPosition(line: line, column: column + text.count)
        }
        var newlines = 0
        for byte in utf8 where byte == 0x0A { newlines += 1 }
        let tail = Substring(utf8[utf8.index(after: lastBreak)...])
        return TextPosition(line: line + newlines, column: tail.count)
    }
}
