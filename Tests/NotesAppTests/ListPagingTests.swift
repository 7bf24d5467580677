import Foundation
import NotesApp
import NotesCore
import TerminalUI
import Testing

/// Only the visible window plus a margin is in memory; scrolling asks for more.
@Suite struct ListPagingTests {
    func rows(_ range: Range<Int>) -> [NoteRow] {
        range.map { row(1000 + $0, "Note \($0)", ago: 60) }
    }

    /// 1000 notes, none favorite, the first 21 loaded (60x15: a list of 7 lines, so 3 pages).
    func bigList() -> AppState {
        var state = AppState(now: testNow, size: Size(width: 60, height: 15))
        _ = update(&state, .rowsLoaded(ListWindow(offset: 0, rows: rows(0..<21), favoriteCount: 0, totalCount: 1000)))
        return state
    }

    @Test func movingWithinTheLoadedWindowAsksForNothing() {
        var state = bigList()
        #expect(send("jjjjjjjjjjjjjj", to: &state).isEmpty)
        #expect(state.selection == 14)
    }

    @Test func scrollingPastTheWindowAsksOnceForTheRowsAroundTheNewView() {
        var state = bigList()
        _ = send(String(repeating: "j", count: 14), to: &state)
        // Rows 15 through 20 are loaded: line 21 (row 20) is the last one needed and there.
        #expect(send("<PgDn>", to: &state).isEmpty)
        #expect(state.selection == 20)
        // Row 21 is not loaded: one request for a page above, the page and a page below.
        #expect(send("j", to: &state) == [.loadList(offset: 8, limit: 21)])
        // Asked for already: the next keys do not ask again.
        #expect(send("jj", to: &state).isEmpty)
    }

    @Test func jumpingToTheEndLoadsTheLastPageAndShowsPlaceholdersUntilItArrives() {
        var state = bigList()
        #expect(send("G", to: &state) == [.loadList(offset: 986, limit: 21)])
        #expect(state.selection == 999)
        let waiting = text(view(state, Size(width: 60, height: 15))).lines
        #expect(waiting[1] == "  …                                                         ")
        _ = update(
            &state, .rowsLoaded(ListWindow(offset: 986, rows: rows(986..<1000), favoriteCount: 0, totalCount: 1000)))
        let screen = view(state, Size(width: 60, height: 15))
        #expect(text(screen).lines[7] == "  Note 999                                             1m ✓ ")
        #expect(screen[0, 7].style == Style().reverse())
    }

    @Test func aStoreChangeReloadsTheWindowOnScreen() {
        var state = bigList()
        _ = send("G", to: &state)
        _ = update(
            &state, .rowsLoaded(ListWindow(offset: 986, rows: rows(986..<1000), favoriteCount: 0, totalCount: 1000)))
        // Around the selected note, wherever the change moved it.
        #expect(update(&state, .storeChanged([])) == [.locateInList(id: noteID(1999), row: 999, limit: 21)])
    }

    @Test func theSelectionFollowsItsNoteWhenTheListChanges() {
        var state = AppState.fixture()
        _ = send("jjj", to: &state)
        #expect(state.selectedRow?.title == "Travel")
        #expect(send("f", to: &state) == [.toggleFavorite(noteID(4))])
        // Travel is a favorite now: it moved to the FAVORITES section.
        var travel = state.notes[1]
        travel.isFavorite = true
        let favorites = state.favorites + [travel]
        let others = state.notes.filter { $0.id != noteID(4) }
        _ = update(
            &state,
            .rowsLoaded(ListWindow(offset: 0, rows: favorites + others, favoriteCount: 3, totalCount: 5)))
        #expect(state.selection == 2)
        #expect(state.selectedRow?.id == noteID(4))
    }

    @Test func searchResultsGrowWhenTheSelectionNearsTheirEnd() {
        var state = bigList()
        _ = send("/note", to: &state)
        _ = update(&state, .searchResults(query: "note", rows: rows(0..<14), limit: 14))
        #expect(send("<Enter>", to: &state).isEmpty)
        #expect(send("jjjjjj", to: &state).isEmpty)
        // Row 7: a page from the end of the 14 results, which filled the limit: ask for more.
        #expect(send("j", to: &state) == [.search(query: "note", limit: 28)])
        _ = update(&state, .searchResults(query: "note", rows: rows(0..<28), limit: 28))
        // The longer page of the same search keeps the selection.
        #expect(state.selection == 7)
    }

    /// Seen in a CI run of the tmux flow: an answer to an earlier, smaller search (a reload)
    /// arrived after `G` had asked for more and was taken for all the results, so `G` stopped
    /// at the 14th of 40. Each answer says the limit it was asked for.
    @Test func aLateAnswerToASmallerSearchDoesNotEndAJumpToTheLastResult() {
        var state = bigList()
        _ = send("/note", to: &state)
        _ = update(&state, .searchResults(query: "note", rows: rows(0..<14), limit: 14))
        _ = send("<Enter>", to: &state)
        #expect(send("G", to: &state) == [.search(query: "note", limit: 28)])
        // The reload asked for before G answers now, with 14 of its 14.
        #expect(update(&state, .searchResults(query: "note", rows: rows(0..<14), limit: 14)).isEmpty)
        #expect(
            update(&state, .searchResults(query: "note", rows: rows(0..<28), limit: 28)) == [
                .search(query: "note", limit: 56)
            ])
        _ = update(&state, .searchResults(query: "note", rows: rows(0..<40), limit: 56))
        #expect(state.selectedRow?.title == "Note 39")
    }

    /// Keys held while results load move from where the selection is heading: `k` after
    /// `G` is the result before the last, and `j` past the loaded results counts every press.
    @Test func keysPressedBeforeResultsArriveCountFromWhereTheSelectionIsHeading() {
        var state = bigList()
        _ = send("/note", to: &state)
        _ = update(&state, .searchResults(query: "note", rows: rows(0..<14), limit: 14))
        _ = send("<Enter>", to: &state)
        _ = send("Gk", to: &state)
        _ = update(&state, .searchResults(query: "note", rows: rows(0..<28), limit: 28))
        _ = update(&state, .searchResults(query: "note", rows: rows(0..<40), limit: 56))
        #expect(state.selectedRow?.title == "Note 38")

        var held = bigList()
        _ = send("/note", to: &held)
        _ = update(&held, .searchResults(query: "note", rows: rows(0..<14), limit: 14))
        _ = send("<Enter>", to: &held)
        _ = send(String(repeating: "j", count: 20), to: &held)
        _ = update(&held, .searchResults(query: "note", rows: rows(0..<28), limit: 28))
        #expect(held.selectedRow?.title == "Note 20")
    }
}
