import NotesCore
import TerminalUI

/// Draws the open note in the editor pane (or "Loading…" until its text arrives).
func drawEditor(_ slot: EditorSlot, state: AppState, in pane: Rect, on buffer: inout Buffer) {
    guard !pane.isEmpty else { return }
    let rect = Layout(state.size).editorText
    switch slot {
    case .closed:
        break
    case .loading:
        buffer.write("Loading…", at: rect.origin, style: state.theme.placeholder, clipTo: rect)
    case .loaded(let open):
        drawEditorText(open.textEditor, focused: state.focus == .editor, theme: state.theme, in: rect, on: &buffer)
    }
}

/// Draws an editor's visible rows only, every character through `SafeGlyphs` (so `ESC [ 2 J`
/// shows as `␛[2J`), the title line bold, the selection in the theme's selection style, and the
/// cursor as a reversed cell when `focused` (the selection is underlined too, so the cursor
/// beside it shows). TABs reach the next tab stop (`SafeGlyphs.tabStop`).
func drawEditorText(
    _ editor: TextEditor<SafeGlyphs>, focused: Bool, theme: Theme, in rect: Rect, on buffer: inout Buffer
) {
    let glyphs = editor.measure
    let selection = editor.selection
    for (i, row) in editor.visibleRows.enumerated() {
        let y = rect.y + i
        let lineStyle = row.line == 0 ? theme.header : Style.plain
        var x = rect.x
        for (offset, character) in row.text.enumerated() {
            var style = lineStyle
            if let selection, selection.contains(TextPosition(line: row.line, column: row.columns.lowerBound + offset))
            {
                style = theme.selected.underline()
            }
            let columns = glyphs.columns(of: character, at: x - rect.x)
            // Spaces hanging past the edge are not drawn.
            if x + columns > rect.maxX { break }
            // A TAB reaches the next tab stop: blank cells (selected ones highlighted).
            var shown = character == "\t" ? String(repeating: " ", count: columns) : glyphs.display(character)
            // A lone combining mark is drawn on a dotted circle, as Unicode charts show it.
            if TextWidth.width(of: shown) == 0 { shown = "◌" + shown }
            buffer.write(shown, at: Point(x: x, y: y), style: style, clipTo: rect)
            x += columns
        }
    }
    guard focused else { return }
    let cursor = editor.cursorLocation
    let point = Point(x: rect.x + cursor.x, y: rect.y + cursor.y)
    guard rect.contains(point), buffer.area.contains(point) else { return }
    var cell = buffer[point]
    if cell.isContinuation { cell = Cell(" ") }
    cell.style = theme.cursor
    buffer.set(cell, at: point)
}
