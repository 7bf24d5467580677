import CloudFolder
import Foundation
import NotesCore
import NotesStore
import NotesSync
import Testing

/// No silent conflict: an editor's save whose note changed meanwhile is merged as sync merges
/// (`NoteStore.update(_:onBase:resolve:_:)`), and concurrent renames are flagged, the same on
/// every device (SYNC-FORMAT rule 8).
@Suite struct EditMergeConflictTests {
    func twoDevices() async throws -> (TestDevice, TestDevice, Note) {
        let (folder, _) = TestFolder.memory()
        let a = try TestDevice("a", folder: folder)
        let b = try TestDevice("b", folder: folder)
        let note = try a.store.create(title: "shared", body: "one\ntwo\nthree\n")
        try await quiesce([a, b])
        return (a, b, note)
    }

    static let resolver = ConflictResolver(strategy: .merge)

    @Test func anEditorSaveThatMergesWithMarkersIsFlaggedOnBothDevices() async throws {
        let (a, b, note) = try await twoDevices()
        // A's editor opened the note at this revision, and the user types at the end of line two…
        let base = try #require(try a.store.note(note.id)?.headRev)
        // …while B edits the same line, and A's sync fetches it before the editor saves.
        _ = try b.store.update(note.id) { $0.body = "one\ntwo from b\nthree\n" }
        try await quiesce([a, b])
        let saved = try a.store.update(note.id, onBase: base, resolve: Self.resolver.resolve) {
            $0.body = "one\ntwo typed on a\nthree\n"
        }
        #expect(saved.merged && saved.conflict)
        #expect(saved.note.body.contains("<<<<<<< ") && saved.note.body.contains("two typed on a\n"))
        #expect(saved.note.body.contains("two from b\n"))
        #expect(saved.note.syncState == .conflict)
        #expect(try a.store.conflictedNotes().map(\.id) == [note.id])
        #expect(try a.store.conflictSides(note.id).count == 2)
        try await quiesce([a, b])
        let onA = try #require(try a.store.note(note.id))
        let onB = try #require(try b.store.note(note.id))
        #expect(onA.headRev == onB.headRev, "the same merge revision on both devices")
        #expect(onA.syncState == .conflict)
        #expect(onB.syncState == .conflict, "B flags A's merge too")
        #expect(try b.store.conflictedNotes().map(\.id) == [note.id])
        // The labels are device ids: the merged bytes cannot depend on device names.
        #expect(onB.body.contains(a.store.deviceID) && onB.body.contains(b.store.deviceID))
    }

    @Test func anEditorSaveOfAnotherLineMergesCleanlyUnflagged() async throws {
        let (a, b, note) = try await twoDevices()
        let base = try #require(try a.store.note(note.id)?.headRev)
        _ = try b.store.update(note.id) { $0.body = "one\ntwo\nthree from b\n" }
        try await quiesce([a, b])
        let saved = try a.store.update(note.id, onBase: base, resolve: Self.resolver.resolve) {
            $0.body = "one from a\ntwo\nthree\n"
        }
        #expect(saved.merged && !saved.conflict)
        #expect(saved.note.body == "one from a\ntwo\nthree from b\n")
        try await quiesce([a, b])
        #expect(try b.store.note(note.id)?.body == "one from a\ntwo\nthree from b\n")
        #expect(try b.store.conflictCount() == 0)
        #expect(try a.store.conflictCount() == 0)
    }

    @Test func aSaveThatChangesNothingAgainstItsBaseKeepsTheOtherChange() async throws {
        let (a, _, note) = try await twoDevices()
        let base = try #require(try a.store.note(note.id)?.headRev)
        _ = try a.store.update(note.id) { $0.body = "changed elsewhere" }
        let saved = try a.store.update(note.id, onBase: base, resolve: Self.resolver.resolve) {
            $0.body = "one\ntwo\nthree\n"
        }
        // Reported as merged, so an editor shows the other change instead of keeping its text.
        #expect(saved.merged && !saved.conflict)
        #expect(saved.note.body == "changed elsewhere")
        #expect(try a.store.history(note.id).count == 2)
    }

    @Test func aSaveOnTheCurrentHeadIsAPlainEdit() async throws {
        let (a, _, note) = try await twoDevices()
        let base = try #require(try a.store.note(note.id)?.headRev)
        let saved = try a.store.update(note.id, onBase: base, resolve: Self.resolver.resolve) { $0.body = "x" }
        #expect(!saved.merged && !saved.conflict)
        #expect(try a.store.history(note.id).first?.parents == [base])
    }

    @Test func concurrentRenamesAreFlaggedWithBothTitlesKeptTheSameOnEveryDevice() async throws {
        let (folder, _) = TestFolder.memory()
        let a = try TestDevice("a", folder: folder)
        let b = try TestDevice("b", folder: folder)
        let c = try TestDevice("c", folder: folder)
        let note = try a.store.create(title: "shared", body: "one\ntwo\nthree\n")
        try await quiesce([a, b, c])
        _ = try a.store.update(note.id) { $0.title = "Title from a" }
        a.clock.advance(by: 5)
        _ = try b.store.update(note.id) { $0.title = "Title from b" }
        try await quiesce([a, b])
        // C only receives: both renames and the merge arrive together, one head (the merge).
        await c.sync()
        let onA = try #require(try a.store.note(note.id))
        let onB = try #require(try b.store.note(note.id))
        let onC = try #require(try c.store.note(note.id))
        #expect(onA.headRev == onB.headRev && onB.headRev == onC.headRev)
        #expect(onA.title == onB.title)
        for state in [onA.syncState, onB.syncState, onC.syncState] { #expect(state == .conflict) }
        for device in [a, b, c] {
            // The losing title is one side of the conflict, as the resolver and `conflicts` show.
            let titles = Set(try device.store.conflictSides(note.id).compactMap(\.fields?.title))
            #expect(titles == ["Title from a", "Title from b"])
        }
        // Keeping one side closes it everywhere.
        try a.store.resolveConflict(note.id, keep: .mine)
        try await quiesce([a, b])
        #expect(try b.store.note(note.id)?.title == "Title from a")
        #expect(try b.store.conflictCount() == 0)
    }

    @Test func aRenameOnOneSideOnlyIsNotAConflict() async throws {
        let (a, b, note) = try await twoDevices()
        _ = try a.store.update(note.id) { $0.title = "renamed" }
        _ = try b.store.update(note.id) { $0.body = "one\ntwo\nthree\nfour\n" }
        try await quiesce([a, b])
        #expect(try a.store.note(note.id)?.title == "renamed")
        #expect(try a.store.conflictCount() == 0)
        #expect(try b.store.conflictCount() == 0)
    }
}
