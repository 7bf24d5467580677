import Foundation
import NotesCore
import Testing

@testable import NotesStore

@Suite struct NoteStoreWriteTests {
    @Test func everySaveWritesARevisionChainedToThePreviousHeadAndAnOutboxRow() throws {
        let t = try TestStore()
        let note = try t.store.create(title: "Plan", body: "v1")
        t.advance(60)
        let edited = try t.store.update(note.id) { $0.body = "v2" }
        let history = try t.store.history(note.id)
        #expect(history.count == 2)
        #expect(history[0].id == edited.headRev)
        #expect(history[0].parents == [note.headRev!])
        #expect(history[1].parents.isEmpty)
        #expect(history[0].fields?.body == "v2")
        #expect(edited.modifiedAt == t.now)
        let pending = try t.store.pendingChanges()
        #expect(pending.map(\.revisionID) == [note.headRev!, edited.headRev!])
        #expect(pending.allSatisfy { $0.kind == .save && $0.recordID == note.id })
    }

    @Test func anUpdateThatChangesNothingWritesNothing() throws {
        let t = try TestStore()
        let note = try t.store.create(title: "Same", body: "text")
        let again = try t.store.update(note.id) { $0.body = "text" }
        #expect(again.headRev == note.headRev)
        #expect(try t.store.history(note.id).count == 1)
        #expect(try t.store.pendingCount() == 1)
    }
}
