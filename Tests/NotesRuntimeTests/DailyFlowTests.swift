import Foundation
import NotesStore
import NotesSync
import Testing

/// Daily use, stepped in-process (issue 10; formerly tmux end-to-end tests): search, edit,
/// autosave and quit; a note another process adds appears without a key; a new note left
/// empty is not kept; an edit meeting another process's edit of the same line is kept both
/// ways and flagged ⚠.
@Suite struct DailyFlowTests {
    @Test func aPopulatedStoreIsListedAndSearchedAsYouType() throws {
        let app = try SteppedRuntime { store in
            try store.create(title: "Groceries", body: "milk and eggs")
            try store.create(title: "Trip to Lyon", body: "train at nine")
            try store.create(title: "Ideas", body: "a notes app", isFavorite: true)
        }
        app.expectScreen("the list") {
            $0.contains("Groceries") && $0.contains("Trip to Lyon") && $0.contains("FAVORITES")
        }
        app.press("/mil")
        app.expectScreen("only Groceries") { $0.contains("Groceries") && !$0.contains("Trip to Lyon") }
        app.press("<Esc>")
        app.expectScreen("the whole list again") { $0.contains("Trip to Lyon") }
        app.press("q")
        #expect(app.runtime.exited == .quit)
    }

    @Test func searchOpenEditAutosaveAndQuitThenTheStoreHoldsTheText() throws {
        let app = try SteppedRuntime { store in
            try store.create(title: "Groceries", body: "milk and eggs")
            try store.create(title: "Trip to Lyon", body: "train at nine")
        }
        app.expectScreen("Trip to Lyon")
        app.press("/groc")
        app.expectScreen("only Groceries") { $0.contains("Groceries") && !$0.contains("Trip to Lyon") }
        app.press("<Enter>")  // the first result
        app.press("<Enter>")  // open it in the editor
        app.press("<Down><End>, butter")
        app.expectScreen(", butter")
        // No key after typing: the debounced autosave writes it, and not before its delay.
        app.advance(by: .milliseconds(1499))
        #expect(try app.note("Groceries")?.body == "milk and eggs")
        app.advance(by: .milliseconds(1))
        #expect(try app.note("Groceries")?.body == "milk and eggs, butter")
        app.press(" and jam")
        app.expectScreen("butter and jam")
        app.press("<Esc>")  // leaving the editor saves
        app.expectScreen("the list's key hints") { $0.contains("q quit") }
        app.press("<Esc>")
        app.expectScreen("the search cleared") { $0.contains("Trip to Lyon") }
        app.press("q")
        #expect(app.runtime.exited == .quit)
        #expect(try app.note("Groceries")?.body == "milk and eggs, butter and jam")
    }

    @Test func aNoteAddedByAnotherProcessAppearsAtTheNextCheckWithoutAKeyPress() throws {
        let app = try SteppedRuntime { store in try store.create(title: "Already here", body: "") }
        app.expectScreen("Already here")
        // Another connection, as another process's `cloudnotes add` is: the runtime sees it
        // at its next check of `PRAGMA data_version` (every 300 ms), not before.
        let other = try NoteStore(directory: app.directory)
        try other.create(title: "Added from another process", body: "hello")
        app.settle()
        #expect(!app.screen.contains("Added from another process"))
        app.advance(by: .milliseconds(300))
        app.expectScreen("Added from another process")
    }

    @Test func aNewNoteLeftEmptyIsNotKept() throws {
        let app = try SteppedRuntime { store in try store.create(title: "Existing", body: "x") }
        app.expectScreen("Existing")
        app.press("n")
        app.expectScreen("the new note's editor") { $0.contains("Esc back") }
        #expect(try app.titles().count == 2)
        app.press("<Esc>")
        app.expectScreen("the list") { $0.contains("q quit") }
        // The note `n` made is purged: the store holds only the note there was, none in the trash.
        #expect(try app.titles() == ["Existing"])
        #expect(try app.titles(.trash).isEmpty)
    }

    @Test func anEditInTheAppMeetingAnotherProcesssEditOfTheSameLineIsKeptBothWaysAndFlagged() throws {
        let app = try SteppedRuntime(
            seed: { store in try store.create(title: "Shared", body: "line one\nshared line\nline three") },
            configure: { $0.resolveHeads = ConflictResolver(strategy: .merge).resolve })
        app.expectScreen("Shared")
        app.press("<Enter>")
        app.expectScreen("the editor's hints") { $0.contains("Esc back") }
        // The end of "shared line" (the title is line 0).
        app.press("<Down><Down><End> from the app")
        app.expectScreen("the typing in the editor") { $0.contains("shared line from the app") }
        // Another process changes the same line before the autosave has stored the typing:
        // the save then finds the head moved and merges.
        #expect(try app.note("Shared")?.body == "line one\nshared line\nline three")
        let other = try NoteStore(directory: app.directory)
        let id = try #require(try app.note("Shared")?.id)
        try other.update(id) { $0.body = "line one\nshared line from the CLI\nline three" }
        app.advance(by: .seconds(2))
        app.expectScreen("the merge kept both and said so") {
            $0.contains("both versions are kept") || ($0.contains("from the app") && $0.contains("from the CLI"))
        }
        // The list row shows ⚠ for the note.
        app.press("<Esc>")
        app.expectScreen("⚠ on the note's row") { screen in
            screen.split(separator: "\n").contains {
                $0.contains("Shared") && $0.contains("⚠") && !$0.contains("│ Shared")
            }
        }
        #expect(try app.store.conflictedNotes().map(\.id) == [id])
        // Both texts are in the note, nothing typed or written elsewhere lost.
        let shown = try #require(try app.store.note(id)?.body)
        #expect(shown.contains("shared line from the app"), "\(shown)")
        #expect(shown.contains("shared line from the CLI"), "\(shown)")
        #expect(shown.contains("<<<<<<<"), "\(shown)")
    }
}
