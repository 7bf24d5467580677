import TerminalUI

extension TextEditor {
    /// Applies one editing key (the editor pane's and the resolver's); keys it does not know
    /// change nothing.
    ///
    /// Undo and redo are Alt-U and Alt-E as in nano (the runtime keeps Ctrl-Z for suspending
    /// to the shell), and Ctrl-Z / Ctrl-Y where a backend passes them on. Word motion is
    /// Ctrl or Alt with ←→, and Alt-B / Alt-F as in readline.
    mutating func apply(_ key: InputEvent.Key, _ modifiers: InputEvent.Modifiers) {
        let word = modifiers.contains(.control) || modifiers.contains(.alt)
        switch (key, word) {
        case (.character("u"), true) where modifiers == .alt: undo()
        case (.character("e"), true) where modifiers == .alt: redo()
        case (.character("z"), true) where modifiers == .control: undo()
        case (.character("y"), true) where modifiers == .control: redo()
        case (.character("b"), true) where modifiers == .alt: move(.wordLeft)
        case (.character("f"), true) where modifiers == .alt: move(.wordRight)
        case (.character(let character), false): insert(String(character))
        case (.enter, _): insert("\n")
        case (.tab, false): insert("\t")
        case (.backspace, _): backspace()
        case (.delete, _): deleteForward()
        case (.left, false): move(.left)
        case (.right, false): move(.right)
        case (.left, true): move(.wordLeft)
        case (.right, true): move(.wordRight)
        case (.up, _): move(.up)
        case (.down, _): move(.down)
        case (.home, false): move(.lineStart)
        case (.end, false): move(.lineEnd)
        case (.home, true): move(.textStart)
        case (.end, true): move(.textEnd)
        case (.pageUp, _): move(.pageUp)
        case (.pageDown, _): move(.pageDown)
        default: break
        }
    }
}
