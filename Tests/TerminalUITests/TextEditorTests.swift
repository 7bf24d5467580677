import Foundation
import TerminalUI
import Testing

@Suite struct TextEditorTests {
    typealias Editor = TextEditor<PlainGlyphs>

    func editor(_ text: String, width: Int = 20, height: Int = 5) -> Editor {
        Editor(text, measure: PlainGlyphs(), viewport: Size(width: width, height: height))
    }

    /// The text with `|` at the cursor, as helix's tests write a selection.
    func shown(_ editor: Editor) -> String {
        var lines = editor.lines
        let line = lines[editor.cursor.line]
        let index = line.index(line.startIndex, offsetBy: editor.cursor.column)
        lines[editor.cursor.line].insert("|", at: index)
        return lines.joined(separator: "\n")
    }

    @Test func rightMovesOneGraphemeAtATimeAndColumnsFollowDisplayWidth() {
        // ZWJ sequence, flag, e + combining acute, CJK, VS16 heart: one step each.
        var e = editor("a👩‍💻b🇩🇪e\u{301}中❤️z")
        var xs: [Int] = []
        for _ in 0..<8 {
            e.move(.right)
            xs.append(e.cursorLocation.x)
        }
        #expect(e.cursor.column == 8)
        #expect(xs == [1, 3, 4, 6, 7, 9, 11, 12])
        e.move(.left)
        e.move(.left)
        #expect(shown(e) == "a👩‍💻b🇩🇪e\u{301}中|❤️z")
    }

    @Test func backspaceAndDeleteRemoveWholeGraphemes() {
        var e = editor("x👩‍💻🇩🇪e\u{301}")
        e.move(.textEnd)
        e.backspace()
        #expect(shown(e) == "x👩‍💻🇩🇪|")
        e.move(.lineStart)
        e.move(.right)
        e.deleteForward()
        #expect(shown(e) == "x|🇩🇪")
        #expect(e.text.unicodeScalars.count == 3)
    }

    @Test func backspaceAtALineStartJoinsLinesAndDeleteAtTheEndToo() {
        var e = editor("ab\ncd")
        e.move(.down)
        e.move(.lineStart)
        e.backspace()
        #expect(shown(e) == "ab|cd")
        e.insert("\n")
        #expect(shown(e) == "ab\n|cd")
        e.move(.up)
        e.move(.lineEnd)
        e.deleteForward()
        #expect(shown(e) == "ab|cd")
    }

    @Test func wrapNeverSplitsAWideCharacterAcrossTheEdge() {
        // Width 5: two CJK characters (4 columns) fit; a third would straddle the edge.
        let e = editor("中文字符测试", width: 5)
        #expect(e.visibleRows.map(\.text) == ["中文", "字符", "测试"])
        #expect(SoftWrap.rowStarts(of: "ab👩‍💻cd", width: 3, measure: PlainGlyphs()) == [0, 2, 4])
    }

    @Test func wrapBreaksAtSpacesAndTheCursorFollowsRows() {
        var e = editor("the quick brown fox", width: 10)
        #expect(e.visibleRows.map(\.text) == ["the quick ", "brown fox"])
        e.move(.textEnd)
        #expect(e.cursorLocation == Point(x: 9, y: 1))
        // A row exactly full gets an empty row after it for the cursor at the end.
        var full = editor("abcde", width: 5)
        full.move(.lineEnd)
        #expect(full.cursorLocation == Point(x: 0, y: 1))
    }

    @Test func upAndDownMoveByVisualRowAndKeepTheGoalColumn() {
        var e = editor("abcdefgh\nxy\n0123456789", width: 20)
        e.moveCursor(to: TextPosition(line: 0, column: 6))
        e.move(.down)
        #expect(e.cursor == TextPosition(line: 1, column: 2))
        e.move(.down)
        #expect(e.cursor == TextPosition(line: 2, column: 6))
        // Within a wrapped line, down goes to the next row of the same line.
        var wrapped = editor("aaaa bbbb cccc", width: 5)
        wrapped.move(.right)
        wrapped.move(.down)
        #expect(wrapped.cursor == TextPosition(line: 0, column: 6))
        wrapped.move(.up)
        #expect(wrapped.cursor == TextPosition(line: 0, column: 1))
    }

    @Test func upAndDownOverWideCharactersLandOnAWholeCharacter() {
        var e = editor("中文字符\nabcdefgh")
        e.moveCursor(to: TextPosition(line: 1, column: 3))
        e.move(.up)
        // Column 3 is the right half of 文: the cursor goes to 文 itself.
        #expect(e.cursor == TextPosition(line: 0, column: 1))
        #expect(e.cursorLocation.x == 2)
    }

    @Test func wordMotionSkipsPunctuationAndCrossesLines() {
        var e = editor("hello, wide 世界 world\nnext")
        e.move(.wordRight)
        #expect(shown(e) == "hello|, wide 世界 world\nnext")
        e.move(.wordRight)
        e.move(.wordRight)
        #expect(shown(e) == "hello, wide 世界| world\nnext")
        e.move(.lineEnd)
        e.move(.wordRight)
        #expect(e.cursor == TextPosition(line: 1, column: 0))
        e.move(.wordLeft)
        e.move(.wordLeft)
        #expect(shown(e) == "hello, wide 世界 |world\nnext")
    }

    @Test func undoTakesBackATypingRunAndRedoRestoresIt() {
        var e = editor("")
        for character in "hello" { e.insert(String(character)) }
        e.move(.left)
        for character in "XY" { e.insert(String(character)) }
        #expect(shown(e) == "hellXY|o")
        var results: [Bool] = []
        var screens: [String] = []
        for step in ["undo", "undo", "undo", "redo", "redo", "redo"] {
            results.append(step == "undo" ? e.undo() : e.redo())
            screens.append(shown(e))
        }
        #expect(results == [true, true, false, true, true, false])
        #expect(screens == ["hell|o", "|", "|", "hello|", "hellXY|o", "hellXY|o"])
    }

    @Test func aRunOfBackspacesIsOneUndoAndANewEditDropsRedo() {
        var e = editor("one two")
        e.move(.lineEnd)
        for _ in 0..<3 { e.backspace() }
        #expect(shown(e) == "one |")
        e.undo()
        #expect(shown(e) == "one two|")
        e.undo()
        #expect(e.canRedo)
        e.insert("!")
        #expect(!e.canRedo)
    }

    @Test func aLargePasteIsOneStepAndOneUndoEntry() {
        let line = "Lorem ipsum dolor sit amet, 中文 👩‍💻 consectetur adipiscing elit\r\n"
        let paste = String(repeating: line, count: 1_000_000 / line.utf8.count)
        var e = editor("title\n")
        e.move(.textEnd)
        e.insert(paste)
        #expect(e.lines.count == 2 + paste.utf8.count / line.utf8.count)
        #expect(e.lines[1].hasPrefix("Lorem ipsum"))
        #expect(!e.text.contains("\r"))
        #expect(e.cursorLocation.y == 4)
        e.undo()
        #expect(e.text == "title\n")
    }

    @Test func aReloadKeepsTheCursorOnItsLineWhenLinesAreAddedAbove() {
        var e = editor("title\nalpha\nbeta\ngamma")
        e.moveCursor(to: TextPosition(line: 2, column: 3))
        e.replaceAll(with: "title\nnew one\nnew two\nalpha\nbeta\ngamma")
        #expect(e.cursor == TextPosition(line: 4, column: 3))
        // The line itself changed: the cursor keeps its line number and column.
        e.replaceAll(with: "title\nnew one\nnew two\nalpha\nbetter\ngamma")
        #expect(e.cursor == TextPosition(line: 4, column: 3))
        #expect(!e.canUndo)
    }

    @Test func crlfTextKeepsItsLineEnding() {
        var e = editor("a\r\nb")
        #expect(e.lines == ["a", "b"])
        e.move(.textEnd)
        e.insert("c")
        #expect(e.text == "a\r\nbc")
    }

    @Test func theViewportScrollsToKeepTheCursorVisible() {
        let text = (0..<100).map { "line \($0)" }.joined(separator: "\n")
        var e = editor(text, width: 20, height: 5)
        for _ in 0..<10 { e.move(.down) }
        #expect(e.visibleRows.first?.line == 6)
        #expect(e.cursorLocation.y == 4)
        e.move(.pageDown)
        #expect(e.cursor.line == 14)
        e.move(.textEnd)
        #expect(e.visibleRows.map(\.line) == [95, 96, 97, 98, 99])
        e.move(.pageUp)
        #expect(e.cursor.line == 95)
        #expect(e.cursorLocation.y == 0)
        e.move(.textStart)
        #expect(e.visibleRows.first?.line == 0)
    }

    /// Counts the characters an editor measures, to check what a keystroke costs without a stopwatch.
    struct CountingGlyphs: GlyphMeasure {
        final class Counter: @unchecked Sendable {
            private let lock = NSLock()
            private var value = 0
            func add() { lock.withLock { value += 1 } }
            func take() -> Int {
                lock.withLock {
                    defer { value = 0 }
                    return value
                }
            }
        }
        let counter = Counter()
        func columns(of character: Character) -> Int {
            counter.add()
            return max(1, TextWidth.width(of: character))
        }
        static func == (lhs: Self, rhs: Self) -> Bool { true }
    }

    @Test func typingInATenMegabyteTextMeasuresOnlyTheLinesAroundTheCursor() {
        let line = "Some words of a long note, with 中文 and emoji 👍 in it.\n"
        let text = String(repeating: line, count: 10_000_000 / line.utf8.count)
        let glyphs = CountingGlyphs()
        var e = TextEditor(text, measure: glyphs, viewport: Size(width: 60, height: 20))
        e.moveCursor(to: TextPosition(line: 90_000, column: 10))
        _ = e.visibleRows
        _ = glyphs.counter.take()
        for character in "typing" {
            e.insert(String(character))
            _ = e.visibleRows
        }
        e.move(.pageDown)
        e.backspace()
        _ = e.visibleRows
        // 8 keystrokes on a 60x20 screen: a few screens' worth of characters, where measuring
        // the text (180,000 lines) would be millions. The wall time is in Benchmarks (--editor).
        let measured = glyphs.counter.take()
        #expect(measured < 8 * 60 * 20 * 4, "8 keystrokes measured \(measured) characters")
        #expect(e.lines[90_000].contains("typing"))
    }
}
