import Foundation
import NotesCore
import NotesStore
import Testing

/// Tasks in the app's preview, stepped in-process (issue 25, tasks across notes): Space ticks
/// the marked `- [ ]` of the previewed note (or opens it again), `[` and `]` move the mark,
/// the preview scrolls to it, and each press is an ordinary edit of the stored note.
@Suite struct TasksFlowTests {
    @Test func spaceTicksTheMarkedTaskAndOpensItAgain() throws {
        let app = try SteppedRuntime { store in
            try store.create(title: "Groceries", body: "- [x] bread\n- [ ] milk\n- [ ] eggs")
        }
        app.expectScreen("milk")
        app.expectScreen("Space tick")
        // The mark starts on the first open task: milk.
        app.press(" ")
        #expect(try app.note("Groceries")?.body == "- [x] bread\n- [x] milk\n- [ ] eggs")
        // The preview renders the box (issue 26): ☑ for a done task.
        app.expectScreen("☑ milk")
        app.press("] ")
        #expect(try app.note("Groceries")?.body == "- [x] bread\n- [x] milk\n- [x] eggs")
        // Again: open again, as a checkbox does.
        app.press(" ")
        #expect(try app.note("Groceries")?.body == "- [x] bread\n- [x] milk\n- [ ] eggs")
        // `[` stops at the first task.
        app.press("[[[ ")
        #expect(try app.note("Groceries")?.body == "- [ ] bread\n- [x] milk\n- [ ] eggs")
        // Each press was its own revision.
        let id = try #require(try app.note("Groceries")).id
        #expect(try app.store.history(id).count == 5)
    }

    @Test func thePreviewScrollsToTheMarkedTask() throws {
        let filler = (1...60).map { "line \($0)" }.joined(separator: "\n")
        let app = try SteppedRuntime { store in
            try store.create(title: "Long list", body: filler + "\n- [ ] far away task\n- [ ] last one")
        }
        app.expectScreen("line 1")
        #expect(!app.screen.contains("far away task"))
        app.press("]")
        app.expectScreen("the second task, scrolled to") { $0.contains("last one") && !$0.contains("│ line 2 ") }
        app.press("[ ")
        #expect(try app.note("Long list")?.body == filler + "\n- [x] far away task\n- [ ] last one")
    }

    @Test func aTaskChangedElsewhereIsNotGuessedAt() throws {
        let app = try SteppedRuntime { store in
            try store.create(title: "Chores", body: "- [ ] dishes\n- [ ] laundry")
        }
        app.expectScreen("dishes")
        // Another program rewrites the note before the preview hears of it.
        let other = try NoteStore(directory: app.directory)
        let id = try #require(try app.note("Chores")).id
        _ = try other.update(id) { $0.body = "dishes are done, no list any more" }
        app.press(" ")
        app.expectScreen("no longer an open task")
        #expect(try app.note("Chores")?.body == "dishes are done, no list any more")
    }

    @Test func aNoteWithoutTasksSaysSo() throws {
        let app = try SteppedRuntime { store in try store.create(title: "Prose", body: "just words") }
        app.expectScreen("just words")
        #expect(!app.screen.contains("Space tick"))
        app.press(" ")
        app.expectScreen("This note has no tasks")
    }
}
