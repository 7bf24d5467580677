import Foundation
import NotesApp
import NotesCore
import TerminalUI
import Testing

/// What has the keys is one value (`AppState.Focus`): an overlay's state goes when another
/// takes its place, and the editor pane is closed, loading or loaded (`EditorSlot`).
@Suite struct ModesTests {
    /// `c` then `T` before the conflicts come: the resolver takes the Trash view's place, and
    /// back on the list no change in the store asks for the trash any more.
    @Test func anOverlayAnotherReplacesIsGoneAndStopsLoading() {
        var state = AppState.fixture()
        #expect(send("c", to: &state) == [.loadConflicts(limit: 100)])
        _ = send("T", to: &state)
        #expect(state.trash != nil)
        _ = update(&state, .conflictsLoaded([state.notes[0]]))
        #expect(state.resolver?.noteID == state.notes[0].id)
        #expect(state.trash == nil)
        _ = send("<Esc>", to: &state)
        #expect(state.focus == .list)
        let effects = update(&state, .storeChanged([]))
        #expect(!effects.contains { if case .loadTrash = $0 { true } else { false } })
    }

    /// Enter opens the note loading: keys wait in it, and the pane says "Loading…" until the
    /// text comes; then the note is loaded with the keys typed into it.
    @Test func theEditorIsLoadingUntilItsTextComesThenLoaded() {
        var state = AppState.fixture()
        #expect(send("<Enter>", to: &state) == [.loadNote(noteID(1))])
        guard case .loading(let opening) = state.editor else {
            Issue.record("expected the note loading, got \(state.editor)")
            return
        }
        #expect(opening.noteID == noteID(1))
        _ = send("x", to: &state)
        #expect(text(view(state, state.size)).lines.contains { $0.contains("Loading…") })
        let content = NoteContent(id: noteID(1), title: "Groceries", body: "milk", modifiedAt: testNow)
        _ = update(&state, .noteLoaded(content))
        #expect(state.editor.loaded?.text == "xGroceries\nmilk")
    }

    /// The editor has the keys only while it holds a note: quitting from a new note still
    /// empty (here still loading) discards it and gives the keys back to the list.
    @Test func theEditorHasTheKeysOnlyWhileItHoldsANote() {
        var state = AppState.fixture()
        _ = update(&state, .noteCreated(noteID(9)))
        #expect(state.focus == .editor)
        #expect(state.editor.noteID == noteID(9) && state.editor.loaded == nil)
        #expect(send("<C-q>", to: &state) == [.discardIfEmpty(noteID(9)), .quit])
        #expect(state.editor == .closed)
        #expect(state.focus == .list)
    }
}
