import Foundation
import NotesApp
import NotesCore
import TerminalUI
import Testing

/// The selection is a note, not a row (ARCHITECTURE §6): each test drives `update` against
/// `ModelStore`, which answers effects as the runtime does, and checks the note selected.
@Suite struct SelectionTests {
    /// `count` notes titled "Note i", note 1 the newest; `favorites` of them (the newest) favorites.
    func store(_ count: Int, favorites: Int = 0) -> ModelStore {
        var store = ModelStore()
        for i in 1...count { _ = store.add(title: "Note \(i)", favorite: i <= favorites, modifiedAt: 1_000_000 - i) }
        return store
    }

    @Test func gThenFTwiceFavoritesAndUnfavoritesTheLastNoteOnly() {
        var store = store(2000)
        var state = store.app()
        store.send("G", to: &state)
        #expect(state.selectedRow?.title == "Note 2000")
        store.send("f", to: &state)
        // Note 2000 moved to the top (FAVORITES) and the selection went with it.
        #expect(state.selectedRow?.title == "Note 2000")
        #expect(state.selectedRow?.isFavorite == true)
        #expect(state.selection == 0)
        store.send("f", to: &state)
        #expect(state.selectedRow?.title == "Note 2000")
        #expect(store.notes.filter(\.isFavorite).isEmpty)
        #expect(state.selection == 1999)
    }

    @Test func fTwiceOnTheTopFavoriteLeavesEveryNoteAsItWas() {
        var store = store(2000, favorites: 3)
        let before = store.notes
        var state = store.app()
        store.send("ff", to: &state)
        #expect(store.notes == before)
        #expect(state.selectedRow?.title == "Note 1")
        #expect(state.selection == 0)
    }

    /// 100 results for "the", favorites among them: the ranked list is not reordered, so
    /// loading more results keeps the selection where the keys put it.
    func searching() -> (ModelStore, AppState, [ModelStore.Note]) {
        var store = ModelStore()
        for i in 1...100 {
            _ = store.add(title: "the note \(i)", favorite: i % 7 == 3, modifiedAt: 1_000_000 - i)
        }
        var state = store.app()
        store.send("/the<Enter>", to: &state)
        return (store, state, store.searched("the"))
    }

    @Test func holdingJInSearchResultsWalksPastTheLoadedOnes() {
        var (store, state, results) = searching()
        // The top favorite was selected in the whole list, and it is the third result.
        #expect(state.selectedRow?.title == "the note 3")
        #expect(state.selection == 2)
        for step in 1...60 {
            store.send("j", to: &state)
            #expect(state.selectedRow?.id == results[2 + step].id, "after \(step) j")
        }
        #expect(state.selection == 62)
    }

    @Test func gEndAndPageDownReachTheLastSearchResult() {
        var (store, state, results) = searching()
        store.send("G", to: &state)
        #expect(state.selectedRow?.id == results.last?.id)
        store.send("g", to: &state)
        #expect(state.selectedRow?.id == results[0].id)
        store.send("<End>", to: &state)
        #expect(state.selectedRow?.id == results.last?.id)
        store.send("g", to: &state)
        store.send(String(repeating: "<PgDn>", count: 20), to: &state)
        #expect(state.selectedRow?.id == results.last?.id)
    }

    @Test func searchResultsAreOneRankedListWithTheirStars() {
        var store = ModelStore()
        let old = store.add(title: "alpha old", favorite: true, modifiedAt: 10)
        let new = store.add(title: "alpha new", modifiedAt: 20)
        let body = store.add(title: "other", body: "alpha in the body", favorite: true, modifiedAt: 30)
        var state = store.app()
        store.send("/alpha", to: &state)
        // Title matches first, newest first; the favorite keeps its rank and its star.
        #expect(state.rows.map(\.id) == [new, old, body])
        #expect(state.rows.map(\.isFavorite) == [false, true, true])
        let lines = text(view(state, state.size)).lines
        #expect(lines[1].hasPrefix("NOTES"))
        #expect(lines[3].hasPrefix("★ alpha old"))
    }

    @Test func newNotesAreSelected() {
        var store = store(5)
        var state = store.app()
        store.send("n", to: &state)
        store.send("First note<Esc>", to: &state)
        #expect(state.selectedRow?.title == "First note")
        store.send("n", to: &state)
        store.send("Second note<Esc>", to: &state)
        #expect(state.selectedRow?.title == "Second note")
        #expect(state.selection == 0)
        #expect(state.rows.prefix(2).map(\.title) == ["Second note", "First note"])
    }

    @Test func aFavoriteMadeInSearchShowsInTheWholeListAtOnce() {
        var store = store(50)
        let alpha = store.add(title: "alpha", modifiedAt: 1)
        var state = store.app()
        store.send("/alpha<Enter>f<Esc>", to: &state)
        // No poll needed: the list is reloaded on leaving the search, on the same note.
        #expect(state.searchResults == nil)
        #expect(state.selectedRow?.id == alpha)
        #expect(state.selectedRow?.isFavorite == true)
        #expect(state.selection == 0)
        #expect(state.listWindow.favoriteCount == 1)
    }

    @Test func aTrashedNoteLeavesTheSelectionOnTheRowThatTookItsPlace() {
        var store = store(100)
        var state = store.app()
        store.send("jjjd", to: &state)
        #expect(state.selectedRow?.title == "Note 5")
        #expect(state.selection == 3)
        store.send("u", to: &state)
        // Restored above it: the selection stays on Note 5.
        #expect(state.selectedRow?.title == "Note 5")
        #expect(state.selection == 4)
    }

    @Test func aWriteFromElsewhereKeepsTheSelectedNoteWhereverItMoves() {
        var store = store(300)
        var state = store.app()
        store.send("<PgDn><PgDn><PgDn>", to: &state)
        let selected = state.selectedID
        // Another process edits the selected note: it moves to the top.
        store.clock += 10
        let now = store.clock
        store.change(selected!) { $0.modifiedAt = now }
        store.settle(&state, update(&state, .storeChanged([])))
        #expect(state.selectedID == selected)
        #expect(state.selection == 0)
        // And deletes it: the row that took its place (the same index) is selected.
        store.remove(selected!)
        store.settle(&state, update(&state, .storeChanged([])))
        #expect(state.selectedRow?.id == store.listed()[0].id)
    }
}
