import Foundation
import NotesApp
import NotesCore
import NotesStore
import TerminalUI
import Testing

@testable import NotesRuntime

/// The editor's text outlives its note (issue 22, item 3), against the real store: a save of a
/// note purged meanwhile keeps the text as a new note; a save of a note whose notebook was
/// deleted goes into the note in the trash.
@Suite struct EditorGoneNoteTests {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("cloudnotes-gone-\(UUID())")
    let store: NoteStore
    let inbox: Inbox
    let runner: EffectRunner

    init() throws {
        store = try NoteStore(directory: directory)
        inbox = Inbox(wake: {})
        runner = EffectRunner(
            store: store, inbox: inbox, backend: TestBackend(size: Size(width: 80, height: 24)),
            options: RuntimeOptions(handlesSignals: false))
    }

    private func answer(to effect: Effect) -> Action? { runner.answer(to: effect, in: inbox) }

    @Test func aSaveOfAPurgedNoteKeepsTheTextAsANewNote() throws {
        let note = try store.create(title: "Draft", body: "first")
        try store.purge(note.id)
        #expect(answer(to: .loadNote(note.id)) == .noteGone(note.id))
        let saved = answer(
            to: .saveNote(id: note.id, title: "Draft", body: "first typed", baseRevision: note.headRev))
        guard case .noteSaved(let result) = saved else {
            Issue.record("not saved: \(String(describing: saved))")
            return
        }
        #expect(result.keptFrom == note.id)
        #expect(result.id != note.id)
        let kept = try #require(try store.note(result.id))
        #expect(kept.title == "Draft" && kept.body == "first typed")
        #expect(kept.headRev == result.headRevision)
        #expect(try store.note(note.id) == nil)
    }

    /// The CLI deleting the note's notebook moves the note to the trash: the editor's save,
    /// made on the revision before, brings it back with the text (nothing is lost).
    @Test func aSaveAfterItsNotebookWasDeletedGoesIntoTheTrashedNote() throws {
        let notebook = try store.createNotebook(named: "Work")
        let note = try store.create(title: "Draft", body: "first", zone: notebook.zone)
        _ = try store.deleteNotebook("Work")
        let saved = answer(
            to: .saveNote(id: note.id, title: "Draft", body: "first typed", baseRevision: note.headRev))
        guard case .noteSaved(let result) = saved else {
            Issue.record("not saved: \(String(describing: saved))")
            return
        }
        // The edit was made on the note before it went to the trash: edit beats trash (rule 8),
        // so the note is back in the list with the text, and its notebook with it.
        #expect(!result.isTrashed && result.keptFrom == nil)
        #expect(try store.note(note.id)?.body == "first typed")
        #expect(try store.list(ListRequest(section: .all, limit: 10)).map(\.id) == [note.id])
        #expect(try store.notebooks().map(\.name).contains("Work"))
    }
}
