import Foundation
import NotesApp
import NotesCore
import TerminalUI
import Testing

/// Shared notebooks in the app (issue 24): the picker says who shares each and the role here,
/// and a note of a notebook shared read-only opens read-only, saying why, and saves nothing.
@Suite struct SharedNotebookTests {
    static let size = Size(width: 100, height: 30)

    @Test func thePickerNamesTheOwnerAndTheRoleOfASharedNotebook() {
        var state = AppState.fixture(size: Self.size)
        _ = send("N", to: &state)
        let items = [
            PickerItem(label: "notes", value: "notes", count: 3),
            PickerItem(label: "Trip", value: "s-1", count: 2, detail: "shared by Ana (1234 5678) · read-only"),
            PickerItem(label: "Runbooks", value: "s-2", count: 7, detail: "shared by you"),
        ]
        _ = update(&state, .pickerLoaded(.notebook, items))
        let screen = text(view(state, Self.size)).lines
        let trip = screen.first { $0.contains("Trip") } ?? ""
        #expect(trip.contains("shared by Ana (1234 5678) · read-only") && trip.contains("2"), "\(screen)")
        let runbooks = screen.first { $0.contains("Runbooks") } ?? ""
        #expect(runbooks.contains("shared by you") && runbooks.contains("7"), "\(screen)")
        // A notebook of one's own says nothing more than its name and count.
        #expect(screen.first { $0.contains(" notes ") }?.contains("shared") == false)
    }

    @Test func aNoteSharedReadOnlyOpensReadOnlyAndSaysWhoSharesIt() {
        var state = AppState.fixture(size: Self.size)
        _ = update(&state, .input(.key(.enter)))
        var content = NoteContent(
            id: noteID(1), title: "Packing", body: "socks\n", modifiedAt: testNow, headRevision: "r1")
        content.readOnlyOwner = "Ana (1234 5678)"
        _ = update(&state, .noteLoaded(content))
        #expect(state.editor.loaded?.readOnly == .shared(owner: "Ana (1234 5678)"))
        #expect(state.message?.text == "Read-only, shared by Ana (1234 5678): ask them for read-write")
        // Moving works; typing, pasting and deleting change nothing and save nothing.
        _ = update(&state, .input(.key(.end, modifiers: .control)))
        state.message = nil
        let typed =
            update(&state, .key("a")) + update(&state, .input(.paste("pasted")))
            + update(&state, .input(.key(.backspace)))
        #expect(!typed.contains { if case .saveNote = $0 { true } else { false } })
        #expect(state.editor.loaded?.text == "Packing\nsocks\n")
        #expect(
            state.message?.text.hasPrefix("Read-only, shared by Ana") == true, "\(String(describing: state.message))")
        #expect(send("<Esc>", to: &state).allSatisfy { if case .saveNote = $0 { false } else { true } })
    }

    @Test func aRoleChangedBySyncHoldsInTheOpenEditor() {
        var state = AppState.fixture(size: Self.size)
        _ = update(&state, .input(.key(.enter)))
        let content = NoteContent(
            id: noteID(1), title: "Plan", body: "day 1\n", modifiedAt: testNow, headRevision: "r1")
        _ = update(&state, .noteLoaded(content))
        #expect(state.editor.loaded?.isReadOnly == false)
        // The owner made this account read-only: the next reload of the note says so.
        var readOnly = content
        readOnly.readOnlyOwner = "Ana"
        _ = update(&state, .noteLoaded(readOnly))
        _ = update(&state, .key("x"))
        #expect(state.editor.loaded?.text == "Plan\nday 1\n")
        // Read-write again: typing works.
        _ = update(&state, .noteLoaded(content))
        _ = update(&state, .key("x"))
        #expect(state.editor.loaded?.text.contains("x") == true)
    }
}
