import NotesCore
import TerminalUI

/// The Trash view: the trashed notes (title, snippet, when trashed), most recently trashed
/// first, and the selected one's text. Side by side from 80 columns, stacked below.
func drawTrash(_ trash: TrashState, state: AppState, in rect: Rect, on buffer: inout Buffer) {
    guard !rect.isEmpty else { return }
    let theme = state.theme
    let (listRect, previewRect) = splitPanes(rect)
    let count = trash.totalCount
    let header = "TRASH · " + (trash.rows == nil ? "loading…" : count == 1 ? "1 note" : "\(count) notes")
    buffer.write(
        TextWidth.clip(header, to: listRect.width, ellipsis: true), at: listRect.origin, style: theme.header,
        clipTo: listRect)
    drawSeparator(state, separatorBetween(listRect, previewRect, in: rect), on: &buffer)
    guard let rows = trash.rows else { return }
    guard !rows.isEmpty else {
        buffer.write(
            "The trash is empty. Esc: back", at: Point(x: listRect.x + 2, y: listRect.y + 1),
            style: theme.placeholder, clipTo: listRect)
        return
    }
    let visible = max(0, listRect.height - 1)
    let first = max(0, min(trash.selection - visible + 1, rows.count - visible))
    for (i, row) in rows.dropFirst(first).prefix(visible).enumerated() {
        let y = listRect.y + 1 + i
        let line = Rect(x: listRect.x, y: y, width: listRect.width, height: 1)
        let textRect = Rect(x: line.x + 2, y: y, width: max(0, line.width - 8), height: 1)
        var x = drawHighlighted(
            row.title.isEmpty ? "Untitled" : row.title, matches: [], style: .plain, highlight: theme.highlight,
            at: textRect.origin, in: textRect, on: &buffer)
        if !row.snippet.isEmpty && x + 3 < textRect.maxX {
            x = drawHighlighted(
                row.snippet, matches: [], style: theme.hint, highlight: theme.highlight, at: Point(x: x + 2, y: y),
                in: textRect, on: &buffer)
        }
        let time = TextWidth.pad(
            RelativeTime.short(row.deletedAt ?? row.modifiedAt, now: state.now), to: 4, alignment: .right)
        buffer.write(time, at: Point(x: line.maxX - 5, y: y), style: theme.hint, clipTo: line)
        if first + i == trash.selection && trash.selectedID == row.id { buffer.setStyle(theme.selected, in: line) }
    }
    guard let selected = trash.selectedRow else { return }
    guard let note = state.preview, note.id == selected.id, previewRect.height > 1 else {
        drawText(selected.title + "\n" + selected.snippet, in: previewRect, theme: theme, on: &buffer)
        return
    }
    // The title, then the body as the list's preview shows it: rendered, or raw after `r` there.
    buffer.write(
        TextWidth.clip(TerminalSafeText.sanitize(note.title), to: previewRect.width, ellipsis: true),
        at: previewRect.origin, style: theme.header, clipTo: previewRect)
    let body = Rect(
        x: previewRect.x, y: previewRect.y + 1, width: previewRect.width, height: previewRect.height - 1)
    if state.previewShowsRaw {
        drawPreviewBody(note.body, terms: [], theme: theme, in: body, on: &buffer)
    } else {
        drawMarkdownBody(
            note.body, index: note.markdownIndex, terms: [], theme: theme, ascii: state.asciiOnly, in: body,
            on: &buffer)
    }
}

/// The question `X` asks in the status bar, while it waits for `y`.
func purgePrompt(_ state: AppState) -> String? {
    guard case .trash(let view) = state.focus, let row = view.confirmingPurge else { return nil }
    return "Delete forever “\(AppState.shortTitle(row.title))”? y/n"
}

/// What the editor says while its note is in the trash (moved there elsewhere).
let trashedNotice = "In the trash · ^R restores it"
