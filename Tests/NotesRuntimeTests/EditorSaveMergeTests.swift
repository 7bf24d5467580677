import Foundation
import NotesApp
import NotesCore
import NotesStore
import NotesSync
import TerminalUI
import Testing

@testable import NotesRuntime

/// The editor's save-merge, as the app runs it (with sync's resolver): typing at the end of a
/// line that another writer changed meanwhile leaves conflict markers, and then the note is
/// flagged and listed as a conflict, not shown as saved and synced.
@Suite struct EditorSaveMergeTests {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("cloudnotes-savemerge-\(UUID())")
    let store: NoteStore
    let inbox: Inbox
    let runner: EffectRunner

    init() throws {
        store = try NoteStore(directory: directory)
        inbox = Inbox(wake: {})
        runner = EffectRunner(
            store: store, inbox: inbox, backend: TestBackend(size: Size(width: 80, height: 24)),
            options: RuntimeOptions(
                handlesSignals: false, resolveHeads: ConflictResolver(strategy: .merge).resolve))
    }

    private func answer(to effect: Effect) -> Action? { runner.answer(to: effect, in: inbox) }

    @Test func aSaveMergeThatKeepsMarkersFlagsTheNoteAndListsItAsAConflict() throws {
        let note = try store.create(title: "Plan", body: "one\ntwo\nthree\n")
        let base = note.headRev
        // Another writer changes line two while the editor types at its end.
        try store.update(note.id) { $0.body = "one\ntwo, said the other\nthree\n" }
        let saved = answer(
            to: .saveNote(id: note.id, title: "Plan", body: "one\ntwo and more\nthree\n", baseRevision: base))
        guard case .noteSaved(let result) = saved else {
            Issue.record("not saved: \(String(describing: saved))")
            return
        }
        #expect(result.merged)
        #expect(result.body.contains("<<<<<<< ") && result.body.contains("two and more\n"))
        #expect(result.body.contains("two, said the other\n"))
        let stored = try #require(try store.note(note.id))
        #expect(stored.syncState == .conflict)
        #expect(stored.headRev == result.headRevision)
        guard case .conflictsLoaded(let rows) = answer(to: .loadConflicts(limit: 10)) else {
            Issue.record("no conflicts answer")
            return
        }
        #expect(rows.map(\.id) == [note.id])
        #expect(try store.conflictSides(note.id).count == 2)
    }

    @Test func thePreviewAndHistoryNameTheDevicesTheMarkersAndRevisionsCameFrom() throws {
        let note = try store.create(title: "Plan", body: "one\ntwo\nthree\n")
        try store.update(note.id) { $0.body = "one\ntwo, said the other\nthree\n" }
        _ = answer(
            to: .saveNote(id: note.id, title: "Plan", body: "one\ntwo and more\nthree\n", baseRevision: note.headRev))
        var options = RuntimeOptions(handlesSignals: false)
        let deviceID = store.deviceID
        options.deviceLabels = { DeviceLabels(names: [deviceID: "laptop"], thisDevice: deviceID) }
        let named = EffectRunner(
            store: store, inbox: inbox, backend: TestBackend(size: Size(width: 80, height: 24)), options: options)
        guard case .previewLoaded(_, let content?) = named.answer(to: .loadPreview(note.id), in: inbox) else {
            Issue.record("no preview")
            return
        }
        #expect(
            content.body.contains("<<<<<<< laptop\n") && content.body.contains(">>>>>>> laptop\n"), "\(content.body)")
        #expect(try store.note(note.id)?.body.contains("<<<<<<< \(deviceID)") == true, "the stored text keeps the ids")
        guard case .historyLoaded(_, let entries) = named.answer(to: .loadHistory(note.id), in: inbox) else {
            Issue.record("no history")
            return
        }
        #expect(!entries.isEmpty && entries.allSatisfy { $0.device == "laptop" })
    }

    @Test func aCleanSaveMergeIsNotFlagged() throws {
        let note = try store.create(title: "Plan", body: "one\ntwo\nthree\n")
        let base = note.headRev
        try store.update(note.id) { $0.body = "one\ntwo\nTHREE\n" }
        let saved = answer(to: .saveNote(id: note.id, title: "Plan", body: "ONE\ntwo\nthree\n", baseRevision: base))
        guard case .noteSaved(let result) = saved else {
            Issue.record("not saved: \(String(describing: saved))")
            return
        }
        #expect(result.merged)
        #expect(result.body == "ONE\ntwo\nTHREE\n")
        #expect(try store.note(note.id)?.syncState == .pending)
        #expect(try store.conflictCount() == 0)
    }
}
