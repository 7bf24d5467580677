import TerminalUI

extension TextEditor {
    /// Applies one editing key (the editor pane's and the resolver's); keys it does not know
    /// change nothing. The clipboard's keys (`^K` `^W` `^X` `M-w` `M-6` `^U`) are the pane's,
    /// in `AppState.editorKey`.
    ///
    /// Undo and redo are Alt-U and Alt-E as in nano (the runtime keeps Ctrl-Z for suspending
    /// to the shell), and Ctrl-Z / Ctrl-Y where a backend passes them on. Word motion is
    /// Ctrl or Alt with ←→, and Alt-B / Alt-F as in readline; Ctrl-W and Alt-Backspace delete
    /// the word before the cursor. Shift with a motion key selects; Ctrl-Space (or Ctrl-@, the
    /// same byte) sets the mark, after which motion selects, as in nano and emacs.
    mutating func apply(_ key: InputEvent.Key, _ modifiers: InputEvent.Modifiers) {
        if modifiers.contains(.shift), let motion = Self.motion(for: key, modifiers.subtracting(.shift)) {
            extendSelection(motion)
            return
        }
        let word = modifiers.contains(.control) || modifiers.contains(.alt)
        switch (key, word) {
        case (.character("u"), true) where modifiers == .alt: undo()
        case (.character("e"), true) where modifiers == .alt: redo()
        case (.character("z"), true) where modifiers == .control: undo()
        case (.character("y"), true) where modifiers == .control: redo()
        case (.character(" "), true) where modifiers == .control: toggleMark()
        case (.character("@"), true) where modifiers == .control: toggleMark()
        case (.character("w"), true) where modifiers == .control: deleteWordBackward()
        case (.backspace, true): deleteWordBackward()
        case (.character(let character), false): insert(String(character))
        case (.enter, _): insert("\n")
        case (.tab, false): insert("\t")
        case (.backspace, false): backspace()
        case (.delete, _): deleteForward()
        default:
            if let motion = Self.motion(for: key, modifiers) { move(motion) }
        }
    }

    /// The motion a cursor key makes (Ctrl or Alt: by word, or to the text's ends).
    static func motion(for key: InputEvent.Key, _ modifiers: InputEvent.Modifiers) -> Motion? {
        let word = modifiers.contains(.control) || modifiers.contains(.alt)
        switch (key, word) {
        case (.character("b"), true) where modifiers == .alt: return .wordLeft
        case (.character("f"), true) where modifiers == .alt: return .wordRight
        case (.left, false): return .left
        case (.right, false): return .right
        case (.left, true): return .wordLeft
        case (.right, true): return .wordRight
        case (.up, _): return .up
        case (.down, _): return .down
        case (.home, false): return .lineStart
        case (.end, false): return .lineEnd
        case (.home, true): return .textStart
        case (.end, true): return .textEnd
        case (.pageUp, _): return .pageUp
        case (.pageDown, _): return .pageDown
        default: return nil
        }
    }
}
