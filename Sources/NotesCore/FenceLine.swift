/// A line that opens or closes a fenced code block as an import's embeds are read: after its
/// leading white space (`Whitespace.trimmed`), it starts with ``` or ~~~ (`String.hasPrefix`,
/// by characters).
public enum FenceLine {
    /// Whether the line `bytes[line]` (UTF-8, no line feed) is one. By its bytes when what the
    /// answer turns on is ASCII: trimming a line that ends in a non-ASCII character went
    /// through Foundation, a twentieth of a Markdown folder's import on the thread that waits
    /// for it. `ImportShortcutsTests` checks it against the trimmed string.
    public static func opens(_ bytes: [UInt8], _ line: Range<Int>) -> Bool {
        var start = line.lowerBound
        while start < line.upperBound, bytes[start] == 0x20 || bytes[start] == 0x09 { start += 1 }
        // A non-ASCII space before the marks, or a combining mark after them, changes the
        // characters the prefix is made of: Foundation and `String` decide those lines.
        let asciiStart = start == line.upperBound || bytes[start] < 0x80
        let asciiAfter = start + 3 >= line.upperBound || bytes[start + 3] < 0x80
        guard asciiStart, asciiAfter else {
            let trimmed = Whitespace.trimmed(String(decoding: bytes[line], as: UTF8.self))
            return trimmed.hasPrefix("```") || trimmed.hasPrefix("~~~")
        }
        guard start + 3 <= line.upperBound, bytes[start] == 0x60 || bytes[start] == 0x7E else { return false }
        return bytes[start + 1] == bytes[start] && bytes[start + 2] == bytes[start]
    }
}
