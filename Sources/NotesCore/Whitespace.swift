import Foundation

/// Trimming of white space as `CharacterSet.whitespaces` defines it (U+0009 and the Zs
/// separators), without Foundation's bridge to NSString where the ends are ASCII: an import
/// trims every front matter line and date, and the bridge was a tenth of a vault's import.
public enum Whitespace {
    /// `text` without white space at either end, the same as
    /// `text.trimmingCharacters(in: .whitespaces)` (`WhitespaceTests`).
    public static func trimmed(_ text: String) -> String {
        let utf8 = text.utf8
        var start = utf8.startIndex
        var end = utf8.endIndex
        while start < end, utf8[start] == 0x20 || utf8[start] == 0x09 { start = utf8.index(after: start) }
        while end > start {
            let last = utf8.index(before: end)
            guard utf8[last] == 0x20 || utf8[last] == 0x09 else { break }
            end = last
        }
        // A non-ASCII end may be a separator (U+00A0, U+3000…) or a mark joining a space:
        // Foundation decides.
        if start < end, utf8[start] >= 0x80 || utf8[utf8.index(before: end)] >= 0x80 {
            return text.trimmingCharacters(in: .whitespaces)
        }
        if start == utf8.startIndex, end == utf8.endIndex { return text }
        return String(text[start..<end])
    }
}
