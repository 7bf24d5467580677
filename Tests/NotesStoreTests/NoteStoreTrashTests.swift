import Foundation
import NotesCore
import Testing

@testable import NotesStore

@Suite struct NoteStoreTrashTests {
    @Test func aTrashedNoteLeavesListsAndSearchUntilRestored() throws {
        let t = try TestStore()
        let note = try t.store.create(title: "Trip to Zürich", body: "hotel", tags: ["travel"], isFavorite: true)
        let other = try t.store.create(title: "Other", body: "hotel")
        t.advance(60)
        let trashed = try t.store.trash(note.id)
        #expect(trashed.deletedAt == t.now && trashed.isTrashed)
        for section in [ListSection.all, .favorites, .others] {
            #expect(!(try t.store.list(ListRequest(section: section)).map(\.id).contains(note.id)), "\(section)")
        }
        #expect(try t.store.list(ListRequest(section: .trash)).map(\.id) == [note.id])
        #expect(try t.store.search("zurich").hits.isEmpty)
        #expect(try t.store.search("hotel").hits.map(\.note.id) == [other.id])
        #expect(try t.store.search("tag:travel").hits.isEmpty)
        #expect(try t.store.tagCounts().isEmpty)

        t.advance(60)
        let again = try t.store.trash(note.id)
        #expect(again.deletedAt == trashed.deletedAt && again.headRev == trashed.headRev)

        let restored = try t.store.restore(note.id)
        #expect(!restored.isTrashed && restored.isFavorite)
        #expect(try t.store.search("zurich").hits.map(\.note.id) == [note.id])
        #expect(try t.store.list(ListRequest(section: .trash)).isEmpty)
        #expect(try t.store.history(note.id).count == 3)
    }

    @Test func purgeWritesATombstoneAndADelete() throws {
        let t = try TestStore()
        let note = try t.store.create(title: "secret", body: "gone", tags: ["x"], zone: "work")
        let head = try #require(note.headRev)
        try t.store.purge(note.id)
        #expect(try t.store.note(note.id) == nil)
        let history = try t.store.history(note.id)
        #expect(history.count == 2)
        #expect(history[0].isTombstone && history[0].parents == [head])
        #expect(history[0].id == Revision.computeID(recordID: note.id, parents: [head], fields: nil))
        let last = try #require(try t.store.pendingChanges().last)
        #expect(
            last.kind == .delete && last.revisionID == history[0].id && last.recordID == note.id && last.zone == "work")
        #expect(try t.store.search("secret").hits.isEmpty)
        #expect(try t.store.tagCounts().isEmpty)
        #expect(try t.store.count(.trash) == 0 && t.store.count(.all) == 0)
        #expect(throws: StoreError(.notFound, "no note with id \(note.idString)")) { try t.store.purge(note.id) }
    }

    @Test func emptyTrashPurgesOnlyTrashedNotes() throws {
        let t = try TestStore()
        let keep = try t.store.create(title: "keep", body: "")
        let a = try t.store.create(title: "a", body: "")
        let b = try t.store.create(title: "b", body: "")
        _ = try t.store.trash(a.id)
        _ = try t.store.trash(b.id)
        let before = try t.store.pendingCount()
        #expect(try t.store.emptyTrash() == 2)
        #expect(try t.store.note(a.id) == nil && t.store.note(b.id) == nil && t.store.note(keep.id) != nil)
        let deletes = try t.store.pendingChanges().dropFirst(before)
        #expect(Set(deletes.map(\.recordID)) == [a.id, b.id] && deletes.allSatisfy { $0.kind == .delete })
        #expect(try t.store.emptyTrash() == 0)
        #expect(try t.store.integrityCheck() == "ok")
    }
}
