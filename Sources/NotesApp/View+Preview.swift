import NotesCore
import TerminalUI

/// How far into a body the preview looks for the first match (lines); a note longer than that
/// with its first match further down previews from its top.
private let previewMatchScanLines = 5000

/// The preview's body: lines soft-wrapped to `rect`, made safe, matches of `terms` (folded)
/// in the highlight style, starting at the first line with a match when there is one.
func drawPreviewBody(_ body: String, terms: [String], theme: Theme, in rect: Rect, on buffer: inout Buffer) {
    guard !rect.isEmpty else { return }
    var lines = BodyLines(rest: body[...])
    var pending: [Substring] = []
    if !terms.isEmpty {
        // Skip to the line of the first match (scanning a bounded number of lines).
        var scanned: [Substring] = []
        while scanned.count < previewMatchScanLines, let line = lines.next() {
            if !SearchHighlighter.ranges(of: terms, in: String(line)).isEmpty {
                pending = [line]
                break
            }
            scanned.append(line)
        }
        if pending.isEmpty { pending = scanned }
    }
    var y = rect.y
    func nextLine() -> Substring? {
        pending.isEmpty ? lines.next() : pending.removeFirst()
    }
    while y < rect.maxY, let raw = nextLine() {
        // A row holds at most `width` characters: never wrap more of one line than can show.
        let line = TerminalSafeText.sanitize(String(raw.prefix((rect.maxY - y) * rect.width)), mode: .block)
        let matches = SearchHighlighter.ranges(of: terms, in: line)
        for row in WrappedText(line, width: rect.width).lines {
            guard y < rect.maxY else { return }
            var x = rect.x
            var offset = row.start
            var matchIndex = 0
            for character in row.text {
                while matchIndex < matches.count && matches[matchIndex].upperBound <= offset { matchIndex += 1 }
                let isMatch = matchIndex < matches.count && matches[matchIndex].contains(offset)
                x = buffer.write(
                    String(character), at: Point(x: x, y: y), style: isMatch ? theme.highlight : .plain, clipTo: rect)
                offset += 1
            }
            y += 1
        }
    }
}

/// A body's lines one at a time (LF or CRLF ends one), so a long note is never split whole.
private struct BodyLines: IteratorProtocol {
    var rest: Substring?

    mutating func next() -> Substring? {
        guard let text = rest else { return nil }
        guard let newline = text.firstIndex(where: { $0 == "\n" || $0 == "\r\n" }) else {
            rest = nil
            return text
        }
        rest = text[text.index(after: newline)...]
        return text[..<newline]
    }
}
