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

/// The previewed note's attachments at the bottom of the preview (a header, then a line each,
/// the one `o` opens marked); returns the rows used (none without attachments or room).
func drawAttachments(_ attachments: [Attachment], selected: Int, theme: Theme, in rect: Rect, on buffer: inout Buffer)
    -> Int
{
    guard !attachments.isEmpty, rect.height >= 4 else { return 0 }
    let shown = min(attachments.count, rect.height / 2 - 1)
    guard shown > 0 else { return 0 }
    let rows = shown + 1
    let top = rect.maxY - rows
    let header = "Attachments (\(attachments.count)): a next, o open"
    buffer.write(header, at: Point(x: rect.x, y: top), style: theme.hint, clipTo: rect)
    // The selected one stays in view when there are more than fit.
    let first = max(0, min(selected - shown + 1, attachments.count - shown))
    for (offset, attachment) in attachments[first..<(first + shown)].enumerated() {
        let index = first + offset
        let marker = index == selected ? "▸ " : "  "
        let line = marker + TerminalSafeText.sanitize(attachment.name) + "  " + attachmentSize(attachment.size)
        buffer.write(
            line, at: Point(x: rect.x, y: top + 1 + offset), style: index == selected ? theme.header : .plain,
            clipTo: rect)
    }
    return rows
}

/// "12 B", "3.4 KB", "200.0 MB" (integer arithmetic: no Foundation formatting in the view).
func attachmentSize(_ bytes: Int64) -> String {
    if bytes < 1024 { return "\(bytes) B" }
    var unit = 0
    var scaled = bytes * 10 / 1024
    while scaled >= 10 * 1024, unit < 2 {
        scaled /= 1024
        unit += 1
    }
    return "\(scaled / 10).\(scaled % 10) \(["KB", "MB", "GB"][unit])"
}
