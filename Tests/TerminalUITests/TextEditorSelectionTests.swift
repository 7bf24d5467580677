import TerminalUI
import Testing

/// Kill line, word deletion and the selection (shift-select and the mark), on the editor value.
@Suite struct TextEditorSelectionTests {
    typealias Editor = TextEditor<PlainGlyphs>

    func editor(_ text: String, at position: TextPosition = .zero) -> Editor {
        var e = Editor(text, measure: PlainGlyphs(), viewport: Size(width: 40, height: 5))
        e.moveCursor(to: position)
        return e
    }

    @Test func killLineDeletesToTheEndAndAtTheEndJoinsTheNextLine() {
        var e = editor("first line\nsecond\n\nlast", at: TextPosition(line: 0, column: 5))
        #expect(e.killLine() == (text: " line", continues: false))
        #expect(e.text == "first\nsecond\n\nlast")
        // At the end of the line: the line break goes, joining the next line; and it continues the kill.
        #expect(e.killLine() == (text: "\n", continues: true))
        #expect(e.text == "firstsecond\n\nlast")
        // An empty line is joined away by one Ctrl-K.
        var empty = editor("a\n\nb", at: TextPosition(line: 1, column: 0))
        #expect(empty.killLine() == (text: "\n", continues: false))
        #expect(empty.text == "a\nb")
        // Consecutive kills are one undo step.
        e.undo()
        #expect(e.text == "first line\nsecond\n\nlast")
        #expect(e.cursor == TextPosition(line: 0, column: 5))
        // At the very end there is nothing to kill.
        var end = editor("x", at: TextPosition(line: 0, column: 1))
        #expect(end.killLine() == (text: "", continues: false))
        #expect(!end.canUndo)
    }

    @Test func aMotionBetweenKillsStartsANewKill() {
        var e = editor("one\ntwo\nthree")
        #expect(e.killLine().continues == false)
        e.move(.down)
        #expect(e.killLine() == (text: "two", continues: false))
        #expect(e.text == "\n\nthree")
    }

    @Test func deleteWordBackwardTakesTheWordAndItsTrailingSpaces() {
        var e = editor("say hello,  world", at: TextPosition(line: 0, column: 12))
        e.deleteWordBackward()
        #expect(e.text == "say world")
        #expect(e.cursor == TextPosition(line: 0, column: 4))
        e.deleteWordBackward()
        #expect(e.text == "world")
        // At a line's start it joins the line above, like Backspace.
        var lines = editor("ab\ncd", at: TextPosition(line: 1, column: 0))
        lines.deleteWordBackward()
        #expect(lines.text == "abcd")
        lines.undo()
        #expect(lines.text == "ab\ncd")
    }

    @Test func shiftMotionSelectsAndAPlainMotionEndsTheSelection() {
        var e = editor("hello world\nnext", at: TextPosition(line: 0, column: 6))
        e.extendSelection(.right)
        e.extendSelection(.wordRight)
        #expect(e.selectedText == "world")
        e.extendSelection(.down)
        #expect(e.selectedText == "world\nnext")
        e.move(.left)
        #expect(e.selection == nil)
        #expect(e.selectedText == nil)
    }

    @Test func theMarkSelectsAsTheCursorMovesUntilSetAgain() {
        var e = editor("abc def", at: TextPosition(line: 0, column: 4))
        e.toggleMark()
        #expect(e.selection?.isEmpty == true)
        e.move(.lineEnd)
        #expect(e.selectedText == "def")
        // Backwards past the mark: the selection is still between them.
        e.move(.lineStart)
        #expect(e.selectedText == "abc ")
        e.toggleMark()
        #expect(e.selection == nil)
    }

    @Test func typingReplacesTheSelectionAndBackspaceDeletesIt() {
        var e = editor("one two three", at: TextPosition(line: 0, column: 4))
        e.extendSelection(.wordRight)
        e.insert("2")
        #expect(e.text == "one 2 three")
        #expect(e.selection == nil)
        e.undo()
        #expect(e.text == "one two three")
        e.moveCursor(to: TextPosition(line: 0, column: 3))
        e.extendSelection(.wordRight)
        e.backspace()
        #expect(e.text == "one three")
        #expect(e.cursor == TextPosition(line: 0, column: 3))
    }

    @Test func cutSelectionReturnsTheTextAndUndoBringsItBack() {
        var e = editor("keep\ncut me\nkeep", at: TextPosition(line: 1, column: 0))
        e.extendSelection(.down)
        #expect(e.cutSelection() == "cut me\n")
        #expect(e.text == "keep\nkeep")
        #expect(e.cutSelection() == nil)
        e.undo()
        #expect(e.text == "keep\ncut me\nkeep")
    }
}
