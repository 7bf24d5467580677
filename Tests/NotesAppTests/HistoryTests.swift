import Foundation
import NotesApp
import NotesCore
import TerminalUI
import Testing

/// Note history (`h`): revisions with dates and a preview; restore one.
@Suite struct HistoryTests {
    let entries = [
        HistoryEntry(
            id: "r3", date: testNow.addingTimeInterval(-60), device: "desk", title: "Groceries", body: "milk, eggs"),
        HistoryEntry(
            id: "r2", date: testNow.addingTimeInterval(-7200), device: "laptop", title: "Groceries", body: "milk"),
        HistoryEntry(
            id: "r1", date: testNow.addingTimeInterval(-3 * 86_400), device: "desk", title: "Shopping", body: ""),
    ]

    func showing() -> AppState {
        var state = AppState.fixture()
        _ = send("h", to: &state)
        _ = update(&state, .historyLoaded(noteID(1), entries))
        return state
    }

    @Test func hLoadsTheSelectedNotesHistory() {
        var state = AppState.fixture()
        #expect(send("h", to: &state) == [.loadHistory(noteID(1))])
        #expect(state.history != nil)
    }

    @Test func theHistoryListsRevisionsAndPreviewsTheSelectedOne() {
        var state = showing()
        _ = send("j", to: &state)
        let screen = view(state, Size(width: 60, height: 15))
        #expect(
            Array(text(screen).lines[1...10]) == [
                "History of “Groceries”                                      ",
                "current      desk       Groceries                           ",
                "2 h ago      laptop     Groceries                           ",
                "3 days ago   desk       Shopping                            ",
                "                                                            ",
                "                                                            ",
                "────────────────────────────────────────────────────────────",
                "Groceries                                                   ",
                "milk                                                        ",
                "                                                            ",
            ])
        #expect(screen[0, 3].style == Style().reverse())
        #expect(text(screen).lines[14].hasSuffix("Enter restore  Esc close "))
    }

    @Test func thePreviewDrawsOnlyWhatFitsOfAHugeRevisionAndCRLFIsALineBreak() {
        var state = AppState.fixture()
        _ = send("h", to: &state)
        let huge = "first\r\n" + String(repeating: "long line without breaks ", count: 400_000)
        _ = update(
            &state,
            .historyLoaded(noteID(1), [HistoryEntry(id: "r1", date: testNow, device: "desk", title: "Big", body: huge)])
        )
        let screen = view(state, Size(width: 60, height: 15))
        let lines = text(screen).lines
        #expect(lines[8] == TextWidth.pad("Big", to: 60))
        #expect(lines[9] == TextWidth.pad("first", to: 60))
        #expect(lines[10].hasPrefix("long line without breaks long line without breaks long "))
    }

    @Test func enterRestoresTheSelectedRevisionButNotTheCurrentOne() {
        var state = showing()
        #expect(send("<Enter>", to: &state).isEmpty)
        #expect(send("j<Enter>", to: &state) == [.restoreRevision(noteID: noteID(1), revision: "r2")])
        let effects = update(&state, .revisionRestored(noteID(1)))
        #expect(effects.contains(.locateInList(id: noteID(1), row: 0, limit: 21)))
        #expect(state.focus == .list)
        #expect(state.message == StatusMessage("Restored the version from 2 h ago"))
    }

    @Test func restoringTheOpenNoteComesAfterItsSaveAndReloadsIt() {
        var state = AppState.editing(
            NoteContent(id: noteID(1), title: "Groceries", body: "milk, eggs", modifiedAt: testNow, headRevision: "r3"))
        #expect(
            send("Y<Esc>", to: &state).suffix(2) == [
                .saveNote(id: noteID(1), title: "YGroceries", body: "milk, eggs", baseRevision: "r3"),
                .countTitleLinks(noteID: noteID(1), oldTitle: "Groceries", newTitle: "YGroceries"),
            ])
        _ = send("h", to: &state)
        _ = update(&state, .historyLoaded(noteID(1), entries))
        // The runtime runs writes in order: the restore lands on top of the save.
        #expect(send("j<Enter>", to: &state) == [.restoreRevision(noteID: noteID(1), revision: "r2")])
        #expect(update(&state, .revisionRestored(noteID(1))).contains(.loadNote(noteID(1))))
    }
}
