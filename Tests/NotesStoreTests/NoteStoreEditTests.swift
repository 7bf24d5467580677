import Foundation
import NotesCore
import NotesTestSupport
import Testing

@testable import NotesStore

@Suite struct NoteStoreEditTests {
    @Test func anEmptyTitleIsDerivedFromTheFirstBodyLine() throws {
        let t = try TestStore()
        let a = try t.store.create(title: "  ", body: "\n\n## Shopping list  \n- milk")
        #expect(a.title == "Shopping list")
        let b = try t.store.create(title: "Kept", body: "x")
        let cleared = try t.store.update(b.id) { $0.title = "" }
        #expect(cleared.title == "x")
        #expect(try t.store.note(b.id)?.title == "x")
    }

    @Test func notebooksMustBeValidZoneIDs() throws {
        let t = try TestStore()
        for zone in ["Work", "", "a_b", "café", String(repeating: "a", count: 65), "../etc"] {
            #expect(throws: StoreError.self) { try t.store.create(title: "x", body: "", zone: zone) }
        }
        let note = try t.store.create(title: "x", body: "", zone: "work-2025")
        #expect(note.zone == "work-2025")
        let error = #expect(throws: StoreError.self) { try t.store.update(note.id) { $0.zone = "Bad Zone" } }
        #expect(error?.code == .invalidInput)
        #expect(try t.store.note(note.id)?.zone == "work-2025")
        #expect(try t.store.history(note.id).count == 1)
        #expect(try t.store.count(.all) == 1)
    }

    @Test func tagsAreNormalizedAndCounted() throws {
        let t = try TestStore()
        let a = try t.store.create(title: "a", body: "", tags: [" work", "home", "work", "", "日本"])
        #expect(a.tags == ["home", "work", "日本"])
        try t.store.create(title: "b", body: "", tags: ["work"])
        let c = try t.store.create(title: "c", body: "", tags: ["work", "old"])
        _ = try t.store.trash(c.id)
        #expect(try t.store.tagCounts().map { "\($0.tag)=\($0.count)" } == ["home=1", "work=2", "日本=1"])
        _ = try t.store.update(a.id) { $0.tags = ["home"] }
        #expect(try t.store.tagCounts().map { "\($0.tag)=\($0.count)" } == ["home=1", "work=1"])
    }

    @Test func favoritesDoNotChangeTheModificationTime() throws {
        let t = try TestStore()
        let note = try t.store.create(title: "a", body: "")
        t.advance(3600)
        let fav = try t.store.setFavorite(note.id, true)
        #expect(fav.isFavorite && fav.modifiedAt == note.modifiedAt)
        #expect(try t.store.list(ListRequest(section: .favorites)).map(\.id) == [note.id])
        #expect(try t.store.list(ListRequest(section: .others)).isEmpty)
        #expect(try t.store.history(note.id).count == 2)
        let edited = try t.store.update(note.id) { $0.body = "changed" }
        #expect(edited.modifiedAt == t.now)
    }

    @Test func aTenMegabyteBodyIsStoredAndReadBackIntact() throws {
        let t = try TestStore()
        var rng = SeededRandom(seed: 10)
        let pieces = ["line of text ", "café ", "日本語 ", "🎉", "\n", "e\u{301}", "\r\n", "\u{1}", "\t"]
        var body = ""
        body.reserveCapacity(10_500_000)
        while body.utf8.count < 10_000_000 { body += pieces.randomElement(using: &rng)! }
        let note = try t.store.create(title: "big", body: body)
        let back = try #require(try t.store.note(note.id))
        #expect(back.body.utf8.elementsEqual(body.utf8))
        #expect(try t.store.list(ListRequest(section: .all)).first?.bodyLength == body.utf8.count)
        #expect(try t.store.search("big").hits.map(\.note.id) == [note.id])
    }

    @Test func hlcStampsStrictlyIncreaseEvenWhenTheClockStallsOrGoesBack() throws {
        let t = try TestStore()
        let note = try t.store.create(title: "a", body: "0")
        for i in 1...20 {
            if i == 10 { t.advance(-3600) }
            _ = try t.store.update(note.id) { $0.body = "\(i)" }
        }
        try t.store.purge(note.id)
        let stamps = try t.store.history(note.id).map(\.hlc).reversed()
        #expect(stamps.count == 22)
        #expect(zip(stamps, stamps.dropFirst()).allSatisfy { $0 < $1 })
    }

    @Test func importedRevisionsGetDistinctIncreasingStampsAcrossBatchesAndLaterEdits() throws {
        let t = try TestStore()
        let notes = (0..<25).map { Note(title: "n\($0)", body: "b\($0)") }
        _ = try t.store.importNotes(notes, batchSize: 7)  // the clock is read and persisted per batch
        t.advance(-3600)
        let edited = try t.store.update(notes[0].id) { $0.body = "edited" }
        let stamps = try notes.map { try #require(try t.store.history($0.id).last).hlc }
        let editStamp = try #require(try t.store.history(edited.id).first).hlc
        #expect(Set(stamps).count == notes.count)
        #expect(stamps.allSatisfy { $0 < editStamp })
    }

    @Test func aFailingChangeLeavesNothingBehind() throws {
        struct Boom: Error {}
        let t = try TestStore()
        let note = try t.store.create(title: "a", body: "before", tags: ["x"])
        #expect(throws: Boom.self) {
            try t.store.update(note.id) { n in
                n.body = "after"
                n.tags = ["y"]
                throw Boom()
            }
        }
        #expect(try t.store.note(note.id) == note)
        #expect(try t.store.history(note.id).count == 1)
        #expect(try t.store.pendingCount() == 1)
        #expect(try t.store.search("after").hits.isEmpty)
        #expect(try t.store.tagCounts().map(\.tag) == ["x"])
    }

    @Test func anImportBatchIsOneTransaction() throws {
        let t = try TestStore()
        let good = (0..<5).map { Note(title: "ok \($0)", body: "") }
        let bad = Note(zone: "Not Valid", title: "bad", body: "")
        #expect(throws: StoreError.self) {
            try t.store.importNotes(good + [bad] + good.map { Note(title: $0.title + "!", body: "") })
        }
        #expect(try t.store.count(.all) == 0)
        #expect(try t.store.pendingCount() == 0)
        let counts = try t.store.importNotes(good)
        #expect(counts.created == 5 && counts.updated == 0 && counts.unchanged == 0)
        let again = try t.store.importNotes(
            good + [Note(id: good[0].id, title: "changed", body: "", createdAt: good[0].createdAt)])
        #expect(again.created == 0 && again.unchanged == 5 && again.updated == 1)
    }

    @Test func aNoteThatCannotBeStoredFailsAMultiBatchImportBeforeAnythingIsWritten() throws {
        let t = try TestStore()
        let good = (0..<25).map { Note(title: "ok \($0)", body: "line") }
        for bad in [Note(zone: "Not Valid", title: "bad", body: ""), Note(title: "nul", body: "a\u{0}b")] {
            let error = #expect(throws: StoreError.self) { try t.store.importNotes(good + [bad], batchSize: 10) }
            #expect(error?.code == .invalidInput)
            #expect(try t.store.count(.all) == 0)
        }
        #expect(try t.store.importNotes(good, batchSize: 10).created == 25)
        #expect(try t.store.search("line", limit: 100).hits.count == 25)
    }

    @Test func textWithANulCharacterIsRefusedNotCutShort() throws {
        let t = try TestStore()
        for (title, body, tags) in [
            ("a", "before\u{0}after", [String]()), ("a\u{0}b", "x", []), ("a", "x", ["t\u{0}"]),
        ] {
            let error = #expect(throws: StoreError.self) { try t.store.create(title: title, body: body, tags: tags) }
            #expect(error?.code == .invalidInput && error?.message.contains("NUL") == true)
        }
        let note = try t.store.create(title: "a", body: "x")
        #expect(throws: StoreError.self) { try t.store.update(note.id) { $0.body = "x\u{0}y" } }
        #expect(throws: StoreError.self) { try t.store.importNotes([Note(title: "i", body: "\u{0}")]) }
        #expect(try t.store.note(note.id)?.body == "x")
        #expect(try t.store.count(.all) == 1)
    }

    @Test func storedRevisionIDsAreTheContentAddressOfTheirFields() throws {
        let t = try TestStore()
        let note = try t.store.create(title: "Ünïcode \"q\"", body: "e\u{301}\n🎉", tags: ["b", "a"], zone: "work")
        t.advance(1)
        let edited = try t.store.update(note.id) { $0.body += "!" }
        let history = try t.store.history(note.id)
        #expect(history.count == 2)
        for (revision, (parents, state)) in zip(history, zip([[note.headRev!], []], [edited, note])) {
            let fields = RevisionFields(note: state)
            #expect(revision.fields == fields)
            #expect(revision.parents == parents)
            #expect(revision.id == Revision.computeID(recordID: note.id, parents: parents, fields: fields))
            #expect(revision.id == state.headRev)
        }
    }

    @Test func creatingAnExistingIDIsRefused() throws {
        let t = try TestStore()
        let note = try t.store.create(title: "a", body: "")
        let error = #expect(throws: StoreError.self) { try t.store.create(title: "b", body: "", id: note.id) }
        #expect(error?.code == .invalidInput)
        #expect(try t.store.note(note.id)?.title == "a")
    }
}
