import NotesTestSupport
import TerminalUI
import Testing

/// Mixed line endings are kept as they are; TABs reach tab stops.
@Suite struct TextEditorLineEndingTests {
    typealias Editor = TextEditor<PlainGlyphs>

    func editor(_ text: String) -> Editor {
        Editor(text, measure: PlainGlyphs(), viewport: Size(width: 40, height: 5))
    }

    @Test func mixedLineEndingsSurviveEditsOfOtherLines() {
        let original = "title\r\nwindows line\r\nunix line\nlast\r\n"
        var e = editor(original)
        #expect(e.text == original)
        // Type on the unix line and press Enter on a windows line.
        e.moveCursor(to: TextPosition(line: 2, column: 9))
        e.insert("!")
        e.moveCursor(to: TextPosition(line: 1, column: 7))
        e.insert("\n")
        #expect(e.text == "title\r\nwindows\r\n line\r\nunix line!\nlast\r\n")
        // Enter on the unix line makes an LF; a pasted block there gets LFs too.
        e.moveCursor(to: TextPosition(line: 3, column: 4))
        e.insert("\r\nX\nY\r\n")
        #expect(e.text == "title\r\nwindows\r\n line\r\nunix\nX\nY\n line!\nlast\r\n")
    }

    @Test func joiningAndUndoPutBackTheExactBreaks() {
        let original = "a\r\nb\nc\r\nd"
        var e = editor(original)
        e.moveCursor(to: TextPosition(line: 1, column: 0))
        e.extendSelection(.down)
        e.extendSelection(.down)
        #expect(e.selectedText == "b\nc\n")
        _ = e.cutSelection()
        #expect(e.text == "a\r\nd")
        e.moveCursor(to: TextPosition(line: 0, column: 1))
        e.deleteForward()
        #expect(e.text == "ad")
        e.undo()
        e.undo()
        #expect(e.text == original)
        e.redo()
        #expect(e.text == "a\r\nd")
    }

    /// Random edits inside random lines of a mixed text, several per text: every line break
    /// is still the byte it was. Replay with the printed seed (CLOUDNOTES_SEED=...).
    @Test func untouchedBreaksStayAsTheyWereUnderRandomEdits() {
        let seed = SeededRandom.seed(default: 20_261_123)
        var random = SeededRandom(seed: seed)
        for _ in 0..<200 {
            let count = 2 + random.below(7)
            let breaks = (0..<count).map { _ in random.below(2) == 0 ? "\r\n" : "\n" }
            var original = "line0"
            for i in 0..<count { original += breaks[i] + "line\(i + 1)" }
            var e = editor(original)
            for _ in 0..<5 {
                // Typing, or a Backspace after a line's first character: no break is touched.
                e.moveCursor(to: TextPosition(line: random.below(count + 1), column: 1 + random.below(5)))
                if random.below(2) == 0 { e.insert("xy") } else { e.backspace() }
            }
            var expected = e.lines[0]
            for i in 0..<count { expected += breaks[i] + e.lines[i + 1] }
            #expect(e.lines.count == count + 1 && e.text == expected, "seed \(seed)")
        }
    }

    @Test func aTabReachesTheNextTabStopAndTheCursorCrossesItInOneStep() {
        let measure = TabMeasure()
        var e = TextEditor("a\tb\t\tc", measure: measure, viewport: Size(width: 40, height: 5))
        var xs: [Int] = []
        for _ in 0..<6 {
            xs.append(e.cursorLocation.x)
            e.move(.right)
        }
        xs.append(e.cursorLocation.x)
        // a at 0, TAB 1-7, b at 8, TAB 9-15, TAB 16-23, c at 24.
        #expect(xs == [0, 1, 8, 9, 16, 24, 25])
        // Up aims for the screen column: column 8 is the "x" after the TAB, column 5 the TAB.
        var two = TextEditor("\tx\n12345678901", measure: measure, viewport: Size(width: 40, height: 5))
        two.moveCursor(to: TextPosition(line: 1, column: 8))
        two.move(.up)
        #expect(two.cursor == TextPosition(line: 0, column: 1))
        two.moveCursor(to: TextPosition(line: 1, column: 5))
        two.move(.up)
        #expect(two.cursor == TextPosition(line: 0, column: 0))
    }

    @Test func aTabThatDoesNotFitHangsAtTheRowEndLikeASpace() {
        let e = TextEditor("abcdefghi\tjk", measure: TabMeasure(), viewport: Size(width: 12, height: 5))
        #expect(e.cursorLineRowStarts == [0, 10])
    }
}

/// Plain widths with tab stops every 8 columns.
struct TabMeasure: GlyphMeasure {
    func columns(of character: Character) -> Int { character == "\t" ? 8 : 1 }
    func columns(of character: Character, at x: Int) -> Int { character == "\t" ? 8 - x % 8 : 1 }
}
