import TerminalUI

extension AppState {
    /// Rows the wheel moves per notch.
    static let wheelStep = 3

    /// A click selects a list row (or puts the editor's cursor where it points); the wheel
    /// scrolls the pane under the pointer.
    mutating func mouse(_ mouse: InputEvent.Mouse) -> [Effect] {
        switch focus {
        case .help, .history, .resolver, .trash: return []
        case .list, .search, .editor, .picker: break
        }
        let layout = Layout(size)
        let point = mouse.location
        if layout.list.contains(point) {
            switch mouse {
            case .click:
                guard case .row(let index) = listLine(scrollOffset + point.y - layout.list.y) else { return [] }
                if focus != .search { focus = .list }
                return moveSelection(to: index)
            case .wheelUp: return moveSelection(by: -Self.wheelStep)
            case .wheelDown: return moveSelection(by: Self.wheelStep)
            }
        }
        guard layout.preview.contains(point), paneShowsEditor, case .loaded = editor else { return [] }
        let text = layout.editorText
        switch mouse {
        case .click:
            focus = .editor
            return editText { $0.moveCursor(toScreen: Point(x: point.x - text.x, y: point.y - text.y)) }
        case .wheelUp:
            return editText { editor in for _ in 0..<Self.wheelStep { editor.move(.up) } }
        case .wheelDown:
            return editText { editor in for _ in 0..<Self.wheelStep { editor.move(.down) } }
        }
    }
}
