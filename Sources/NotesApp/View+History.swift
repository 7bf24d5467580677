import NotesCore
import TerminalUI

/// The history view: the revisions (when, which device, title) and the selected one's text.
/// Side by side from 80 columns, stacked below.
func drawHistory(_ history: HistoryState, state: AppState, in rect: Rect, on buffer: inout Buffer) {
    guard !rect.isEmpty else { return }
    let theme = state.theme
    let (listRect, previewRect) = splitPanes(rect)
    buffer.write(
        display("History of “\(history.title)”", listRect.width), at: listRect.origin, style: theme.header,
        clipTo: listRect)
    guard let entries = history.entries else {
        buffer.write(
            "Loading…", at: Point(x: listRect.x, y: listRect.y + 1), style: theme.placeholder, clipTo: listRect)
        return
    }
    let rows = max(0, listRect.height - 1)
    let first = max(0, min(history.selection - rows + 1, entries.count - rows))
    for (i, entry) in entries.dropFirst(first).prefix(rows).enumerated() {
        let index = first + i
        let y = listRect.y + 1 + i
        let line = Rect(x: listRect.x, y: y, width: listRect.width, height: 1)
        let when = index == 0 ? "current" : RelativeTime.long(entry.date, now: state.now)
        let label = entry.body == nil ? "deleted" : entry.title
        let text = TextWidth.pad(when, to: 12) + " " + TextWidth.pad(display(entry.device, 10), to: 10) + " "
        let x = buffer.write(text, at: line.origin, style: theme.hint, clipTo: line)
        buffer.write(display(label, line.maxX - x), at: Point(x: x, y: y), clipTo: line)
        if index == history.selection { buffer.setStyle(theme.selected, in: line) }
    }
    drawSeparator(state, separatorBetween(listRect, previewRect, in: rect), on: &buffer)
    if let entry = history.selectedEntry {
        drawText(entry.body.map { entry.title + "\n" + $0 } ?? "(deleted)", in: previewRect, theme: theme, on: &buffer)
    }
}

/// Splits `rect` into two panes with a separator: side by side when wide, stacked otherwise.
func splitPanes(_ rect: Rect) -> (Rect, Rect) {
    if rect.width >= Layout.sideBySideMinWidth {
        let left = rect.width / 2
        return (
            Rect(x: rect.x, y: rect.y, width: left - 1, height: rect.height),
            Rect(x: rect.x + left + 1, y: rect.y, width: rect.width - left - 1, height: rect.height)
        )
    }
    let top = rect.height / 2
    return (
        Rect(x: rect.x, y: rect.y, width: rect.width, height: top),
        Rect(x: rect.x, y: rect.y + top + 1, width: rect.width, height: max(0, rect.height - top - 1))
    )
}

/// The column or row between two panes from `splitPanes`.
func separatorBetween(_ first: Rect, _ second: Rect, in rect: Rect) -> Rect {
    first.maxX < second.x
        ? Rect(x: first.maxX, y: rect.y, width: 1, height: rect.height)
        : Rect(x: rect.x, y: first.maxY, width: rect.width, height: 1)
}

/// Untrusted multi-line text, made safe (block mode) and soft-wrapped into `rect`, from
/// visual row `scroll`; the first line bold. Only what fills the rect is split and wrapped, so
/// a 10 MB revision draws as fast as a short one.
func drawText(
    _ text: String, in rect: Rect, theme: Theme, scroll: Int = 0, highlighting: Set<Int> = [], on buffer: inout Buffer
) {
    guard !rect.isEmpty else { return }
    let utf8 = text.utf8
    var start = utf8.startIndex
    var y = rect.y
    var skip = scroll
    var number = 0
    while y < rect.maxY {
        // A row holds at most `width` characters, so a line longer than the rows left cannot
        // show its end: look for its end only that far (in bytes, generously), never through
        // megabytes of one line.
        let needed = (skip + rect.maxY - y) * rect.width
        var limit = utf8.index(start, offsetBy: needed * 8 + 64, limitedBy: utf8.endIndex) ?? utf8.endIndex
        while limit < utf8.endIndex && utf8[limit] & 0xC0 == 0x80 { limit = utf8.index(before: limit) }
        let found = utf8[start..<limit].firstIndex(of: 0x0A)
        let end = found ?? limit
        // CRLF ends a line as LF does.
        let isCRLF = found != nil && end > start && utf8[utf8.index(before: end)] == 0x0D
        let lineEnd = isCRLF ? utf8.index(before: end) : end
        let line = Substring(utf8[start..<lineEnd]).prefix(needed)
        let wrapped = WrappedText(TerminalSafeText.sanitize(String(line), mode: .block), width: rect.width)
        for row in wrapped.texts {
            if skip > 0 {
                skip -= 1
                continue
            }
            guard y < rect.maxY else { return }
            let style = highlighting.contains(number) ? theme.changedLine : number == 0 ? theme.header : .plain
            buffer.write(row, at: Point(x: rect.x, y: y), style: style, clipTo: rect)
            y += 1
        }
        guard let found else { return }
        start = utf8.index(after: found)
        number += 1
    }
}
