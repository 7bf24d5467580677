import NotesCore
import TerminalUI

/// How far into a body the preview looks for the first match (lines); a note longer than that
/// with its first match further down previews from its top.
let previewMatchScanLines = 5000

/// The task the preview marks (Space ticks it): its body line (from 1), and whether the
/// preview scrolls to show it (the cursor was moved on this note).
struct PreviewTaskMark {
    var line: Int
    var follows: Bool
}

/// The preview's body: lines soft-wrapped to `rect`, made safe, matches of `terms` (folded)
/// in the highlight style, starting at the first line with a match when there is one, or so
/// that the marked task shows when it `follows`; the marked task's box in the cursor style.
func drawPreviewBody(
    _ body: String, terms: [String], task: PreviewTaskMark? = nil, theme: Theme, in rect: Rect,
    on buffer: inout Buffer
) {
    guard !rect.isEmpty else { return }
    var lines = BodyLines(rest: body[...])
    var pending: [Substring] = []
    // The body line (from 1) of the first line drawn.
    var number = 1
    if let task, task.follows {
        (pending, number) = linesEndingWith(task.line, of: &lines, width: rect.width, rows: rect.height)
    } else if !terms.isEmpty {
        // Skip to the line of the first match (scanning a bounded number of lines).
        var scanned: [Substring] = []
        while scanned.count < previewMatchScanLines, let line = lines.next() {
            if !SearchHighlighter.ranges(of: terms, in: String(line)).isEmpty {
                pending = [line]
                number = scanned.count + 1
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
        defer { number += 1 }
        // A row holds at most `width` characters: never wrap more of one line than can show.
        let line = TerminalSafeText.sanitize(String(raw.prefix((rect.maxY - y) * rect.width)), mode: .block)
        let matches = SearchHighlighter.ranges(of: terms, in: line)
        // The marked task's box: the three characters from its line's first "[".
        let box =
            task?.line == number ? line.firstIndex(of: "[").map { line.distance(from: line.startIndex, to: $0) } : nil
        for row in WrappedText(line, width: rect.width).lines {
            guard y < rect.maxY else { return }
            var x = rect.x
            var offset = row.start
            var matchIndex = 0
            for character in row.text {
                while matchIndex < matches.count && matches[matchIndex].upperBound <= offset { matchIndex += 1 }
                let isMatch = matchIndex < matches.count && matches[matchIndex].contains(offset)
                let inBox = box.map { offset >= $0 && offset < $0 + 3 } ?? false
                x = buffer.write(
                    String(character), at: Point(x: x, y: y),
                    style: inBox ? theme.cursor : isMatch ? theme.highlight : .plain, clipTo: rect)
                offset += 1
            }
            y += 1
        }
    }
}

/// The lines from body line 1 up to `line`, less those at the front that would push `line`
/// past the last few rows of a pane `rows` high (wrapped at `width`), and the number of the
/// first one kept: the preview then shows the marked task with some of what follows it.
private func linesEndingWith(_ line: Int, of lines: inout BodyLines, width: Int, rows: Int)
    -> (lines: [Substring], first: Int)
{
    let room = max(1, rows - min(3, rows / 3))
    var window: [(text: Substring, rows: Int)] = []
    var used = 0
    var number = 0
    // Every line takes a row at least: those more than `room` lines above `line` cannot show,
    // and are only counted, never made safe or wrapped (a far task in a long note).
    while number < line - room, lines.next() != nil { number += 1 }
    var first = number + 1
    while number < line, let text = lines.next() {
        number += 1
        let shown = TerminalSafeText.sanitize(String(text.prefix(rows * width)), mode: .block)
        let height = max(1, WrappedText(shown, width: width).lines.count)
        window.append((text, height))
        used += height
        while used > room, window.count > 1 {
            used -= window.removeFirst().rows
            first += 1
        }
    }
    return (window.map(\.text), first)
}

/// A body's lines one at a time (LF or CRLF ends one), so a long note is never split whole.
struct BodyLines: IteratorProtocol {
    var rest: Substring?

    mutating func next() -> Substring? {
        guard let text = rest else { return nil }
        // Found in UTF-8 (a LF always ends a character, but for CR LF's CR): no grapheme breaking
        // over the text, so reading past a long note's first lines stays cheap.
        guard let newline = text.utf8.firstIndex(of: 0x0A) else {
            rest = nil
            return text
        }
        rest = text[text.utf8.index(after: newline)...]
        var end = newline
        if end > text.startIndex, text.utf8[text.utf8.index(before: end)] == 0x0D { end = text.utf8.index(before: end) }
        return text[..<end]
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
