import Foundation
import NotesApp
import NotesCore
import NotesStore
import NotesSync
import TerminalUI
import Testing

@testable import NotesRuntime

/// Conflict markers always come with the conflict flag (issue 22, item 4): two app windows
/// on one data directory merge like two devices, and typing on after a conflict keeps the
/// flag until the user resolves it.
@Suite struct EditorConflictFlagTests {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("cloudnotes-flag-\(UUID())")

    /// One app window: its own store connection on the shared directory, and its runner.
    struct Window {
        let store: NoteStore
        let inbox = Inbox(wake: {})
        let runner: EffectRunner

        init(_ directory: URL) throws {
            store = try NoteStore(directory: directory)
            runner = EffectRunner(
                store: store, inbox: inbox, backend: TestBackend(size: Size(width: 80, height: 24)),
                options: RuntimeOptions(
                    handlesSignals: false, resolveHeads: ConflictResolver(strategy: .merge).resolve))
        }

        func save(_ id: UUID, _ body: String, on base: String?) throws -> SavedNote {
            let answer = runner.answer(
                to: .saveNote(id: id, title: "Plan", body: body, baseRevision: base), in: inbox)
            guard case .noteSaved(let saved) = answer else { throw Failure("not saved: \(String(describing: answer))") }
            return saved
        }
    }

    struct Failure: Error, CustomStringConvertible {
        var description: String
        init(_ description: String) { self.description = description }
    }

    /// Markers in the stored text mean the note is flagged and `conflicts` lists it.
    func expectMarkersFlagged(
        _ store: NoteStore, _ id: UUID, sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let note = try #require(try store.note(id), sourceLocation: sourceLocation)
        let marked = note.body.contains("<<<<<<< ")
        #expect(marked, "the test expects markers here; the body: \(note.body)", sourceLocation: sourceLocation)
        #expect(
            note.syncState == .conflict, "markers with \(note.syncState): \(note.body)", sourceLocation: sourceLocation)
        #expect(try store.conflictedNotes().map(\.id) == [id], sourceLocation: sourceLocation)
        #expect(try store.conflictSides(id).count == 2, "the resolver has both sides", sourceLocation: sourceLocation)
    }

    @Test func typingOnAfterAConflictKeepsTheFlagUntilItIsResolved() throws {
        let window = try Window(directory)
        let note = try window.store.create(title: "Plan", body: "one\ntwo\nthree\n")
        // The CLI changes line two while the app types at its end: the save-merge keeps both.
        try window.store.update(note.id) { $0.body = "one\ntwo, said the CLI\nthree\n" }
        let merged = try window.save(note.id, "one\ntwo and more\nthree\n", on: note.headRev)
        #expect(merged.conflict)
        try expectMarkersFlagged(window.store, note.id)
        // Typing on, on top of the merge (the editor shows it), markers untouched.
        let typedOn = try window.save(note.id, merged.body + "four\n", on: merged.headRevision)
        #expect(!typedOn.merged)
        try expectMarkersFlagged(window.store, note.id)
        _ = try window.save(note.id, typedOn.body + "five\n", on: typedOn.headRevision)
        try expectMarkersFlagged(window.store, note.id)
        // The resolver closes it: one side, no markers, no flag.
        try window.store.resolveConflict(note.id, keep: .mine)
        let resolved = try #require(try window.store.note(note.id))
        #expect(resolved.syncState != .conflict && !resolved.body.contains("<<<<<<<"))
        #expect(try window.store.conflictedNotes().isEmpty)
    }

    @Test func editingTheMarkersAwayClearsTheFlag() throws {
        let window = try Window(directory)
        let note = try window.store.create(title: "Plan", body: "one\ntwo\nthree\n")
        try window.store.update(note.id) { $0.body = "one\ntwo, said the CLI\nthree\n" }
        let merged = try window.save(note.id, "one\ntwo and more\nthree\n", on: note.headRev)
        try expectMarkersFlagged(window.store, note.id)
        _ = try window.save(note.id, "one\ntwo, settled by hand\nthree\n", on: merged.headRevision)
        #expect(try window.store.note(note.id)?.syncState == .pending)
        #expect(try window.store.conflictedNotes().isEmpty)
    }

    /// Two windows on one data directory type at the end of the same line, each saving on the
    /// revision it last saw (as their editors do), and then type on: whenever the stored text
    /// holds markers, the note is flagged.
    @Test func twoWindowsOnOneDataDirectoryNeverLeaveMarkersUnflagged() throws {
        let a = try Window(directory)
        let b = try Window(directory)
        let note = try a.store.create(title: "Plan", body: "shared line\n")
        _ = try a.save(note.id, "shared line from A\n", on: note.headRev)
        let savedB = try b.save(note.id, "shared line from B\n", on: note.headRev)
        #expect(savedB.merged)
        try expectMarkersFlagged(a.store, note.id)
        // A reloads the merge (no edits pending) and types on at the end.
        let head = try #require(try a.store.note(note.id))
        _ = try a.save(note.id, head.body + "A again\n", on: head.headRev)
        try expectMarkersFlagged(b.store, note.id)
        // B types on from its merged text (the editor keeps the old base after a merge).
        _ = try b.save(note.id, savedB.body + "B again\n", on: savedB.headRevision)
        let final = try #require(try b.store.note(note.id))
        #expect(!final.body.contains("<<<<<<< ") || final.syncState == .conflict, "\(final.syncState): \(final.body)")
    }
}
