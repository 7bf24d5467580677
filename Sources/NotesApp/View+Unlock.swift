import TerminalUI

/// The passphrase dialog, centred over the screen: a field of •, the last error, the keys.
func drawUnlock(_ prompt: UnlockPrompt, state: AppState, in area: Rect, on buffer: inout Buffer) {
    let width = min(56, area.width)
    let height = min(6, area.height)
    guard width >= 8, height >= 3 else { return }
    let box = Rect(
        x: area.x + (area.width - width) / 2, y: area.y + (area.height - height) / 2, width: width, height: height)
    buffer.fill(box, with: " ")
    drawBox(box, title: "Encrypted cloud folder", style: state.theme.header, on: &buffer)
    let inner = Rect(x: box.x + 2, y: box.y + 1, width: box.width - 4, height: box.height - 2)
    var lines: [(String, Style)] = [("Passphrase:", .plain)]
    let dots = String(repeating: "•", count: min(prompt.entered.count, inner.width - 1))
    lines.append((prompt.checking ? "Checking…" : dots + "▏", prompt.checking ? state.theme.hint : .plain))
    if let error = prompt.error {
        lines.append((error, Style().foreground(state.theme.error).bold()))
    } else {
        lines.append(("Enter unlock · Esc later (s asks again)", state.theme.hint))
    }
    for (i, line) in lines.prefix(inner.height).enumerated() {
        let row = Rect(x: inner.x, y: inner.y + i, width: inner.width, height: 1)
        buffer.write(
            TextWidth.clip(line.0, to: inner.width, ellipsis: true), at: row.origin, style: line.1, clipTo: row)
    }
}
