import Foundation
import NotesStore
import Testing

/// The trash, stepped in-process (formerly tmux end-to-end tests): the Trash view (`T`)
/// restores and deletes forever after a question, and a note trashed by another process while
/// the editor has it keeps what is typed.
@Suite struct TrashFlowTests {
    @Test func dThenTheTrashViewRestoresOneNoteAndDeletesAnotherForeverOnlyAfterY() throws {
        let app = try SteppedRuntime { store in
            try store.create(title: "Keep me", body: "first")
            try store.create(title: "Purge me", body: "second")
            try store.create(title: "Other", body: "third")
        }
        app.expectSelected("Other")
        // The oldest note, last in the list, to the trash.
        app.press("G")
        app.expectSelected("Keep me")
        app.press("d")
        app.expectScreen("the trash line") {
            $0.contains("Moved “Keep me” to the trash") && !$0.contains("Keep me  first")
        }
        app.press("T")
        app.expectScreen("the Trash view") {
            $0.contains("TRASH · 1 note") && $0.contains("Keep me") && $0.contains("r restore")
        }
        app.press("r")
        app.expectScreen("the note restored") {
            $0.contains("Restored “Keep me” to the notes") && $0.contains("The trash is empty")
        }
        app.press("<Esc>")
        app.expectScreen("the list") { $0.contains("q quit") || $0.contains("/ search") }
        // Back in the list, the restored note is the selected one.
        app.expectSelected("Keep me")
        #expect(try app.titles(.trash).isEmpty)

        app.press("k")
        app.expectSelected("Purge me")
        app.press("d")
        app.expectScreen("Moved “Purge me” to the trash")
        app.press("T")
        app.expectScreen("the Trash view") { $0.contains("TRASH · 1 note") && $0.contains("Purge me") }
        app.press("X")
        app.expectScreen("Delete forever “Purge me”? y/n")
        // Anything but y keeps it.
        app.press("n")
        app.expectScreen("Nothing deleted")
        #expect(try app.titles(.trash) == ["Purge me"])
        app.press("X")
        app.expectScreen("Delete forever “Purge me”? y/n")
        app.press("y")
        app.expectScreen("the note deleted") {
            $0.contains("Deleted “Purge me” forever") && $0.contains("The trash is empty")
        }
        app.press("<Esc>")
        app.expectScreen("the list") { $0.contains("/ search") && !$0.contains("TRASH") }
        app.press("q")
        #expect(app.runtime.exited == .quit)

        // The store agrees: the first is back (not in the trash), the second is gone for good.
        #expect(try app.titles().sorted() == ["Keep me", "Other"])
        #expect(try app.titles(.trash).isEmpty)
        #expect(try app.note("Keep me")?.body == "first")
        #expect(try app.store.search("second", limit: 10).hits.isEmpty)
    }

    @Test func aNoteTrashedByAnotherProcessWhileOpenInTheEditorIsRestoredWithTheTypedText() throws {
        let app = try SteppedRuntime { store in try store.create(title: "Draft", body: "first line") }
        app.expectScreen("Draft")
        app.press("<Enter>")
        app.expectScreen("the editor's hints") { $0.contains("Esc back") }
        app.press("<Down><End> typed in the app")
        // The autosave, once typing has paused for its delay.
        app.advance(by: .seconds(2))
        #expect(try app.note("Draft")?.body == "first line typed in the app")
        // Another connection (another process's `cloudnotes rm`) moves it to the trash while
        // the editor has it open; the runtime's next check for other commits sees it.
        let other = try NoteStore(directory: app.directory)
        let id = try #require(try app.note("Draft")?.id)
        _ = try other.trash(id)
        app.advance(by: .milliseconds(300))
        app.expectScreen("the editor saying the note is in the trash") { $0.contains("moved to the trash elsewhere") }
        // Typing goes on: nothing typed is lost.
        app.press(" and after")
        app.expectScreen("and after")
        app.press("<C-r>")
        app.expectScreen("Restored “Draft” from the trash")
        app.advance(by: .seconds(6))
        #expect(try app.store.note(id)?.body == "first line typed in the app and after")
        #expect(try app.titles(.trash).isEmpty)
        #expect(try app.titles().contains("Draft"))
        app.press("<Esc>")
        app.expectScreen("the list") { $0.contains("q quit") }
    }
}
