import Foundation
import NotesApp
import NotesCore
import TerminalUI
import Testing

/// The search field edits like a shell line: a cursor, ←/→, Home/End, ^U, ^W, Delete.
@Suite struct SearchFieldTests {
    /// The last query searched for by `notation`'s keys.
    func lastQuery(_ notation: String, _ state: inout AppState) -> String? {
        send(notation, to: &state).compactMap { effect -> String? in
            if case .search(let query, _) = effect { query } else { nil }
        }.last
    }

    @Test func typingGoesAtTheCursor() {
        var state = AppState.fixture()
        #expect(lastQuery("/abc<Left><Left>X", &state) == "aXbc")
        #expect(state.searchCursor == 2)
        #expect(lastQuery("<Home>Y", &state) == "YaXbc")
        #expect(lastQuery("<End>Z", &state) == "YaXbcZ")
        #expect(lastQuery("<Home><Del>", &state) == "aXbcZ")
        #expect(lastQuery("<Right><BS>", &state) == "XbcZ")
        #expect(state.searchCursor == 0)
        // Backspace at the start and Delete at the end change nothing.
        #expect(send("<BS>", to: &state).isEmpty)
        #expect(send("<End><Del>", to: &state).isEmpty)
    }

    @Test func ctrlWDeletesTheWordBeforeTheCursorAndCtrlUTheLine() {
        var state = AppState.fixture()
        _ = send("/milk and  eggs", to: &state)
        #expect(lastQuery("<C-w>", &state) == "milk and  ")
        #expect(lastQuery("<C-w>", &state) == "milk ")
        #expect(lastQuery("<Left><Left>X<C-u>", &state) == "k ")
        #expect(state.searchCursor == 0)
        // ^U of everything shows the whole list again, on the selected note.
        _ = send("<End>", to: &state)
        #expect(send("<C-u>", to: &state) == [.locateInList(id: noteID(1), row: 0, limit: 21)])
        #expect(state.searchText == "")
    }

    @Test func theCursorIsDrawnOnItsCharacterAndAtTheEndAsABar() {
        var state = AppState.fixture()
        _ = send("/budget<Left><Left>", to: &state)
        let screen = view(state, Size(width: 60, height: 15))
        #expect(text(screen).lines[0].hasPrefix("/ budget "))
        #expect(screen[6, 0].style == Style().reverse())  // the "e" under the cursor
        #expect(screen[5, 0].style == .plain)
        _ = send("<End>", to: &state)
        #expect(text(view(state, Size(width: 60, height: 15))).lines[0].hasPrefix("/ budget▏"))
    }

    @Test func aLongQueryKeepsTheCursorInView() {
        var state = AppState.fixture()
        let long = String(repeating: "abcdefghij", count: 10)
        _ = send("/" + long + "<Home>", to: &state)
        let line = text(view(state, Size(width: 60, height: 15))).lines[0]
        #expect(line.hasPrefix("/ abcdefghij"))
        _ = send("<End>", to: &state)
        #expect(text(view(state, Size(width: 60, height: 15))).lines[0].hasSuffix("hij▏"))
    }

    @Test func aMistypedOperatorShowsWhatWasLikelyMeantAfterTheQuery() {
        var state = AppState.fixture()
        _ = send("/crated:2024", to: &state)
        #expect(
            text(view(state, Size(width: 80, height: 15))).lines[0].hasPrefix("/ crated:2024▏  did you mean created:?"))
        _ = send("<BS><BS><BS><BS><BS><BS><BS><BS><BS><BS><BS>created:2024", to: &state)
        #expect(!text(view(state, Size(width: 80, height: 15))).lines[0].contains("did you mean"))
    }
}
