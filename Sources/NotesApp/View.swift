import Foundation
import NotesCore
import TerminalUI

/// Draws the whole screen for `state` at `size`; pure, so tests compare the Buffer.
///
/// Every piece of note text goes through `TerminalSafeText.sanitize` and is clipped by
/// display width here (DESIGN §7): nothing relies on terminal autowrap.
public func view(_ state: AppState, _ size: Size) -> Buffer {
    var buffer = Buffer(size: size)
    let layout = Layout(size)
    drawSearchField(state, in: layout.search, on: &buffer)
    drawList(state, in: layout.list, on: &buffer)
    drawPreview(state, layout: layout, on: &buffer)
    drawStatusBar(state, in: layout.status, on: &buffer)
    if state.focus == .help { drawHelp(in: Rect(origin: .zero, size: size), on: &buffer) }
    return buffer
}

/// Note text made safe for one line and clipped to `columns`.
func display(_ text: String, _ columns: Int, ellipsis: Bool = true) -> String {
    TextWidth.clip(TerminalSafeText.sanitize(text), to: columns, ellipsis: ellipsis)
}

func drawSearchField(_ state: AppState, in rect: Rect, on buffer: inout Buffer) {
    guard !rect.isEmpty else { return }
    let prompt = "/ "
    let x = buffer.write(prompt, at: rect.origin, style: Theme.header, clipTo: rect)
    if state.searchText.isEmpty && state.focus != .search {
        buffer.write("search", at: Point(x: x, y: rect.y), style: Theme.placeholder, clipTo: rect)
        return
    }
    let room = rect.width - TextWidth.width(of: prompt) - 1
    // While typing, the end of a long query stays in view.
    let text = TerminalSafeText.sanitize(state.searchText)
    var shown = text
    while TextWidth.width(of: shown) > room, !shown.isEmpty { shown.removeFirst() }
    let end = buffer.write(shown, at: Point(x: x, y: rect.y), clipTo: rect)
    if state.focus == .search {
        buffer.write("▏", at: Point(x: end, y: rect.y), clipTo: rect)
    }
}

func drawList(_ state: AppState, in rect: Rect, on buffer: inout Buffer) {
    guard !rect.isEmpty else { return }
    let lines = state.listLines
    if lines.isEmpty {
        let text = state.searchResults == nil ? "No notes. n: new note" : "No matches"
        buffer.write(text, at: Point(x: rect.x + 2, y: rect.y), style: Theme.placeholder, clipTo: rect)
        return
    }
    for (i, line) in lines.dropFirst(state.scrollOffset).prefix(rect.height).enumerated() {
        let y = rect.y + i
        switch line {
        case .header(let name):
            buffer.write(name, at: Point(x: rect.x, y: y), style: Theme.header, clipTo: rect)
        case .row(let index, let row):
            drawRow(row, selected: index == state.selection, state: state, y: y, in: rect, on: &buffer)
        }
    }
}

/// `★ title…   2m ✓`: star, title, relative time right-aligned in 3 columns, sync mark.
func drawRow(_ row: NoteRow, selected: Bool, state: AppState, y: Int, in rect: Rect, on buffer: inout Buffer) {
    let lineRect = Rect(x: rect.x, y: y, width: rect.width, height: 1)
    let titleWidth = max(0, rect.width - 9)
    if row.isFavorite {
        buffer.write("★", at: Point(x: rect.x, y: y), style: Theme.favorite, clipTo: lineRect)
    }
    let title = row.title.isEmpty ? "Untitled" : row.title
    buffer.write(display(title, titleWidth), at: Point(x: rect.x + 2, y: y), clipTo: lineRect)
    let time = TextWidth.pad(RelativeTime.short(row.modifiedAt, now: state.now), to: 3, alignment: .right)
    buffer.write(time, at: Point(x: rect.maxX - 6, y: y), style: Theme.hint, clipTo: lineRect)
    let mark = Theme.mark(row.syncState)
    buffer.write(mark.glyph, at: Point(x: rect.maxX - 2, y: y), style: mark.style, clipTo: lineRect)
    if selected {
        let focused = state.focus == .list || state.focus == .search
        buffer.setStyle(focused ? Theme.selected : Theme.selectedUnfocused, in: lineRect)
    }
}

/// The editor pane's place: for now it shows the selected note's title and snippet.
func drawPreview(_ state: AppState, layout: Layout, on buffer: inout Buffer) {
    let separator = layout.separator
    if separator.width == 1 {
        buffer.fill(separator, with: "│", style: Theme.hint)
    } else {
        buffer.fill(separator, with: "─", style: Theme.hint)
    }
    let rect = layout.preview
    guard !rect.isEmpty, let row = state.selectedRow else { return }
    let style = state.focus == .editor ? Theme.header.underline() : Theme.header
    buffer.write(display(row.title, rect.width - 1), at: Point(x: rect.x + 1, y: rect.y), style: style, clipTo: rect)
    if rect.height > 1 {
        buffer.write(display(row.snippet, rect.width - 1), at: Point(x: rect.x + 1, y: rect.y + 1), clipTo: rect)
    }
}
