import Foundation
import NotesApp
import NotesCore
import TerminalUI
import Testing

@Suite struct UpdateTests {
    @Test func jAndDownMoveDownKAndUpMoveUp() {
        var state = AppState.fixture()
        #expect(update(&state, .key("j")).isEmpty)
        #expect(state.selection == 1)
        #expect(update(&state, .key(.down)).isEmpty)
        #expect(state.selection == 2)
        #expect(update(&state, .key("k")).isEmpty)
        #expect(state.selection == 1)
        #expect(update(&state, .key(.up)).isEmpty)
        #expect(state.selection == 0)
    }

    @Test func selectionMovesFromFavoritesIntoNotesAndBack() {
        var state = AppState.fixture()
        _ = send("jj", to: &state)
        #expect(state.selectedRow?.id == noteID(3))
        _ = send("k", to: &state)
        #expect(state.selectedRow?.id == noteID(2))
    }

    @Test func movingStopsAtBothEnds() {
        var state = AppState.fixture()
        _ = send("k<Up>", to: &state)
        #expect(state.selection == 0)
        _ = send("jjjjjjjj", to: &state)
        #expect(state.selection == 4)
    }

    @Test func gAndGAndHomeAndEndJumpToTheEnds() {
        var state = AppState.fixture()
        _ = send("G", to: &state)
        #expect(state.selection == 4)
        _ = send("g", to: &state)
        #expect(state.selection == 0)
        _ = send("<End>", to: &state)
        #expect(state.selection == 4)
        _ = send("<Home>", to: &state)
        #expect(state.selection == 0)
    }

    @Test func pageDownAndUpMoveByTheListHeightAndScroll() {
        // 60x15: the list pane has 7 lines, so a page is 6 rows.
        var state = AppState.longFixture()
        #expect(send("<PgDn>", to: &state).isEmpty)
        #expect(state.selection == 6)
        // Row 6 is note 4, on list line 8 (FAVORITES, 2 rows, NOTES, 4 rows before it).
        #expect(state.scrollOffset == 2)
        _ = send("<PgDn><PgDn><PgDn>", to: &state)
        #expect(state.selection == 24)
        _ = send("<PgUp>", to: &state)
        #expect(state.selection == 18)
        _ = send("<PgUp><PgUp><PgUp>", to: &state)
        #expect(state.selection == 0)
        #expect(state.scrollOffset == 0)
    }

    @Test func slashFocusesSearchAndEveryKeystrokeSearches() {
        var state = AppState.fixture()
        #expect(send("/", to: &state).isEmpty)
        #expect(state.focus == .search)
        // The limit is the list height (7) plus a margin of as much again.
        #expect(send("m", to: &state) == [.search(query: "m", limit: 14)])
        #expect(send("eq", to: &state) == [.search(query: "me", limit: 14), .search(query: "meq", limit: 14)])
        #expect(send("<BS>", to: &state) == [.search(query: "me", limit: 14)])
        #expect(state.searchText == "me")
    }

    @Test func searchResultsReplaceTheListAndStaleOnesAreIgnored() {
        var state = AppState.fixture()
        _ = send("/me", to: &state)
        let meeting = state.notes[0]
        _ = update(&state, .searchResults(query: "m", rows: state.notes, limit: 100))
        #expect(state.searchResults == nil)
        _ = update(&state, .searchResults(query: "me", rows: [meeting], limit: 100))
        #expect(state.rows == [meeting])
    }

    @Test func escClearsTheSearchAndShowsTheWholeList() {
        var state = AppState.fixture()
        _ = send("/me", to: &state)
        _ = update(&state, .searchResults(query: "me", rows: [state.notes[0]], limit: 100))
        // The whole list is reloaded (writes made while searching reloaded only the results),
        // around the note selected in the results.
        #expect(send("<Esc>", to: &state) == [.locateInList(id: noteID(3), row: 0, limit: 21)])
        #expect(state.searchText == "")
        #expect(state.searchResults == nil)
        #expect(state.focus == .list)
        #expect(state.rows.count == 5)
    }

    @Test func enterKeepsTheSelectedResult() {
        var state = AppState.fixture()
        _ = send("jjjj/tr", to: &state)
        // Books was selected and is a result: it stays selected; Enter goes to the list.
        _ = update(&state, .searchResults(query: "tr", rows: [state.notes[1], state.notes[2]], limit: 100))
        #expect(send("<Enter>", to: &state).isEmpty)
        #expect(state.focus == .list)
        #expect(state.selectedRow?.id == noteID(5))
        #expect(state.selection == 1)
        // A query that does not list it starts at its top result.
        _ = send("/x", to: &state)
        _ = update(&state, .searchResults(query: "trx", rows: [state.notes[1]], limit: 100))
        #expect(state.selectedRow?.id == noteID(4))
    }

    @Test func aPasteIntoSearchSearchesItsFirstLine() {
        var state = AppState.fixture()
        _ = send("/", to: &state)
        #expect(update(&state, .input(.paste("budget\nrest"))) == [.search(query: "budget", limit: 14)])
    }

    @Test func keysTypedInSearchAreTextNotCommands() {
        var state = AppState.fixture()
        #expect(send("/q", to: &state) == [.search(query: "q", limit: 14)])
        #expect(state.focus == .search)
    }

    @Test func nCreatesANote() {
        var state = AppState.fixture()
        #expect(send("n", to: &state) == [.createNote])
    }

    @Test func fTogglesTheSelectedNotesFavorite() {
        var state = AppState.fixture()
        #expect(send("jjf", to: &state) == [.toggleFavorite(noteID(3))])
    }

    @Test func dTrashesWithAnUndoLineAndUUndoesOnce() {
        var state = AppState.fixture()
        #expect(
            send("jjjd", to: &state) == [
                .trash(noteID(4)), .scheduleTimer(.expireUndo(generation: 1), after: .seconds(15)),
            ])
        #expect(state.message == StatusMessage("Moved “Travel” to the trash. u: undo"))
        #expect(
            send("u", to: &state) == [
                .undoTrash(noteID(4)), .scheduleTimer(.clearMessage(generation: 2), after: .seconds(6)),
            ])
        #expect(state.message == StatusMessage("Restored from the trash"))
        #expect(send("u", to: &state).isEmpty)
    }

    @Test func aMessageStaysItsSecondsAndUntilTheNextKey() {
        var state = AppState.fixture()
        _ = send("s", to: &state)
        let shown = state.message
        #expect(shown != nil)
        // Its time is up while nobody pressed a key: it is still there to be read.
        _ = update(&state, .timerFired(.clearMessage(generation: state.messageGeneration)))
        #expect(state.message == shown)
        // The next key takes it away (a key that moves the selection shows nothing new).
        _ = send("j", to: &state)
        #expect(state.message == nil)
        // A key pressed before the time is up: the timer clears it.
        _ = send("s", to: &state)
        _ = send("j", to: &state)
        #expect(state.message != nil)
        _ = update(&state, .timerFired(.clearMessage(generation: state.messageGeneration)))
        #expect(state.message == nil)
    }

    @Test func aTimerOfAnEarlierMessageLeavesTheTrashLineShown() {
        var state = AppState.fixture()
        _ = send("s", to: &state)
        let earlier = state.messageGeneration
        _ = send("jd", to: &state)
        _ = update(&state, .timerFired(.clearMessage(generation: earlier)))
        #expect(state.message?.text.hasPrefix("Moved “") == true)
    }

    @Test func uUndoesSeveralTrashingsLastFirst() {
        var store = ModelStore()
        // D is the newest, so the list reads D, C, B, A.
        let ids = ["A", "B", "C", "D"].enumerated().map { store.add(title: $0.element, modifiedAt: 100 + $0.offset) }
        var state = store.app()
        func trashed() -> [String] { store.notes.filter(\.trashed).map(\.title).sorted() }
        store.send("ddd", to: &state)
        #expect(trashed() == ["B", "C", "D"])
        #expect(state.message == StatusMessage("Moved “B” to the trash. u: undo (3)"))
        let first = update(&state, .input(.char("u")))
        #expect(first.first == .undoTrash(ids[1]))
        #expect(state.message == StatusMessage("Restored from the trash. u: undo 2 more"))
        store.settle(&state, first)
        store.send("u", to: &state)
        #expect(trashed() == ["D"])
        store.send("u", to: &state)
        #expect(trashed().isEmpty)
        #expect(state.message == StatusMessage("Restored from the trash"))
        #expect(send("u", to: &state).isEmpty)
    }

    @Test func theUndoLineExpiringForgetsEveryTrashing() {
        var state = AppState.fixture()
        _ = send("dd", to: &state)
        #expect(update(&state, .timerFired(.expireUndo(generation: 1))).isEmpty, "an older line's timer")
        #expect(state.undoableTrashes.count == 2)
        _ = update(&state, .timerFired(.expireUndo(generation: 2)))
        #expect(state.message == nil)
        #expect(send("u", to: &state).isEmpty)
    }

    @Test func theUndoLineExpiringLeavesALaterMessageShown() {
        var state = AppState.fixture()
        _ = send("d", to: &state)
        // Another message replaces the undo line before it expires (in CI: the Trash view's
        // "Deleted … forever" vanished when the earlier `d`'s undo line ran out).
        _ = send("s", to: &state)
        let later = state.message
        #expect(update(&state, .timerFired(.expireUndo(generation: 1))).isEmpty)
        #expect(state.message == later)
        #expect(send("u", to: &state).isEmpty, "the undo is gone even though its line was not shown")
    }

    @Test func theUndoLineExpiresAndUThenDoesNothing() {
        var state = AppState.fixture()
        _ = send("d", to: &state)
        #expect(update(&state, .timerFired(.expireUndo(generation: 1))).isEmpty)
        #expect(state.message == nil)
        #expect(send("u", to: &state).isEmpty)
    }

    @Test func uWithNothingTrashedDoesNothing() {
        var state = AppState.fixture()
        #expect(send("u", to: &state).isEmpty)
        #expect(state == AppState.fixture())
    }

    @Test func sSyncsNow() {
        var state = AppState.fixture()
        #expect(send("s", to: &state) == [.syncNow, .scheduleTimer(.clearMessage(generation: 1), after: .seconds(6))])
        #expect(state.message == StatusMessage("Syncing…"))
    }

    @Test func eOpensTheSelectedNoteInTheExternalEditor() {
        var state = AppState.fixture()
        #expect(send("je", to: &state) == [.openExternalEditor(noteID(2))])
    }

    @Test func questionMarkOpensHelpAndEscOrQuestionMarkClosesIt() {
        var state = AppState.fixture()
        _ = send("?", to: &state)
        #expect(state.focus == .help(scroll: 0))
        // Keys other than close and quit do nothing while help is up.
        #expect(send("jn", to: &state).isEmpty)
        #expect(state.selection == 0)
        _ = send("<Esc>", to: &state)
        #expect(state.focus == .list)
        _ = send("??", to: &state)
        #expect(state.focus == .list)
    }

    @Test func qQuits() {
        var state = AppState.fixture()
        #expect(send("q", to: &state) == [.quit])
    }

    @Test func enterLoadsTheSelectedNoteIntoTheEditorAndEscComesBack() {
        var state = AppState.fixture()
        #expect(send("j<Enter>", to: &state) == [.loadNote(noteID(2))])
        #expect(state.focus == .editor)
        // Keys typed before the text arrives wait for it, Esc too (issue 22, item 2) ...
        #expect(send("jq<Esc>", to: &state).isEmpty)
        #expect(state.focus == .editor)
        // ... and are replayed in order once it is there: typed in, then back to the list.
        _ = update(
            &state,
            .noteLoaded(NoteContent(id: noteID(2), title: "Ideas", body: "", modifiedAt: testNow, headRevision: "r1")))
        #expect(state.editor.loaded?.text == "jqIdeas")
        #expect(state.focus == .list)
        // Enter again on the same note only focuses it.
        #expect(send("<Tab>", to: &state).isEmpty)
        #expect(state.focus == .editor)
    }

    @Test func resizeLoadsTheVisibleWindowPlusAMargin() {
        var state = AppState.fixture()
        // 100x30: a list of 28 lines; the window is a page above, the page and a page below.
        #expect(update(&state, .resize(Size(width: 100, height: 30))) == [.loadList(offset: 0, limit: 84)])
        #expect(state.size == Size(width: 100, height: 30))
    }

    @Test func rowsLoadedReplaceTheListAndKeepTheSelectionInRange() {
        var state = AppState.fixture()
        _ = send("G", to: &state)
        let window = ListWindow(offset: 0, rows: [state.notes[0]], favoriteCount: 0, totalCount: 1)
        // Books (selected) is not in the new list: it is looked for; the answer says it is gone.
        #expect(update(&state, .rowsLoaded(window)) == [.locateInList(id: noteID(5), row: 4, limit: 21)])
        #expect(update(&state, .listLocated(id: noteID(5), row: nil, window: window)).isEmpty)
        #expect(state.selection == 0)
        #expect(state.selectedID == noteID(3))
        #expect(state.rows == [state.notes[0]])
    }

    @Test func tickAndSyncStatusChangeOnlyUpdateState() {
        var state = AppState.fixture()
        let later = testNow.addingTimeInterval(90)
        #expect(update(&state, .tick(later)).isEmpty)
        #expect(state.now == later)
        let status = SyncStatus(phase: .syncing(done: 1, total: 2), pendingCount: 3)
        #expect(update(&state, .syncStatusChanged(status)).isEmpty)
        #expect(state.syncStatus == status)
    }
}
