import TerminalUI

/// The `?` overlay's key list, one line each: keys, then what they do; the list's keys
/// first, so a 15-row terminal shows all of them.
let helpLines: [(keys: String, action: String)] = [
    ("j k ↑ ↓", "move"),
    ("g G Home End", "first / last"),
    ("PgUp PgDn", "page"),
    ("/ Esc", "search / back / clear"),
    ("Enter Tab", "open note"),
    ("n f", "new note / favorite"),
    ("d u T", "trash / undo / view"),
    // a: the next attachment of the previewed note, o: open it.
    ("e a o", "$EDITOR / attachments"),
    // Space: tick the previewed note's marked task (or open it again); [ ]: the other tasks.
    ("Space [ ]", "tick task / move"),
    ("s c h", "sync/conflict/history"),
    ("q ^Q", "quit (saves first)"),
    ("N # t", "notebooks/tags/today"),
    // L, ^] (editor): follow a link; r: the preview as written (raw) or rendered as Markdown.
    ("L ^] r", "link / raw preview"),
    // The editor's own keys: shown when the terminal has the rows.
    ("M-u M-e", "editor: undo / redo"),
    ("^S", "editor: save now"),
    ("^R", "editor: out of trash"),
    ("^← ^→", "editor: by word"),
    ("^K ^W", "editor: cut line/word"),
    ("S-← ^Space", "editor: select/mark"),
    ("^X M-w ^U", "editor: clipboard"),
]

/// How many help lines fit inside the box on a terminal of `size`.
func helpRows(_ size: Size) -> Int {
    max(0, min(helpLines.count + 2, size.height) - 2)
}

/// Draws the help box centred in `area`, over whatever is there; on a short terminal it shows
/// the lines from `scroll` and says in its bottom edge that more are below (j/k scroll).
func drawHelp(_ state: AppState, scroll: Int, in area: Rect, on buffer: inout Buffer) {
    let keyColumn = 13
    let inner = keyColumn + 21
    let width = min(inner + 4, area.width)
    let height = min(helpLines.count + 2, area.height)
    let box = Rect(
        x: area.x + (area.width - width) / 2, y: area.y + (area.height - height) / 2, width: width, height: height)
    guard width >= 4, height >= 2 else { return }
    drawBox(box, title: "Keys", style: state.theme.header, on: &buffer)
    let rows = helpRows(area.size)
    let first = max(0, min(scroll, helpLines.count - rows))
    var marks: [String] = []
    if first > 0 { marks.append("↑ k") }
    if first + rows < helpLines.count { marks.append("↓ j more") }
    if !marks.isEmpty {
        let bottom = Rect(x: box.x + 2, y: box.maxY - 1, width: box.width - 4, height: 1)
        buffer.write(
            " " + marks.joined(separator: "  ") + " ", at: bottom.origin, style: state.theme.hint, clipTo: bottom)
    }
    for (i, line) in helpLines[first...].prefix(rows).enumerated() {
        let y = box.y + 1 + i
        let inside = Rect(x: box.x + 2, y: y, width: width - 4, height: 1)
        buffer.write(line.keys, at: inside.origin, style: state.theme.header, clipTo: inside)
        buffer.write(line.action, at: Point(x: inside.x + keyColumn, y: y), clipTo: inside)
    }
}

/// A cleared box with a line border and a title in its top edge.
func drawBox(_ box: Rect, title: String, style: Style, on buffer: inout Buffer) {
    guard box.width >= 2, box.height >= 2 else { return }
    buffer.fill(box)
    let horizontal = String(repeating: "─", count: box.width - 2)
    buffer.write("┌" + horizontal + "┐", at: box.origin, clipTo: box)
    buffer.write("└" + horizontal + "┘", at: Point(x: box.x, y: box.maxY - 1), clipTo: box)
    for y in (box.y + 1)..<(box.maxY - 1) {
        buffer.write("│", at: Point(x: box.x, y: y), clipTo: box)
        buffer.write("│", at: Point(x: box.maxX - 1, y: y), clipTo: box)
    }
    let inner = Rect(x: box.x + 2, y: box.y, width: box.width - 4, height: 1)
    buffer.write(" " + title + " ", at: inner.origin, style: style, clipTo: inner)
}
