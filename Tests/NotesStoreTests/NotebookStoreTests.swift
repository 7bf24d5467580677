import Foundation
import NotesCore
import NotesTestSupport
import Testing

@testable import NotesStore

@Suite("Notebooks in the store")
struct NotebookStoreTests {
    @Test func notebooksAreListedByNameWithCountsOfNotesOutsideTheTrash() throws {
        let t = try TestStore()
        let store = t.store
        let work = try store.createNotebook(named: "  Work / Projects ")
        #expect(work.zone == "work-projects" && work.name == "Work / Projects")
        let empty = try store.createNotebook(named: "Äpfel")
        #expect(empty.zone == "apfel")
        try store.create(title: "a", body: "", zone: work.zone)
        let trashed = try store.create(title: "b", body: "", zone: work.zone)
        _ = try store.trash(trashed.id)
        try store.create(title: "c", body: "")
        try store.create(title: "d", body: "", zone: "legacy-zone")
        #expect(
            try store.notebooks()
                == [
                    NotebookInfo(zone: "apfel", name: "Äpfel", count: 0),
                    NotebookInfo(zone: "legacy-zone", name: "legacy-zone", count: 1),
                    NotebookInfo(zone: "notes", name: "notes", count: 1),
                    NotebookInfo(zone: "work-projects", name: "Work / Projects", count: 1),
                ])
    }

    @Test func aNotesNotebookIsReadWithoutTheNote() throws {
        let t = try TestStore()
        let store = t.store
        let work = try store.createNotebook(named: "Work")
        let plan = try store.create(title: "Plan", body: "", zone: work.zone)
        let trashed = try store.create(title: "Old", body: "")
        _ = try store.trash(trashed.id)
        #expect(try store.zone(ofNote: plan.id) == "work")
        #expect(try store.zone(ofNote: trashed.id) == Note.defaultZone, "a trashed note is still in its notebook")
        #expect(try store.zone(ofNote: UUID()) == nil)
    }

    @Test func namesAreUniqueOnceFoldedAndZonesAreNeverReused() throws {
        let t = try TestStore()
        let store = t.store
        let first = try store.createNotebook(named: "Ideas")
        #expect(throws: StoreError.self) { try store.createNotebook(named: "IDEAS") }
        #expect(throws: StoreError.self) { try store.createNotebook(named: "bad\nname") }
        #expect(throws: StoreError.self) { try store.createNotebook(named: "   ") }
        _ = try store.deleteNotebook("ideas")
        // A deleted notebook's zone may carry a deletion marker: a new one gets another zone.
        let second = try store.createNotebook(named: "Ideas")
        #expect(second.zone != first.zone && second.zone.hasPrefix("ideas-"))
        #expect(try store.notebook(named: "ideas").zone == second.zone)
    }

    @Test func renameKeepsTheZoneAndStampsAPendingName() throws {
        let t = try TestStore()
        let store = t.store
        let notebook = try store.createNotebook(named: "Old")
        let note = try store.create(title: "n", body: "", zone: notebook.zone)
        let renamed = try store.renameNotebook("Old", to: "New")
        #expect(renamed.zone == notebook.zone)
        #expect(try store.note(note.id)?.zone == notebook.zone)
        #expect(try store.pendingNotebookNames().map(\.displayName) == ["New"])
        #expect(throws: StoreError.self) { try store.renameNotebook("Old", to: "X") }
        try store.create(title: "x", body: "", zone: "other")
        #expect(throws: StoreError.self) { try store.renameNotebook("New", to: "other") }
    }

    @Test func deleteTrashesTheNotesAndQueuesTheZoneDeletionButNotForTheDefaultNotebook() throws {
        let t = try TestStore()
        let store = t.store
        let notebook = try store.createNotebook(named: "Gone")
        let note = try store.create(title: "n", body: "", zone: notebook.zone)
        let (_, trashed) = try store.deleteNotebook("Gone")
        #expect(trashed == 1)
        #expect(try store.note(note.id)?.isTrashed == true)
        #expect(try store.pendingZoneDeletions() == [notebook.zone])
        #expect(try !store.notebooks().contains { $0.zone == notebook.zone })
        #expect(throws: StoreError.self) { try store.deleteNotebook("notes") }
    }

    @Test func aReceivedNameWinsOnlyWhenItIsNewer() throws {
        let t = try TestStore()
        let store = t.store
        let notebook = try store.createNotebook(named: "Mine")
        let mine = try #require(try store.pendingNotebookNames().first)
        let older = NotebookName(
            zone: notebook.zone, displayName: "Older", hlc: HLC(millis: mine.hlc.millis - 1), device: "zzzzzzzzzzzzzzzz"
        )
        #expect(try !store.applyNotebookName(older))
        #expect(try store.notebook(named: notebook.zone).name == "Mine")
        let newer = NotebookName(
            zone: notebook.zone, displayName: "Theirs", hlc: HLC(millis: mine.hlc.millis + 1),
            device: "aaaaaaaaaaaaaaaa")
        #expect(try store.applyNotebookName(newer))
        #expect(try store.notebook(named: notebook.zone).name == "Theirs")
        #expect(try store.pendingNotebookNames().isEmpty, "a name that lost is not published")
        // The next rename here is stamped after the name it replaces.
        try store.renameNotebook(notebook.zone, to: "Again")
        #expect(try #require(try store.pendingNotebookNames().first).hlc > newer.hlc)
    }

    @Test func moveChangesTheNotesZoneAsAnEdit() throws {
        let t = try TestStore()
        let store = t.store
        let notebook = try store.createNotebook(named: "Target")
        let note = try store.create(title: "n", body: "")
        let moved = try store.move(note.id, toNotebook: "target")
        #expect(moved.zone == notebook.zone)
        #expect(try store.history(note.id).count == 2)
        #expect(throws: StoreError.self) { try store.move(note.id, toNotebook: "Nope") }
    }

    @Test func tagsAreRenamedAcrossNotesAndBodyHashtagsCountWhenAsked() throws {
        let t = try TestStore()
        let store = t.store
        let a = try store.create(title: "a", body: "see #project-x and # heading\n#idea", tags: ["work", "old"])
        try store.create(title: "b", body: "a#b #123 #idea/sub", tags: ["old"])
        #expect(try store.tagCounts().map(\.tag) == ["old", "work"])
        #expect(try store.renameTag("old", to: "archive") == 2)
        #expect(try store.note(a.id)?.tags == ["archive", "work"])
        #expect(try store.history(a.id).count == 2)
        let counts = try store.tagCounts(bodyHashtags: true)
        #expect(counts.map(\.tag) == ["archive", "idea", "idea/sub", "project-x", "work"])
        #expect(counts.map(\.count) == [2, 1, 1, 1, 1])
    }
}
