import Foundation
import NotesApp
import NotesCore
import TerminalUI
import Testing

/// A note moved to the trash elsewhere (the CLI, sync) while it is open in the editor: the
/// editor says so for as long as it is, the text typed is kept, and `^R` restores the note
/// with that text.
@Suite struct EditorTrashedElsewhereTests {
    /// The app with "Draft" open in the editor, "typed" saved into it.
    func editing() -> (ModelStore, AppState, UUID) {
        var store = ModelStore()
        store.clock += 10
        _ = store.add(title: "Other", body: "x")
        store.clock += 10
        let id = store.add(title: "Draft", body: "first")
        var state = store.app()
        store.send("<Enter><C-End> typed<C-s>", to: &state)
        return (store, state, id)
    }

    func statusBar(_ state: AppState) -> String { text(row(14, of: view(state, state.size))).lines[0] }

    @Test func theEditorSaysTheNoteIsInTheTrashAndCtrlRRestoresItWithTheText() {
        var (store, state, id) = editing()
        #expect(store.notes.first { $0.id == id }?.body == "first typed")
        store.trash(id)
        store.settle(&state, update(&state, .storeChanged([])))
        #expect(state.editor.loaded?.isTrashed == true)
        #expect(state.focus == .editor)
        #expect(state.message?.text == "This note was moved to the trash elsewhere: ^R restores it with your text")
        #expect(statusBar(state).contains("This note was moved to the trash"), "\(statusBar(state))")
        // The notice outlives the message.
        state.message = nil
        #expect(statusBar(state).contains("In the trash · ^R restores it"), "\(statusBar(state))")
        // Typing goes on; the text is kept (saved into the note, which is in the trash).
        store.send(" more", to: &state)
        #expect(state.editor.loaded?.text == "Draft\nfirst typed more")
        let restore = send("<C-r>", to: &state)
        #expect(
            restore.prefix(2) == [
                .saveNote(
                    id: id, title: "Draft", body: "first typed more", baseRevision: state.editor.loaded?.baseRevision),
                .undoTrash(id),
            ])
        store.settle(&state, restore)
        let note = store.notes.first { $0.id == id }
        #expect(note?.trashed == false)
        #expect(note?.body == "first typed more")
        #expect(state.editor.loaded?.isTrashed == false)
        #expect(state.editor.loaded?.text == "Draft\nfirst typed more")
        #expect(!statusBar(state).contains("In the trash"))
        // Back in the list, selected.
        store.send("<Esc>", to: &state)
        #expect(state.selectedRow?.title == "Draft")
    }

    @Test func leavingTheEditorOnATrashedNoteKeepsTheTextAndSaysWhere() {
        var (store, state, id) = editing()
        store.trash(id)
        store.settle(&state, update(&state, .storeChanged([])))
        store.send(" kept", to: &state)
        let leave = send("<Esc>", to: &state)
        #expect(leave.first == .saveNote(id: id, title: "Draft", body: "first typed kept", baseRevision: "r1"))
        store.settle(&state, leave)
        #expect(store.notes.first { $0.id == id }?.body == "first typed kept")
        #expect(
            state.message
                == StatusMessage("“Draft” is in the trash with your text: T shows the trash", severity: .warning))
        // The Trash view has it, with the text.
        store.send("T", to: &state)
        #expect(state.trash?.selectedRow?.id == id)
    }

    @Test func aSaveAnsweredForATrashedNoteTurnsTheNoticeOn() {
        var state = AppState.editing(
            NoteContent(id: noteID(1), title: "Groceries", body: "milk", modifiedAt: testNow, headRevision: "r1"))
        _ = send("x<C-s>", to: &state)
        let saved = SavedNote(
            id: noteID(1), title: "xGroceries", body: "milk", headRevision: "r3", modifiedAt: testNow, merged: true,
            isTrashed: true)
        _ = update(&state, .noteSaved(saved))
        #expect(state.editor.loaded?.isTrashed == true)
        #expect(state.message?.text.contains("moved to the trash elsewhere") == true)
    }

    @Test func ctrlROnANoteThatIsNotTrashedDoesNothing() {
        var state = AppState.editing(
            NoteContent(id: noteID(1), title: "Groceries", body: "milk", modifiedAt: testNow, headRevision: "r1"))
        #expect(send("<C-r>", to: &state).isEmpty)
        #expect(state.editor.loaded?.text == "Groceries\nmilk")
    }

    /// A favorite or trash toggled elsewhere changes no text: the editor keeps its cursor and
    /// says nothing about a reload.
    @Test func aChangeOfAnotherFieldOnlyMovesTheBase() {
        var state = AppState.editing(
            NoteContent(id: noteID(1), title: "Groceries", body: "milk", modifiedAt: testNow, headRevision: "r1"))
        _ = send("<Down><End>", to: &state)
        _ = update(&state, .storeChanged([noteID(1)]))
        let effects = update(
            &state,
            .noteLoaded(
                NoteContent(
                    id: noteID(1), title: "Groceries", body: "milk", isFavorite: true, modifiedAt: testNow,
                    headRevision: "r2")))
        #expect(effects.isEmpty)
        #expect(state.message == nil)
        #expect(state.editor.loaded?.baseRevision == "r2")
        #expect(state.editor.loaded?.cursor == TextPosition(line: 1, column: 4))
    }
}
