import NotesCore
import TerminalUI

/// The preview's body rendered as Markdown (`MarkdownPreview`), the rendered counterpart of
/// `drawPreviewBody` (`r` switches between them): search matches highlighted over the rendered
/// text, starting at the first line with a match, or so that the marked task shows when it
/// `follows`; the marked task's box in the cursor style. Only the lines that can show are
/// rendered: those before the first one drawn are only read for their block state.
func drawMarkdownBody(
    _ body: String, index: MarkdownIndex? = nil, terms: [String], task: PreviewTaskMark? = nil, theme: Theme,
    ascii: Bool, in rect: Rect, on buffer: inout Buffer
) {
    guard !rect.isEmpty else { return }
    var first = 1
    if let task, task.follows {
        // Every line takes a row at least: lines more than a pane above the task cannot show.
        first = max(1, task.line - rect.height + 1)
    } else if !terms.isEmpty, let match = firstMatchLine(body, terms: terms) {
        first = match
    }
    var reader = MarkdownPreview(
        body, theme: theme, ascii: ascii, maxCharacters: rect.height * rect.width, renderFrom: first,
        from: index?.checkpoint(before: first))
    var pending: [PreviewLine] = []
    if let task, task.follows {
        // The lines up to the task, less those at the front that would push it past the last
        // few rows: the task shows with some of what follows it.
        let room = max(1, rect.height - min(3, rect.height / 3))
        var used = 0
        while let line = reader.next() {
            guard line.source >= first else { continue }
            pending.append(line)
            used += previewRows(line, width: rect.width)
            while used > room, pending.count > 1 { used -= previewRows(pending.removeFirst(), width: rect.width) }
            if line.source >= task.line { break }
        }
    } else {
        while let line = reader.next() {
            guard line.source >= first else { continue }
            pending = [line]
            break
        }
    }
    var y = rect.y
    while y < rect.maxY, let line = pending.isEmpty ? reader.next() : pending.removeFirst() {
        y = drawPreviewLine(
            line, marked: task?.line == line.source, terms: terms, theme: theme, at: y, in: rect, on: &buffer)
    }
}

/// The number of the first body line (from 1) with a match of `terms`, looking no further
/// than `previewMatchScanLines`.
private func firstMatchLine(_ body: String, terms: [String]) -> Int? {
    var lines = BodyLines(rest: body[...])
    var number = 0
    while number < previewMatchScanLines, let line = lines.next() {
        number += 1
        // The raw line: only its number is wanted (the rendered line is matched again, made safe).
        if !SearchHighlighter.ranges(of: terms, in: String(line)).isEmpty {
            return number
        }
    }
    return nil
}

/// How many rows `line` takes in a pane `width` columns wide.
func previewRows(_ line: PreviewLine, width: Int) -> Int {
    guard line.fill == nil else { return 1 }
    let rows = line.wraps ? WrappedText(line.contentText, width: contentWidth(line, width)).lines.count : 1
    return max(1, rows) + (line.below == nil ? 0 : 1)
}

/// The columns left for a line's text after its prefix.
private func contentWidth(_ line: PreviewLine, _ width: Int) -> Int {
    max(1, width - TextWidth.width(of: line.prefix.map(\.text).joined()))
}

/// Draws `line` from row `y` (its task box in the cursor style when `marked`); returns the row
/// after it.
func drawPreviewLine(
    _ line: PreviewLine, marked: Bool, terms: [String], theme: Theme, at y: Int, in rect: Rect, on buffer: inout Buffer
) -> Int {
    if let fill = line.fill {
        buffer.write(
            String(repeating: fill, count: rect.width), at: Point(x: rect.x, y: y), style: theme.markup, clipTo: rect)
        return y + 1
    }
    var left = rect.x
    for (index, span) in line.prefix.enumerated() {
        let style = marked && index == line.box ? theme.cursor : span.style
        left = buffer.write(span.text, at: Point(x: left, y: y), style: style, clipTo: rect)
    }
    let text = line.contentText
    var styles: [Style] = []
    for span in line.content { styles += repeatElement(span.style, count: span.text.count) }
    let matches = SearchHighlighter.ranges(of: terms, in: text)
    let rows =
        line.wraps
        ? WrappedText(text, width: contentWidth(line, rect.width)).lines
        : [WrappedText.Line(start: 0, count: text.count, text: text, width: 0)]
    var y = y
    var widest = 0
    for row in rows {
        guard y < rect.maxY else { return y }
        var x = left
        var offset = row.start
        var matchIndex = 0
        for character in row.text {
            guard x < rect.maxX else { break }
            while matchIndex < matches.count && matches[matchIndex].upperBound <= offset { matchIndex += 1 }
            let isMatch = matchIndex < matches.count && matches[matchIndex].contains(offset)
            let style = offset < styles.count ? styles[offset] : .plain
            x = buffer.write(
                String(character), at: Point(x: x, y: y), style: isMatch ? style.adding(theme.highlight) : style,
                clipTo: rect)
            offset += 1
        }
        widest = max(widest, x - left)
        y += 1
    }
    if rows.isEmpty { y += 1 }
    if let below = line.below, y < rect.maxY {
        buffer.write(
            String(repeating: below, count: max(1, widest)), at: Point(x: left, y: y), style: theme.markup,
            clipTo: rect)
        y += 1
    }
    return y
}

/// The status bar's hint for `r`: what pressing it shows.
func previewModeHint(_ state: AppState) -> String {
    state.previewShowsRaw ? "r rendered" : "r raw"
}
