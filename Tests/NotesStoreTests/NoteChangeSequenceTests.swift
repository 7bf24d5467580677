import Foundation
import NotesCore
import Testing

@testable import NotesStore

/// The change sequence (`note_change`): a reader that kept its last number learns which notes
/// moved since, each once however often it changed, and a note trashed or purged as gone.
@Suite struct NoteChangeSequenceTests {
    @Test func theNotesChangedSinceALookAreNamedAndNoOthers() throws {
        let t = try TestStore()
        let notes = try (0..<4).map { try t.store.create(title: "Note \($0)", body: "text \($0)") }
        let (heads, start) = try t.store.allNoteHeadsAndSequence()
        #expect(heads.count == 4)
        #expect(try t.store.noteHeads(changedAfter: start).live.isEmpty)

        _ = try t.store.update(notes[1].id) { $0.body = "edited" }
        _ = try t.store.update(notes[1].id) { $0.title = "Retitled" }
        _ = try t.store.trash(notes[2].id)
        try t.store.purge(notes[3].id)
        let added = try t.store.create(title: "New", body: "new")
        let changes = try t.store.noteHeads(changedAfter: start)
        let live: Set<UUID> = Set(changes.live.map(\.id))
        #expect(live == [notes[1].id, added.id])
        #expect(changes.live.count == 2, "each note once")
        #expect(changes.live.first { $0.id == notes[1].id }?.title == "Retitled")
        let gone: Set<UUID> = Set(changes.gone)
        #expect(gone == [notes[2].id, notes[3].id])
        #expect(changes.sequence > start)
        // From the newest number: nothing more.
        #expect(try t.store.noteHeads(changedAfter: changes.sequence).live.isEmpty)
        #expect(try t.store.noteHeads(changedAfter: changes.sequence).gone.isEmpty)
    }
}
