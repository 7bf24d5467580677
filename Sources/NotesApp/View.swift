import Foundation
import NotesCore
import TerminalUI

/// Draws the whole screen for `state` at `size`; pure, so tests compare the Buffer.
///
/// Every piece of note text goes through `TerminalSafeText.sanitize` and is clipped by
/// display width here (ARCHITECTURE §7): nothing relies on terminal autowrap.
public func view(_ state: AppState, _ size: Size) -> Buffer {
    var buffer = Buffer(size: size)
    let layout = Layout(size)
    if case .trash = state.focus {
        buffer.write(
            "Trash: r restore · X delete forever · Esc back", at: layout.search.origin, style: state.theme.header,
            clipTo: layout.search)
    } else {
        drawSearchField(state, in: layout.search, on: &buffer)
    }
    switch state.focus {
    case .history(let history):
        drawHistory(history, state: state, in: layout.middle, on: &buffer)
    case .resolver(let resolver):
        drawResolver(resolver, state: state, in: layout.middle, on: &buffer)
    case .trash(let trash):
        drawTrash(trash, state: state, in: layout.middle, on: &buffer)
    case .list, .search, .editor, .help, .picker:
        drawList(state, in: layout.list, on: &buffer)
        drawSeparator(state, layout.separator, on: &buffer)
        if state.paneShowsEditor {
            drawEditor(state.editor, state: state, in: layout.preview, on: &buffer)
        } else {
            drawPreview(state, in: layout.preview, on: &buffer)
        }
    }
    drawStatusBar(state, in: layout.status, on: &buffer)
    switch state.focus {
    case .picker(let picker): drawPicker(picker, state: state, in: layout.middle, on: &buffer)
    case .help(let scroll): drawHelp(state, scroll: scroll, in: Rect(origin: .zero, size: size), on: &buffer)
    case .list, .search, .editor, .history, .resolver, .trash: break
    }
    if let unlock = state.unlock { drawUnlock(unlock, state: state, in: Rect(origin: .zero, size: size), on: &buffer) }
    if state.asciiOnly { asciiFallback(&buffer) }
    return buffer
}

/// Note text made safe for one line and clipped to `columns`.
func display(_ text: String, _ columns: Int, ellipsis: Bool = true) -> String {
    TextWidth.clip(TerminalSafeText.sanitize(text), to: columns, ellipsis: ellipsis)
}

func drawSearchField(_ state: AppState, in rect: Rect, on buffer: inout Buffer) {
    guard !rect.isEmpty else { return }
    let prompt = "/ "
    var rect = rect
    if let zone = state.notebookFilter {
        // The notebook the list is filtered to, by name, at the right end of the line.
        let name = " ▸ " + display(state.notebookNames[zone] ?? zone, max(1, rect.width / 3)) + " "
        let width = TextWidth.width(of: name)
        if width < rect.width / 2 {
            buffer.write(name, at: Point(x: rect.maxX - width, y: rect.y), style: state.theme.header, clipTo: rect)
            rect = Rect(x: rect.x, y: rect.y, width: rect.width - width, height: rect.height)
        }
    }
    let x = buffer.write(prompt, at: rect.origin, style: state.theme.header, clipTo: rect)
    if state.searchText.isEmpty && state.focus != .search {
        buffer.write("search", at: Point(x: x, y: rect.y), style: state.theme.placeholder, clipTo: rect)
        return
    }
    let room = rect.width - TextWidth.width(of: prompt) - 1
    // Each character made safe on its own, so the cursor (a character index) maps onto them.
    let characters = state.searchText.map { TerminalSafeText.sanitize(String($0)) }
    let cursor = state.searchCursor
    let editing = state.focus == .search
    // While typing, the cursor stays in view: characters before it scroll off the left.
    var first = 0
    let through = editing ? min(cursor + 1, characters.count) : characters.count
    while first < through, TextWidth.width(of: characters[first..<through].joined()) > room { first += 1 }
    var end = x
    for index in first..<characters.count {
        let style: Style = editing && index == cursor ? Style().reverse() : .plain
        let next = buffer.write(characters[index], at: Point(x: end, y: rect.y), style: style, clipTo: rect)
        if next == end { break }
        end = next
    }
    if editing && cursor >= characters.count {
        end = buffer.write("▏", at: Point(x: end, y: rect.y), clipTo: rect)
    }
    // A word that looks like an operator but is not one: what was likely meant, after the text.
    if let hint = SearchQuery(parsing: state.searchText).hints.first, rect.maxX - end > 4 {
        let advice = display(hint.advice, rect.maxX - end - 2)
        buffer.write(advice, at: Point(x: end + 2, y: rect.y), style: state.theme.placeholder, clipTo: rect)
    }
}

func drawList(_ state: AppState, in rect: Rect, on buffer: inout Buffer) {
    guard !rect.isEmpty else { return }
    if state.rowCount == 0 {
        let text = state.searchResults == nil ? "No notes. n: new note" : "No matches"
        buffer.write(text, at: Point(x: rect.x + 2, y: rect.y), style: state.theme.placeholder, clipTo: rect)
        return
    }
    for i in 0..<rect.height {
        let y = rect.y + i
        switch state.listLine(state.scrollOffset + i) {
        case .header(let name):
            buffer.write(name, at: Point(x: rect.x, y: y), style: state.theme.header, clipTo: rect)
        case .row(let index):
            if let row = state.row(at: index) {
                let selected = index == state.selection && state.selectedRow?.id == row.id
                drawRow(row, selected: selected, state: state, y: y, in: rect, on: &buffer)
            } else {
                // Not loaded yet: the window is on its way.
                buffer.write("  …", at: Point(x: rect.x, y: y), style: state.theme.placeholder, clipTo: rect)
            }
        case nil:
            break
        }
    }
}

/// `★ title  snippet…   2m ✓`: star, title, the snippet (dim), relative time right-aligned
/// in 4 columns (`268d`: the unit is never cut), sync mark. Search matches in title and snippet are highlighted.
func drawRow(_ row: NoteRow, selected: Bool, state: AppState, y: Int, in rect: Rect, on buffer: inout Buffer) {
    let theme = state.theme
    let lineRect = Rect(x: rect.x, y: y, width: rect.width, height: 1)
    let textRect = Rect(x: rect.x + 2, y: y, width: max(0, rect.width - 10), height: 1)
    if row.isFavorite {
        buffer.write("★", at: Point(x: rect.x, y: y), style: theme.favorite, clipTo: lineRect)
    }
    let title = row.title.isEmpty ? "Untitled" : row.title
    var x = drawHighlighted(
        title, matches: row.title.isEmpty ? [] : row.titleMatches, style: .plain, highlight: theme.highlight,
        at: textRect.origin, in: textRect, on: &buffer)
    if !row.snippet.isEmpty && x + 3 < textRect.maxX {
        x = drawHighlighted(
            row.snippet, matches: row.snippetMatches, style: theme.hint, highlight: theme.highlight,
            at: Point(x: x + 2, y: y), in: textRect, on: &buffer)
    }
    let time = TextWidth.pad(RelativeTime.short(row.modifiedAt, now: state.now), to: 4, alignment: .right)
    buffer.write(time, at: Point(x: rect.maxX - 7, y: y), style: theme.hint, clipTo: lineRect)
    let mark = syncMark(row.syncState)
    buffer.write(mark, at: Point(x: rect.maxX - 2, y: y), style: theme.mark(row.syncState), clipTo: lineRect)
    if selected {
        let focused = state.focus == .list || state.focus == .search
        // The selection shows over the row; highlighted matches keep their emphasis.
        for column in lineRect.minX..<lineRect.maxX where !buffer[column, y].isContinuation {
            var cell = buffer[column, y]
            cell.style = theme.selecting(cell.style, focused: focused)
            buffer.set(cell, at: Point(x: column, y: y))
        }
    }
}

func syncMark(_ state: Note.SyncState) -> String {
    switch state {
    case .synced: "✓"
    case .pending: "↻"
    case .conflict: "⚠"
    }
}

/// Writes untrusted one-line `text` made safe, ending in "…" when it does not fit `rect`,
/// with the characters in `matches` (Character ranges of the raw text) in `highlight`.
/// Returns the column after the last cell written.
///
/// Printable ASCII characters go to the buffer in runs of one style (a list row is mostly
/// such runs; a call per character was most of a repaint's row drawing); any other character
/// is made safe and written on its own. The cells are those a write per character leaves.
@discardableResult
func drawHighlighted(
    _ text: String, matches: [Range<Int>], style: Style, highlight: Style, at point: Point, in rect: Rect,
    on buffer: inout Buffer
) -> Int {
    let printable = text.utf8.allSatisfy { $0 >= 0x20 && $0 < 0x7F }
    let width = printable ? text.utf8.count : TextWidth.width(of: TerminalSafeText.sanitize(text))
    let limit = width <= rect.maxX - point.x ? rect.maxX : rect.maxX - 1
    var x = point.x
    var matchIndex = 0
    // The plain characters not written yet: where they start and end in `text`, their count,
    // and whether they are matched.
    var run: (start: String.Index, end: String.Index, count: Int, isMatch: Bool)?
    func flush() {
        guard let pending = run else { return }
        run = nil
        x = buffer.write(
            text[pending.start..<pending.end], at: Point(x: x, y: point.y),
            style: pending.isMatch ? highlight : style, clipTo: rect)
    }
    var index = text.startIndex
    var offset = 0
    while index < text.endIndex {
        let character = text[index]
        let next = text.index(after: index)
        defer { (index, offset) = (next, offset + 1) }
        while matchIndex < matches.count && matches[matchIndex].upperBound <= offset { matchIndex += 1 }
        let isMatch = matchIndex < matches.count && matches[matchIndex].contains(offset)
        if character.asciiValue.map({ $0 >= 0x20 && $0 < 0x7F }) ?? false {
            let pending = run?.count ?? 0
            if x + pending + 1 > limit {
                flush()
                return buffer.write("…", at: Point(x: x, y: point.y), style: style, clipTo: rect)
            }
            if let current = run, current.isMatch == isMatch {
                run = (current.start, next, current.count + 1, isMatch)
            } else {
                flush()
                run = (index, next, 1, isMatch)
            }
            continue
        }
        flush()
        let shown = TerminalSafeText.sanitize(String(character))
        if x + TextWidth.width(of: shown) > limit {
            return buffer.write("…", at: Point(x: x, y: point.y), style: style, clipTo: rect)
        }
        x = buffer.write(shown, at: Point(x: x, y: point.y), style: isMatch ? highlight : style, clipTo: rect)
    }
    flush()
    return x
}

func drawSeparator(_ state: AppState, _ separator: Rect, on buffer: inout Buffer) {
    buffer.fill(separator, with: separator.width == 1 ? "│" : "─", style: state.theme.hint)
}

/// The editor pane while no note is open there: the selected note's title, then its body
/// rendered as Markdown (raw after `r`) and wrapped to the pane once `Effect.loadPreview` brought it (the snippet until then). In a
/// search the body starts at the line of the first match and every match is highlighted.
func drawPreview(_ state: AppState, in rect: Rect, on buffer: inout Buffer) {
    guard !rect.isEmpty, let row = state.selectedRow else { return }
    let inner = Rect(x: rect.x + 1, y: rect.y, width: max(0, rect.width - 1), height: rect.height)
    guard !inner.isEmpty else { return }
    let theme = state.theme
    drawHighlighted(
        row.title, matches: row.titleMatches, style: theme.header, highlight: theme.highlight,
        at: Point(x: inner.x, y: inner.y), in: inner, on: &buffer)
    guard inner.height > 1 else { return }
    let body = Rect(x: inner.x, y: inner.y + 1, width: inner.width, height: inner.height - 1)
    guard let note = state.preview, note.id == row.id else {
        buffer.write(display(row.snippet, body.width), at: Point(x: body.x, y: body.y), clipTo: body)
        if body.height > 1 {
            buffer.write("Enter: open", at: Point(x: body.x, y: body.y + 1), style: theme.placeholder, clipTo: body)
        }
        return
    }
    if let notebook = note.notebook {
        // The notebook, right-aligned on the title line when there is room after the title.
        let name = " " + display(notebook, max(1, inner.width / 3))
        let width = TextWidth.width(of: name)
        let titleEnd = inner.x + TextWidth.width(of: TerminalSafeText.sanitize(row.title))
        if titleEnd + width < inner.maxX {
            buffer.write(name, at: Point(x: inner.maxX - width, y: inner.y), style: theme.hint, clipTo: inner)
        }
    }
    var text = body
    if !note.backlinks.isEmpty && body.height > 2 {
        // The last line lists the notes that link here.
        let line = "← " + note.backlinks.map { TerminalSafeText.sanitize($0) }.joined(separator: " · ")
        buffer.write(
            display(line, body.width), at: Point(x: body.x, y: body.maxY - 1), style: theme.hint, clipTo: body)
        text = Rect(x: body.x, y: body.y, width: body.width, height: body.height - 1)
    }
    let terms =
        state.searchResults == nil ? [] : SearchQuery(parsing: state.searchText).highlightTerms.map(TextFolding.fold)
    let listed = drawAttachments(note.attachments, selected: state.attachmentIndex, theme: theme, in: text, on: &buffer)
    // The task Space ticks, marked while the list has the keys.
    let task =
        state.focus == .list && note.tasks.indices.contains(state.taskIndex)
        ? PreviewTaskMark(line: note.tasks[state.taskIndex].line, follows: state.taskCursorMoved) : nil
    let bodyRect = Rect(x: text.x, y: text.y, width: text.width, height: text.height - listed)
    if state.previewShowsRaw {
        drawPreviewBody(note.body, terms: terms, task: task, theme: theme, in: bodyRect, on: &buffer)
    } else {
        drawMarkdownBody(
            note.body, index: note.markdownIndex, terms: terms, task: task, theme: theme, ascii: state.asciiOnly,
            in: bodyRect, on: &buffer)
    }
}
