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
        #expect(state.editor?.text?.contains("typing in the middle") == true)
        #expect(state.editor?.text?.utf8.count == body.utf8.count + "Big\n".utf8.count + 20)
    }
}
