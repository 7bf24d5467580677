import Foundation
import NotesApp
import NotesCore
import NotesStore
import NotesTestSupport
import TerminalUI
import Testing

@testable import NotesRuntime

/// The editor's own effects against a real store and an in-memory terminal: the clipboard
/// reaches the terminal, and an empty new note is discarded only while it is empty.
@Suite struct EditorEffectTests {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("cloudnotes-editor-\(UUID())")
    let store: NoteStore
    let inbox = Inbox(wake: {})
    let terminal = TestBackend(size: Size(width: 80, height: 24))
    let runner: EffectRunner

    init() throws {
        store = try NoteStore(directory: directory)
        runner = EffectRunner(
            store: store, inbox: inbox, backend: terminal, options: RuntimeOptions(handlesSignals: false))
    }

    private func waitForAnswer() -> [Action] {
        var answers: [Action] = []
        _ = eventuallyBlocking(timeout: .seconds(5)) {
            answers += inbox.drain()
            return !answers.isEmpty
        }
        return answers
    }

    @Test func aCopyIsWrittenToTheTerminalsClipboard() {
        runner.run(.setClipboard("copied\ntext"))
        #expect(terminal.clipboard == ["copied\ntext"])
    }

    @Test func anEmptyNewNoteIsPurgedAndOneWithTextIsKept() throws {
        let empty = try store.create(title: "", body: "")
        runner.run(.discardIfEmpty(empty.id))
        #expect(waitForAnswer() == [.storeChanged([empty.id])])
        #expect(try store.note(empty.id) == nil)
        // Text saved meanwhile (by another process, say): the note is kept.
        let written = try store.create(title: "", body: "")
        _ = try store.update(written.id) { $0.body = "kept" }
        runner.run(.discardIfEmpty(written.id))
        #expect(waitForAnswer() == [.storeChanged([written.id])])
        #expect(try store.note(written.id)?.body == "kept")
    }
}
