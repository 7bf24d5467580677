import Foundation
import NotesApp
import NotesCore
import TerminalUI
import Testing

/// The editor's nano/emacs keys through `update` and `view`: kill and word deletion, the
/// selection and the clipboard, tabs, mixed line endings, and a new note left empty.
@Suite struct EditorKeysTests {
    func open(_ title: String, _ body: String) -> AppState {
        AppState.editing(NoteContent(id: noteID(1), title: title, body: body, modifiedAt: testNow, headRevision: "r1"))
    }

    func clipboardEffects(_ effects: [Effect]) -> [String] {
        effects.compactMap { if case .setClipboard(let text) = $0 { text } else { nil } }
    }

    @Test func ctrlKKillsToTheLineEndAndCtrlUPastesTheKilledLines() {
        var state = open("Title", "first\nsecond\nthird")
        _ = send("<Down>", to: &state)
        // Three Ctrl-K: "first", its line break, "second": collected as nano does.
        #expect(clipboardEffects(send("<C-k>", to: &state)) == ["first"])
        #expect(clipboardEffects(send("<C-k><C-k>", to: &state)) == ["first\n", "first\nsecond"])
        #expect(state.editor.loaded?.text == "Title\n\nthird")
        #expect(state.clipboard == "first\nsecond")
        _ = send("<Down><End><Enter><C-u>", to: &state)
        #expect(state.editor.loaded?.text == "Title\n\nthird\nfirst\nsecond")
        // The kill is an edit: it schedules the autosave like typing.
        #expect(
            send("<Up><C-k>", to: &state).contains(.scheduleTimer(.autosave(generation: 6), after: .milliseconds(1500)))
        )
    }

    @Test func ctrlWAndAltBackspaceDeleteTheWordBeforeTheCursor() {
        var state = open("Title", "buy oat milk")
        _ = send("<Down><End><C-w>", to: &state)
        #expect(state.editor.loaded?.text == "Title\nbuy oat ")
        _ = send("<A-BS>", to: &state)
        #expect(state.editor.loaded?.text == "Title\nbuy ")
        _ = send("<A-u>", to: &state)
        #expect(state.editor.loaded?.text == "Title\nbuy oat ")
    }

    @Test func shiftArrowsSelectAltWCopiesToTheTerminalClipboardAndCtrlUPastes() {
        var state = open("Title", "alpha beta")
        _ = send("<Down><S-Right><S-Right><S-Right><S-Right><S-Right>", to: &state)
        #expect(state.editor.loaded?.selection != nil)
        let copied = send("<A-w>", to: &state)
        #expect(clipboardEffects(copied) == ["alpha"])
        #expect(state.message?.text == "Copied 5 characters")
        // Copying ends the selection and leaves the text alone.
        #expect(state.editor.loaded?.text == "Title\nalpha beta")
        _ = send("<End> <C-u>", to: &state)
        #expect(state.editor.loaded?.text == "Title\nalpha beta alpha")
    }

    @Test func theMarkThenMotionSelectsAndCtrlXCutsIt() {
        var state = open("Title", "one two three")
        _ = send("<Down><A-f><C-Space><A-f>", to: &state)
        #expect(clipboardEffects(send("<C-x>", to: &state)) == [" two"])
        #expect(state.editor.loaded?.text == "Title\none three")
        // Ctrl-K with a selection cuts it (nano), Ctrl-W too (emacs); Alt-6 copies (nano).
        _ = send("<C-@><End>", to: &state)
        #expect(clipboardEffects(send("<C-k>", to: &state)) == [" three"])
        _ = send("<S-Home>", to: &state)
        #expect(clipboardEffects(send("<A-6>", to: &state)) == ["one"])
        _ = send("<End><S-Home><C-w>", to: &state)
        #expect(state.editor.loaded?.text == "Title\n")
        #expect(state.clipboard == "one")
    }

    @Test func escEndsASelectionBeforeLeavingTheEditor() {
        var state = open("Title", "text")
        _ = send("<S-Down>", to: &state)
        #expect(send("<Esc>", to: &state).isEmpty)
        #expect(state.focus == .editor)
        #expect(state.editor.loaded?.selection == nil)
        _ = send("<Esc>", to: &state)
        #expect(state.focus == .list)
    }

    @Test func theSelectionIsDrawnHighlighted() {
        var state = open("Title", "select me")
        _ = send("<Down><S-End>", to: &state)
        let screen = view(state, state.size)
        // The pane's text starts at x 1, row 10 (under the list at 60x15); the cursor sits after "me".
        #expect(text(screen).lines[10].hasPrefix(" select me "))
        let selected = Style().reverse().underline()
        #expect(styles(screen, y: 10, x: 1, count: 9) == Array(repeating: selected, count: 9))
        #expect(screen[10, 10].style == Style().reverse())
        #expect(screen[0, 10].style == .plain)
        _ = send("<Left>", to: &state)
        #expect(styles(view(state, state.size), y: 10, x: 1, count: 8) == Array(repeating: .plain, count: 8))
    }

    @Test func tabsAreDrawnToTabStopsOfEightColumns() {
        let state = open("Title", "a\tb\tc\n12345678\tx")
        let lines = text(view(state, state.size)).lines
        #expect(lines[10].hasPrefix(" a       b       c "))
        #expect(lines[11].hasPrefix(" 12345678        x "))
    }

    @Test func aNoteWithMixedLineEndingsSavesUntouchedLinesByteForByte() {
        let body = "crlf one\r\nlf two\ncrlf three\r\nend"
        var state = open("Title", body)
        #expect(state.editor.loaded?.text == "Title\r\n" + body)
        _ = send("<Down><Down><End>!", to: &state)
        #expect(
            send("<C-s>", to: &state) == [
                .saveNote(
                    id: noteID(1), title: "Title", body: "crlf one\r\nlf two!\ncrlf three\r\nend", baseRevision: "r1")
            ])
    }

    @Test func aNewNoteLeftEmptyIsDiscardedNotSaved() {
        var state = AppState.fixture()
        _ = send("n", to: &state)
        _ = update(&state, .noteCreated(noteID(9)))
        _ = update(
            &state,
            .noteLoaded(NoteContent(id: noteID(9), title: "", body: "", modifiedAt: testNow, headRevision: "n1")))
        // Typed and deleted again: still empty.
        _ = send("x<BS>", to: &state)
        #expect(send("<Esc>", to: &state) == [.discardIfEmpty(noteID(9))])
        #expect(state.editor == .closed)
        #expect(state.focus == .list)
    }

    @Test func quittingFromAnEmptyNewNoteDiscardsItFirst() {
        var state = AppState.fixture()
        _ = update(&state, .noteCreated(noteID(9)))
        _ = update(
            &state,
            .noteLoaded(NoteContent(id: noteID(9), title: "", body: "", modifiedAt: testNow, headRevision: "n1")))
        #expect(send("<C-q>", to: &state) == [.discardIfEmpty(noteID(9)), .quit])
    }

    @Test func aNewNoteSavedWithTextThenEmptiedIsKept() {
        var state = AppState.fixture()
        _ = update(&state, .noteCreated(noteID(9)))
        _ = update(
            &state,
            .noteLoaded(NoteContent(id: noteID(9), title: "", body: "", modifiedAt: testNow, headRevision: "n1")))
        _ = send("x", to: &state)
        #expect(
            update(&state, .timerFired(.autosave(generation: 1))) == [
                .saveNote(id: noteID(9), title: "x", body: "", baseRevision: "n1")
            ])
        _ = update(
            &state, .noteSaved(SavedNote(id: noteID(9), title: "x", body: "", headRevision: "n2", modifiedAt: testNow)))
        _ = send("<BS>", to: &state)
        #expect(send("<Esc>", to: &state) == [.saveNote(id: noteID(9), title: "", body: "", baseRevision: "n2")])
        // An existing note emptied is saved too, never discarded.
        var old = open("Title", "")
        _ = send("<S-End><BS>", to: &old)
        #expect(send("<Esc>", to: &old) == [.saveNote(id: noteID(1), title: "", body: "", baseRevision: "r1")])
    }

    @Test func helpListsTheEditorsClipboardKeysOnATallTerminal() {
        var state = AppState.fixture(size: Size(width: 80, height: 24))
        _ = send("?", to: &state)
        let lines = text(view(state, Size(width: 80, height: 24))).lines
        #expect(lines.contains { $0.contains("│ ^K ^W        editor: cut line/word │") })
        #expect(lines.contains { $0.contains("│ S-← ^Space   editor: select/mark   │") })
        #expect(lines.contains { $0.contains("│ ^X M-w ^U    editor: clipboard     │") })
    }
}
