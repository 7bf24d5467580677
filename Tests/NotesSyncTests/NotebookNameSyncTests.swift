import CloudFolder
import Foundation
import NotesCore
import NotesStore
import NotesSync
import NotesTestSupport
import Testing

@Suite("Notebook names and deletions between devices (SYNC-FORMAT rules 12 and 16)")
struct NotebookNameSyncTests {
    func name(_ device: TestDevice, _ zone: String) throws -> String? {
        try device.store.notebooks().first { $0.zone == zone }?.name
    }

    @Test("a rename on one device reaches the other; the zone and its notes stay")
    func renameSyncs() async throws {
        for kind in [FolderKind.plain, .encrypted] {
            let (folder, _, a, b) = try await TestFolder.memoryPair(kind)
            let work = try a.store.createNotebook(named: "Work Stuff")
            let note = try a.store.create(title: "plan", body: "x\n", zone: work.zone)
            _ = await a.sync()
            _ = await b.sync()
            #expect(try name(b, work.zone) == "Work Stuff", "\(kind)")
            a.clock.advance(by: 1000)
            try a.store.renameNotebook("Work Stuff", to: "Projects · 2026")
            _ = await a.sync()
            _ = await b.sync()
            #expect(try name(b, work.zone) == "Projects · 2026", "\(kind)")
            #expect(try b.store.note(note.id)?.zone == work.zone, "\(kind)")
            #expect(try b.store.notebooks().filter { $0.zone == work.zone }.map(\.count) == [1], "\(kind)")
            // The name files are not log files: a log reader (older builds read only log/) sees
            // nothing new, nothing ignored and nothing waiting.
            let zone = try #require(ZoneID(work.zone))
            let changes = try folder.fetchChanges(zone: zone, since: .empty)
            #expect(changes.ignored.isEmpty && changes.notArrived.isEmpty, "\(kind)")
            #expect(changes.batches.flatMap(\.batch.records).allSatisfy { $0.recordType == "Note" }, "\(kind)")
        }
    }

    @Test("concurrent renames: the later (hlc, device) wins on both devices, whatever order they sync in")
    func concurrentRenamesConverge() async throws {
        let (_, _, a, b) = try await TestFolder.memoryPair()
        let shared = try a.store.createNotebook(named: "Shared")
        _ = await a.sync()
        _ = await b.sync()
        try a.store.renameNotebook(shared.zone, to: "From A")
        b.clock.advance(by: 5000)
        try b.store.renameNotebook(shared.zone, to: "From B")
        // b publishes its later name first; a's earlier one must not win when it comes after.
        _ = await b.sync()
        _ = await a.sync()
        _ = await b.sync()
        #expect(try name(a, shared.zone) == "From B")
        #expect(try name(b, shared.zone) == "From B")
        // A rename after having seen the winner wins in turn (a's clock followed b's stamp).
        try a.store.renameNotebook(shared.zone, to: "Final")
        _ = await a.sync()
        _ = await b.sync()
        #expect(try name(b, shared.zone) == "Final")
    }

    @Test("deleting a notebook trashes its notes everywhere and marks its zone deleted")
    func deleteSyncs() async throws {
        let (folder, _, a, b) = try await TestFolder.memoryPair()
        let old = try a.store.createNotebook(named: "Old")
        let note = try a.store.create(title: "in old", body: "x\n", zone: old.zone)
        _ = await a.sync()
        _ = await b.sync()
        #expect(try name(b, old.zone) == "Old")
        let (_, trashed) = try a.store.deleteNotebook("Old")
        #expect(trashed == 1)
        _ = await a.sync()
        #expect(try folder.zoneStatus(ZoneID(old.zone)!) == .deleted(by: [DeviceID(a.store.deviceID)!]))
        _ = await b.sync()
        #expect(try b.store.note(note.id)?.isTrashed == true)
        #expect(try !b.store.notebooks().contains { $0.zone == old.zone })
        // A note restored afterwards stays restored on the deleting device too.
        _ = try a.store.restore(note.id)
        _ = await a.sync()
        #expect(try a.store.note(note.id)?.isTrashed == false)
    }

    @Test("a zone recreated without a marker (rule 12) keeps its name for a device that joins later")
    func recreatedZoneKeepsItsName() async throws {
        for kind in [FolderKind.plain, .encrypted] {
            let folder = try TestFolder.disk(encrypted: kind == .encrypted)
            defer { try? FileManager.default.removeItem(atPath: folder.layout.root) }
            let a = try TestDevice("a", folder: folder)
            let b = try TestDevice("b", folder: folder)
            let work = try a.store.createNotebook(named: "Work")
            let note = try a.store.create(title: "plan", body: "x\n", zone: work.zone)
            try await quiesce([a, b])
            // The user deletes the zone's folder by hand: its notes and its name files go.
            try FileManager.default.removeItem(atPath: folder.layout.zoneDirectory(try #require(ZoneID(work.zone))))
            try await quiesce([a, b])
            let c = try TestDevice("c", folder: folder)
            _ = await c.sync()
            #expect(try c.store.note(note.id)?.zone == work.zone, "\(kind)")
            #expect(try name(c, work.zone) == "Work", "\(kind)")
        }
    }

    @Test("links are indexed when notes arrive by sync: backlinks answer on the other device")
    func linksOfSyncedNotesAreIndexed() async throws {
        let (_, _, a, b) = try await TestFolder.memoryPair()
        let target = try a.store.create(title: "Hub", body: "")
        let source = try a.store.create(title: "Spoke", body: "to [[Hub]]\n")
        _ = await a.sync()
        _ = await b.sync()
        #expect(try b.store.backlinks(of: target.id).map(\.id) == [source.id])
        try a.store.update(source.id) { $0.body = "no more link\n" }
        _ = await a.sync()
        _ = await b.sync()
        #expect(try b.store.backlinks(of: target.id).isEmpty)
    }
}
