import Foundation
import NotesApp
import NotesCore
import TerminalUI
import Testing

/// A note deleted for good (the CLI's `purge`) while it is open in the editor: the text typed
/// after it is kept as a new note and the status bar says so; `^R` and quitting keep it too
/// (issue 22, item 3).
@Suite struct EditorPurgedElsewhereTests {
    /// The app with "Draft" open in the editor, "typed" saved into it, then purged by another process.
    func purgedWhileOpen() -> (ModelStore, AppState, UUID) {
        var store = ModelStore()
        store.clock += 10
        _ = store.add(title: "Other", body: "x")
        store.clock += 10
        let id = store.add(title: "Draft", body: "first")
        var state = store.app()
        store.send("<Enter><C-End> typed<C-s>", to: &state)
        store.remove(id)
        store.settle(&state, update(&state, .storeChanged([])))
        return (store, state, id)
    }

    @Test func typingAfterThePurgeIsKeptAsANewNoteAndTheStatusBarSaysSo() throws {
        var (store, state, id) = purgedWhileOpen()
        #expect(state.focus == .editor)
        #expect(state.editor.loaded?.text == "Draft\nfirst typed")
        #expect(
            state.message?.text.contains("deleted for good elsewhere") == true, "\(String(describing: state.message))")
        let typing = send(" more", to: &state)
        let autosave = typing.compactMap { effect -> TimerID? in
            if case .scheduleTimer(let timer, _) = effect, case .autosave = timer { timer } else { nil }
        }.last
        // The autosave keeps it: a new note with the whole text, which the editor edits now.
        store.settle(&state, update(&state, .timerFired(try #require(autosave))))
        let kept = store.notes.first { $0.title == "Draft" }
        #expect(kept != nil && kept?.id != id)
        #expect(kept?.body == "first typed more")
        #expect(state.editor.noteID == kept?.id)
        #expect(
            state.message?.text == "The note was deleted for good elsewhere: your text is kept as a new note “Draft”")
        // Typing on saves into the new note, not another one.
        store.send("!<C-s>", to: &state)
        #expect(store.notes.filter { $0.title == "Draft" }.map(\.body) == ["first typed more!"])
        store.send("<Esc>", to: &state)
        #expect(state.selectedRow?.id == kept?.id)
    }

    @Test func quittingAfterThePurgeKeepsWhatWasTyped() {
        var (store, state, _) = purgedWhileOpen()
        store.send(" last words", to: &state)
        var effects = send("<C-q>", to: &state)
        var quit = false
        while !effects.isEmpty {
            let effect = effects.removeFirst()
            if effect == .quit { quit = true }
            for action in store.answer(effect) { effects += update(&state, action) }
        }
        #expect(quit)
        #expect(store.notes.map(\.body).contains("first typed last words"))
    }

    @Test func ctrlRKeepsTheTextAsANewNoteEvenUntyped() {
        var (store, state, _) = purgedWhileOpen()
        store.send("<C-r>", to: &state)
        #expect(store.notes.filter { $0.title == "Draft" }.map(\.body) == ["first typed"])
        #expect(state.editor.loaded?.isGone == false)
    }

    /// Purged in the trash while open (trashed, then `purge` from the CLI): `^R` does not ask
    /// to restore a note that is gone; it keeps the text as a new note.
    @Test func ctrlROnATrashedNoteThatWasThenPurgedKeepsTheText() {
        var store = ModelStore()
        let id = store.add(title: "Draft", body: "first")
        var state = store.app()
        store.send("<Enter><C-End> typed<C-s>", to: &state)
        store.trash(id)
        store.settle(&state, update(&state, .storeChanged([])))
        #expect(state.editor.loaded?.isTrashed == true)
        store.remove(id)
        store.settle(&state, update(&state, .storeChanged([])))
        let restore = send("<C-r>", to: &state)
        #expect(!restore.contains(.undoTrash(id)))
        store.settle(&state, restore)
        #expect(store.notes.filter { !$0.trashed }.map(\.body) == ["first typed"])
    }
}
