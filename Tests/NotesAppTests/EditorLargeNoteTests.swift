import Foundation
import NotesApp
import NotesCore
import TerminalUI
import Testing

/// A 10 MB note opens, takes keys where the cursor is and is drawn; what each keystroke costs
/// in time is measured by `cloudnotes-bench --editor`, not here.
@Suite struct EditorLargeNoteTests {
    @Test func typingInTheMiddleOfATenMegabyteNoteLandsAtTheCursor() {
        let line = "Some words of a long note, with 中文 and emoji 👍 in it, and more words.\n"
        let body = String(repeating: line, count: 10_000_000 / line.utf8.count)
        var state = AppState.fixture(size: Size(width: 100, height: 40))
        _ = update(&state, .input(.key(.enter)))
        _ = update(
            &state,
            .noteLoaded(NoteContent(id: noteID(1), title: "Big", body: body, modifiedAt: testNow, headRevision: "r1")))
        _ = update(&state, .input(.key(.pageDown)))
        for character in "typing in the middle" { _ = update(&state, .key(character)) }
        let screen = text(view(state, Size(width: 100, height: 40))).lines
        #expect(screen.contains { $0.contains("typing in the middle") })
        _ = update(&state, .input(.key(.end, modifiers: .control)))
        #expect(state.editor.loaded?.text.contains("typing in the middle") == true)
        #expect(state.editor.loaded?.text.utf8.count == body.utf8.count + "Big\n".utf8.count + 20)
    }

    /// Keys typed while the note loads (a huge note takes seconds): `^End` and the text wait
    /// and land at the end once the note is there, never in the title or nowhere (issue 22,
    /// item 2), and the status bar says "edited", not "saved", until a save is answered.
    @Test func keysTypedWhileTheNoteLoadsAreReplayedInOrder() {
        var state = AppState.fixture(size: Size(width: 100, height: 40))
        _ = update(&state, .input(.key(.enter)))
        var early: [Effect] = []
        for event in InputEvent.keys("<C-End> typed early")! { early += update(&state, .input(event)) }
        #expect(early.isEmpty, "nothing is saved before the note is there")
        let loaded = update(
            &state,
            .noteLoaded(
                NoteContent(
                    id: noteID(1), title: "Big", body: "line one\nline two", modifiedAt: testNow, headRevision: "r1")))
        #expect(state.editor.loaded?.text == "Big\nline one\nline two typed early")
        #expect(state.editor.loaded?.hasUnsavedEdits == true)
        #expect(loaded.contains { if case .scheduleTimer(.autosave, _) = $0 { true } else { false } }, "\(loaded)")
        let statusBar = text(view(state, Size(width: 100, height: 40))).lines[39]
        #expect(statusBar.contains("edited") && !statusBar.contains("saved"), "\(statusBar)")
    }

    /// A note over what the editor edits opens read-only: moving works, typing and pasting
    /// are refused with a message pointing at `$EDITOR`, and nothing is saved.
    @Test func aNoteOverTheEditableSizeOpensReadOnlyPointingAtTheExternalEditor() {
        let line = String(repeating: "x", count: 1023) + "\n"
        let body = String(repeating: line, count: AppState.editableBytes / 1024 + 1)
        var state = AppState.fixture(size: Size(width: 100, height: 40))
        _ = update(&state, .input(.key(.enter)))
        _ = update(
            &state,
            .noteLoaded(NoteContent(id: noteID(1), title: "Huge", body: body, modifiedAt: testNow, headRevision: "r1")))
        #expect(state.editor.loaded?.isReadOnly == true)
        #expect(state.message?.text.contains("e edits it in $EDITOR") == true, "\(String(describing: state.message))")
        _ = update(&state, .input(.key(.end, modifiers: .control)))
        #expect(state.editor.loaded?.cursor.line == AppState.editableBytes / 1024 + 2)
        state.message = nil
        let typed = update(&state, .key("a")) + update(&state, .input(.paste("pasted")))
        #expect(!typed.contains { if case .scheduleTimer(.autosave, _) = $0 { true } else { false } })
        #expect(state.editor.loaded?.hasUnsavedEdits == false)
        #expect(state.message?.text.hasPrefix("Read-only: this note is too large to edit here") == true)
        #expect(send("<Esc>", to: &state).allSatisfy { if case .saveNote = $0 { false } else { true } })
    }
}
