import Foundation
import NotesApp
import NotesCore
import NotesStore
import NotesTestSupport
import TerminalUI
import Testing

@testable import NotesRuntime

/// The runtime's loop against an in-memory terminal and a real store: what a user sees happen.
@Suite struct NotesRuntimeTests {
    @Test func theFirstScreenShowsTheStoredNotes() async throws {
        let harness = try RuntimeHarness { store in
            try store.create(title: "Groceries", body: "milk and eggs")
            try store.create(title: "Ideas", body: "a notes app", isFavorite: true)
        }
        harness.start()
        defer { harness.finish() }
        await harness.waitForText("Groceries")
        await harness.waitForText("Ideas")
        #expect(harness.terminal.lines.contains { $0.contains("FAVORITES") })
    }

    /// The preview pane shows the selected note's body beyond its one-line snippet (the
    /// runtime asks `loadPreview` before painting), and follows the selection.
    @Test func thePreviewShowsTheSelectedNotesWholeBody() async throws {
        let harness = try RuntimeHarness { store in
            try store.create(title: "Older", body: "first line\nsecond line\nthird line only in the body")
            try store.create(title: "Newer", body: "alpha\nbeta\ngamma is the third")
        }
        harness.start()
        defer { harness.finish() }
        await harness.waitForText("gamma is the third")
        harness.terminal.send(.char("j"))
        await harness.waitForText("third line only in the body")
    }

    @Test func searchResultsFollowEveryKeystroke() async throws {
        let harness = try RuntimeHarness { store in
            try store.create(title: "Groceries", body: "milk and eggs")
            try store.create(title: "Trip", body: "train at nine")
        }
        harness.start()
        defer { harness.finish() }
        await harness.waitForText("Trip")
        harness.terminal.send([.char("/")] + InputEvent.typing("mil"))
        await harness.waitForScreen("only the matching note") { lines in
            lines.contains { $0.contains("Groceries") } && !lines.contains { $0.contains("Trip") }
        }
        harness.terminal.send(.key(.backspace), .key(.backspace), .key(.backspace))
        await harness.waitForText("Trip")
    }

    @Test func aNoteAddedByAnotherProcessAppearsWithoutAKeyPress() async throws {
        let harness = try RuntimeHarness { store in try store.create(title: "First", body: "") }
        harness.start()
        defer { harness.finish() }
        await harness.waitForText("First")
        // A second store on the same directory is another connection, as another process's
        // `cloudnotes add` is: GRDB's observation of the runtime's store does not see it.
        let other = try NoteStore(directory: harness.directory)
        try other.create(title: "From the CLI", body: "added elsewhere")
        await harness.waitForText("From the CLI", seconds: 3)
    }

    @Test func aChangeInThisProcessAppearsAtOnce() async throws {
        let harness = try RuntimeHarness(
            options: RuntimeOptions(externalChangeInterval: .seconds(3600), handlesSignals: false)
        ) { store in try store.create(title: "First", body: "") }
        harness.start()
        defer { harness.finish() }
        await harness.waitForText("First")
        try harness.store.create(title: "Written by sync", body: "")
        await harness.waitForText("Written by sync", seconds: 2)
    }

    @Test func syncStatusFromTheEngineReachesTheStatusBar() async throws {
        let (stream, continuation) = AsyncStream.makeStream(of: SyncStatus.self)
        let harness = try RuntimeHarness(
            options: RuntimeOptions(sync: SyncClient(status: stream), handlesSignals: false))
        harness.start()
        defer { harness.finish() }
        await harness.waitForText("local only")
        continuation.yield(SyncStatus(phase: .syncing(done: 12, total: 40)))
        await harness.waitForText("12/40")
    }

    @Test(arguments: [InputEvent.char("q"), .ctrl("c")])
    func qAndCtrlCEndTheLoop(key: InputEvent) async throws {
        let harness = try RuntimeHarness { store in try store.create(title: "Only", body: "") }
        harness.start()
        await harness.waitForText("Only")
        harness.terminal.send(key)
        #expect(harness.waitForExit() == .quit)
        try? FileManager.default.removeItem(at: harness.directory)
    }

    @Test func keysTypedBeforeTheNoteHasLoadedReachTheEditor() async throws {
        let harness = try RuntimeHarness { store in try store.create(title: "Draft", body: "body") }
        harness.start()
        defer { harness.finish() }
        await harness.waitForText("Draft")
        // All at once, as a fast typist or a paste of keys: the note is still loading after Enter.
        harness.terminal.send([.key(.enter)] + InputEvent.typing("New ") + [.key(.escape)])
        let id = try #require(try harness.store.list(ListRequest(section: .all)).first?.id)
        #expect(try await eventually(timeout: .seconds(5)) { try harness.store.note(id)?.title == "New Draft" })
    }

    @Test func aResizeRedrawsAtTheNewSize() async throws {
        let harness = try RuntimeHarness(size: Size(width: 80, height: 20)) { store in
            try store.create(title: "Resized", body: "")
        }
        harness.start()
        defer { harness.finish() }
        await harness.waitForText("Resized")
        harness.terminal.resize(to: Size(width: 60, height: 15))
        await harness.waitForScreen("a 60x15 screen") { lines in
            lines.count == 15 && lines.allSatisfy { TextWidth.width(of: $0) == 60 }
                && lines.contains { $0.contains("Resized") }
        }
    }
}
