import Foundation
import NotesApp
import NotesCore
import TerminalUI
import Testing

/// Mouse: a click selects, the wheel scrolls.
@Suite struct MouseTests {
    @Test func aClickOnARowSelectsIt() {
        var state = AppState.fixture()
        // Line 6 of the screen is list line 5: Travel (row 3).
        #expect(update(&state, .input(.mouse(.click(Point(x: 10, y: 6))))).isEmpty)
        #expect(state.selectedRow?.id == noteID(4))
        // A header is not a row.
        _ = update(&state, .input(.mouse(.click(Point(x: 3, y: 4)))))
        #expect(state.selectedRow?.id == noteID(4))
    }

    @Test func theWheelMovesTheSelectionThreeRows() {
        var state = AppState.longFixture()
        _ = update(&state, .input(.mouse(.wheelDown(Point(x: 5, y: 3)))))
        #expect(state.selection == 3)
        _ = update(&state, .input(.mouse(.wheelUp(Point(x: 5, y: 3)))))
        #expect(state.selection == 0)
    }

    @Test func aClickInTheEditorFocusesItAndPutsTheCursorThere() {
        var state = AppState.editing(
            NoteContent(id: noteID(1), title: "Groceries", body: "milk, eggs", modifiedAt: testNow, headRevision: "r1"))
        _ = send("<Esc>", to: &state)
        // The editor's text starts at column 1 of row 9; "eggs" starts at column 6 of its line.
        #expect(update(&state, .input(.mouse(.click(Point(x: 7, y: 10))))).isEmpty)
        #expect(state.focus == .editor)
        #expect(state.editor.loaded?.cursor == TextPosition(line: 1, column: 6))
    }
}
