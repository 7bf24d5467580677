import Foundation
import NotesApp
import NotesCore
import TerminalUI
import Testing

/// The editor pane on screen: wrapping, wide characters, unsafe text, the cursor.
@Suite struct EditorViewTests {
    func open(_ title: String, _ body: String, size: Size = Size(width: 60, height: 15)) -> AppState {
        AppState.editing(
            NoteContent(id: noteID(1), title: title, body: body, modifiedAt: testNow, headRevision: "r1"), size: size)
    }

    @Test func wideCharactersWrapWholeAndTheTitleIsBold() {
        // The pane's text is 59 columns wide: 29 CJK characters (58 columns) fit, the 30th does not.
        let cjk = String(repeating: "会議", count: 20)
        let state = open("旅行 🇯🇵 plans", cjk + "\n👩‍💻 and ❤️ ok")
        let screen = view(state, Size(width: 60, height: 15))
        #expect(
            Array(text(screen).lines[8...13]) == [
                "────────────────────────────────────────────────────────────",
                " 旅行 🇯🇵 plans                                              ",
                " " + String(repeating: "会議", count: 14) + "会 ",
                " " + String(repeating: "議会", count: 5) + "議" + String(repeating: " ", count: 37),
                " 👩‍💻 and ❤️ ok                                               ",
                "                                                            ",
            ])
        #expect(screen[1, 9].style == Style().reverse())
        #expect(screen[3, 9].style == Style().bold())
        #expect(screen[1, 10].style == .plain)
    }

    @Test func escapeSequencesInTheBodyAreShownNotObeyed() {
        let state = open("\u{1B}]0;evil\u{07}title", "a\u{1B}[2Jb\u{202E}c\td\r")
        let screen = view(state, Size(width: 60, height: 15))
        #expect(text(screen).lines[9] == " ␛]0;evil␇title                                             ")
        // The TAB after "c" (column 15 of the row) reaches the tab stop at 16.
        #expect(text(screen).lines[10] == " a␛[2Jb<U+202E>c d␍                                         ")
        for cell in screen.cells {
            #expect(!cell.grapheme.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) })
            #expect(!cell.grapheme.unicodeScalars.contains { $0.value == 0x202E })
        }
        // The cursor steps over ESC as one character, drawn as one cell.
        var moved = state
        _ = send("<Down><Right><Right>", to: &moved)
        #expect(view(moved, Size(width: 60, height: 15))[3, 10].style == Style().reverse())
    }

    @Test func theCursorFollowsGraphemesAcrossEmojiAndCombiningMarks() {
        var state = open("x", "e\u{301}👍🏽🇩🇪中z")
        _ = send("<Down>", to: &state)
        var columns: [Int] = []
        for _ in 0..<5 {
            _ = send("<Right>", to: &state)
            let screen = view(state, Size(width: 60, height: 15))
            columns.append((0..<60).first { screen[$0, 10].style == Style().reverse() } ?? -1)
        }
        // é is 1 column, 👍🏽 2, 🇩🇪 2, 中 2: the cursor lands on each character's first cell.
        #expect(columns == [2, 4, 6, 8, 9])
    }

    @Test func sideBySideTheEditorTakesTheRightPane() {
        let state = open("Title", "body text", size: Size(width: 100, height: 12))
        let screen = view(state, Size(width: 100, height: 12))
        let lines = text(screen).lines
        // The list takes 40 columns, the separator 1, the editor the other 59 (a 1-column margin).
        #expect(lines[1].hasSuffix("│ " + TextWidth.pad("Title", to: 58)))
        #expect(lines[2].hasSuffix("│ " + TextWidth.pad("body text", to: 58)))
        #expect(lines[11].hasPrefix(" local only · saved "))
    }

    @Test func aResizeRewrapsTheTextAndKeepsTheCursor() {
        var state = open(
            "Title", "alpha beta gamma delta epsilon zeta eta theta iota kappa", size: Size(width: 100, height: 12))
        _ = send("<Down><End>", to: &state)
        _ = update(&state, .input(.resize(Size(width: 40, height: 16))))
        // 40 columns: stacked, the editor's text is 39 wide.
        let lines = text(view(state, Size(width: 40, height: 16))).lines
        #expect(lines[10] == " alpha beta gamma delta epsilon zeta eta")
        #expect(lines[11] == " theta iota kappa                       ")
        #expect(state.editor.loaded?.cursor == TextPosition(line: 1, column: 56))
        #expect(view(state, Size(width: 40, height: 16))[17, 11].style == Style().reverse())
    }

    @Test func theStatusBarSaysWhetherTheTextIsSaved() {
        var state = open("Title", "")
        _ = send("!", to: &state)
        #expect(text(view(state, Size(width: 60, height: 15))).lines[14].hasPrefix(" local only · edited "))
        _ = send("<C-s>", to: &state)
        #expect(text(view(state, Size(width: 60, height: 15))).lines[14].hasPrefix(" local only · saving "))
    }

    @Test func theEditorScrollsToTheCursorInALongNote() {
        let body = (1...200).map { "line \($0)" }.joined(separator: "\n")
        var state = open("Long", body)
        _ = send("<C-End>", to: &state)
        let lines = text(view(state, Size(width: 60, height: 15))).lines
        #expect(
            Array(lines[9...13]).map { $0.trimmingCharacters(in: .whitespaces) } == [
                "line 196", "line 197", "line 198", "line 199", "line 200",
            ])
    }
}
