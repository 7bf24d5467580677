import NotesTestSupport
import TerminalUI
import Testing

/// Random edits against a plain model (an array of Characters and a cursor offset), from
/// printed seeds: text and cursor always agree, and undoing everything restores the start.
@Suite struct TextEditorModelTests {
    /// Pieces that stay separate graphemes however they are joined (no lone combining marks).
    static let pieces = [
        "a", "b", " ", " ", "c", "中", "文", "👩‍💻", "🇩🇪", "e\u{301}", "\n", "❤️", "x y", "\r\n", "word\nnext", "ab",
    ]

    @Test(arguments: 0..<40)
    func randomEditsMatchAPlainModelAndUndoRestoresTheStart(seed: Int) {
        var random = SeededRandom(seed: UInt64(seed))
        let start = "Title\nsome 中文 text 👍\n\nend"
        var editor = TextEditor(start, measure: PlainGlyphs(), viewport: Size(width: 7, height: 3))
        var model = Array(start)
        var cursor = 0
        var steps = 0
        for step in 0..<300 {
            switch random.below(9) {
            case 0, 1, 2:
                let piece = Self.pieces[random.below(Self.pieces.count)]
                editor.insert(piece)
                let typed = piece.map { $0 == "\r\n" ? "\n" : $0 }
                model.insert(contentsOf: typed, at: cursor)
                cursor += typed.count
                steps += 1
            case 3:
                editor.backspace()
                if cursor > 0 {
                    model.remove(at: cursor - 1)
                    cursor -= 1
                    steps += 1
                }
            case 4:
                editor.deleteForward()
                if cursor < model.count {
                    model.remove(at: cursor)
                    steps += 1
                }
            case 5:
                editor.move(.left)
                cursor = max(0, cursor - 1)
            case 6:
                editor.move(.right)
                cursor = min(model.count, cursor + 1)
            case 7:
                editor.move([.up, .down, .pageUp, .pageDown, .wordLeft, .wordRight][random.below(6)])
                cursor = offset(of: editor.cursor, in: model)
            default:
                editor.move([.lineStart, .lineEnd, .textStart, .textEnd][random.below(4)])
                cursor = offset(of: editor.cursor, in: model)
            }
            #expect(editor.text == String(model), "seed \(seed), step \(step)")
            #expect(offset(of: editor.cursor, in: model) == cursor, "seed \(seed), step \(step)")
            // The wrap kept for the cursor's line equals wrapping it from scratch.
            let fresh = SoftWrap.rowStarts(of: editor.lines[editor.cursor.line], width: 7, measure: PlainGlyphs())
            #expect(editor.cursorLineRowStarts == fresh, "seed \(seed), step \(step)")
            for row in editor.visibleRows {
                let line = editor.lines[row.line]
                let expected = line.dropFirst(row.columns.lowerBound).prefix(row.columns.count)
                #expect(row.text == expected, "seed \(seed), step \(step)")
            }
            let location = editor.cursorLocation
            #expect(location.y >= 0 && location.y < 3 && location.x >= 0 && location.x < 7, "seed \(seed)")
            if editor.text != String(model) { return }
        }
        while editor.undo() {}
        #expect(editor.text == start, "seed \(seed) after undoing \(steps) edits")
        while editor.redo() {}
        #expect(editor.text == String(model), "seed \(seed) after redoing")
    }

    /// The flat offset of a position in the model's text.
    func offset(of position: TextPosition, in model: [Character]) -> Int {
        var line = 0
        var offset = 0
        while line < position.line, let newline = model[offset...].firstIndex(of: "\n") {
            offset = newline + 1
            line += 1
        }
        return offset + position.column
    }

    @Test func aLoneCombiningMarkJoinsTheLetterBeforeItAndTheCursorStaysValid() {
        var editor = TextEditor("cafe", measure: PlainGlyphs())
        editor.move(.lineEnd)
        editor.insert("\u{301}")
        #expect(editor.text == "cafe\u{301}")
        #expect(editor.cursor == TextPosition(line: 0, column: 4))
        editor.insert("!")
        #expect(editor.text == "cafe\u{301}!")
        editor.move(.lineStart)
        editor.insert("\u{301}")
        editor.move(.textEnd)
        editor.backspace()
        #expect(editor.text.hasSuffix("e\u{301}"))
    }
}
