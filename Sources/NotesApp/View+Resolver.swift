import NotesCore
import TerminalUI

/// The conflict resolver: both versions under their labels, side by side from 80 columns
/// and stacked below, the lines where they differ highlighted; or the merged text being
/// edited after `e`.
func drawResolver(_ resolver: ResolverState, state: AppState, in rect: Rect, on buffer: inout Buffer) {
    guard !rect.isEmpty else { return }
    let theme = state.theme
    let heading =
        "Conflict in “\(resolver.title)”" + (resolver.remaining.isEmpty ? "" : "  (\(resolver.remaining.count) more)")
    buffer.write(display(heading, rect.width), at: rect.origin, style: theme.header, clipTo: rect)
    let body = Rect(x: rect.x, y: rect.y + 1, width: rect.width, height: max(0, rect.height - 1))
    guard let versions = resolver.versions else {
        buffer.write("Loading…", at: body.origin, style: theme.placeholder, clipTo: body)
        return
    }
    if let editing = resolver.editing {
        let text = Rect(x: body.x + 1, y: body.y, width: body.width - 1, height: body.height)
        drawEditorText(editing, focused: true, theme: theme, in: text, on: &buffer)
        return
    }
    let (mineRect, theirsRect) = splitPanes(body)
    let sides = [
        (versions.mine, mineRect, resolver.differingMine), (versions.theirs, theirsRect, resolver.differingTheirs),
    ]
    for (side, pane, differing) in sides {
        guard !pane.isEmpty else { continue }
        let label = Rect(x: pane.x, y: pane.y, width: pane.width, height: 1)
        buffer.write(display(side.label, pane.width), at: label.origin, style: theme.header.underline(), clipTo: label)
        let text = Rect(x: pane.x, y: pane.y + 1, width: pane.width, height: max(0, pane.height - 1))
        drawText(side.text, in: text, theme: theme, scroll: resolver.scroll, highlighting: differing, on: &buffer)
    }
    drawSeparator(state, separatorBetween(mineRect, theirsRect, in: body), on: &buffer)
}
