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

    /// Where the cursor ends after inserting `text` (LF-separated) here.
    public func advanced(over text: String) -> TextPosition {
        var newlines = 0
        var afterLast = 0
        for character in text {
            if character == "\n" {
                newlines += 1
                afterLast = 0
            } else {
                afterLast += 1
            }
        }
        return newlines == 0
            ? TextPosition(line: line, column: column + afterLast)
            : TextPosition(line: line + newlines, column: afterLast)
    }
}
