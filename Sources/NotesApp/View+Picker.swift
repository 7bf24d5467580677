import TerminalUI

/// Draws the notebook or tag picker centred in `area`: one item a line, `name  count`, the
/// chosen one highlighted; it scrolls to keep the selection in view. A shared notebook's line
/// says, dimmed after its name, who shares it and the role here (the picker widens for it).
func drawPicker(_ picker: PickerState, state: AppState, in area: Rect, on buffer: inout Buffer) {
    let width = min(picker.items.contains { $0.detail != nil } ? 72 : 44, area.width)
    let height = min(picker.items.count + 2, area.height)
    guard width >= 6, height >= 3 else { return }
    let box = Rect(
        x: area.x + (area.width - width) / 2, y: area.y + (area.height - height) / 2, width: width, height: height)
    drawBox(box, title: picker.kind == .notebook ? "Notebooks" : "Tags", style: state.theme.header, on: &buffer)
    let rows = height - 2
    let first = max(0, min(picker.selection - rows + 1, picker.items.count - rows))
    for (offset, item) in picker.items[max(0, first)...].prefix(rows).enumerated() {
        let index = max(0, first) + offset
        let y = box.y + 1 + offset
        let inside = Rect(x: box.x + 2, y: y, width: width - 4, height: 1)
        let count =
            item.query != nil && item.count > PickerItem.maxViewCount
            ? "\(PickerItem.maxViewCount)+" : String(item.count)
        let label = item.query == nil ? item.label : "view: " + item.label
        let room = max(1, inside.width - count.count - 2)
        let name = display(label, item.detail == nil ? room : max(1, min(TextWidth.width(of: label), room / 2)))
        buffer.write(name, at: inside.origin, clipTo: inside)
        if let detail = item.detail {
            let used = TextWidth.width(of: name) + 2
            if room > used {
                buffer.write(
                    display(detail, room - used), at: Point(x: inside.x + used, y: y), style: state.theme.hint,
                    clipTo: inside)
            }
        }
        buffer.write(
            count, at: Point(x: inside.maxX - TextWidth.width(of: count), y: y), style: state.theme.hint, clipTo: inside
        )
        if index == picker.selection {
            for column in inside.minX..<inside.maxX where !buffer[column, y].isContinuation {
                var cell = buffer[column, y]
                cell.style = state.theme.selecting(cell.style, focused: true)
                buffer.set(cell, at: Point(x: column, y: y))
            }
        }
    }
}
