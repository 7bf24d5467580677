import CloudFolder
import Foundation
import NotesCore
import NotesStore
import NotesSync
import Testing

@Suite("Zone folders deleted with and without a marker (SYNC-FORMAT rule 12)")
struct ZoneDeletionTests {
    /// What a user does: the folder tree deleted on disk, every key under the zone's prefix
    /// deleted in a bucket.
    @Test(
        "without a marker (userDeletedZone): recreated, everyone re-uploads, a new device gets every note",
        arguments: [FolderBackend.disk, .s3], FolderKind.allCases)
    func deletedWithoutMarker(_ backend: FolderBackend, _ kind: FolderKind) async throws {
        let folder = try await backend.folder(kind)
        defer { if backend == .disk { try? FileManager.default.removeItem(atPath: folder.layout.root) } }
        let a = try TestDevice("a", folder: folder)
        let b = try TestDevice("b", folder: folder)
        let fromA = try a.store.create(title: "from a", body: "a\n")
        let fromB = try b.store.create(title: "from b", body: "b\n")
        try await quiesce([a, b])
        let zone = folder.layout.zoneDirectory(ZoneID("notes")!)
        if backend == .disk {
            try FileManager.default.removeItem(atPath: zone)
        } else {
            for path in try folder.allFiles().keys where path.hasPrefix(zone + "/") { try folder.io.remove(path) }
        }
        let afterB = try b.store.create(title: "after", body: "written while the zone was gone\n")
        try await quiesce([a, b])
        // On a bucket too: SeaweedFS still lists a folder entry for the zone once its keys are
        // gone, but a folder is there only while a key is under it, as on S3 (SYNC-FORMAT "On S3").
        let warnings = await a.engine.warnings
        #expect(warnings.contains { $0.contains("userDeletedZone") }, "\(warnings)")
        #expect(!warnings.contains { $0.contains("was recreated in the cloud folder") }, "\(warnings)")
        let c = try TestDevice("c", folder: folder)
        _ = await c.sync()
        for id in [fromA.id, fromB.id, afterB.id] {
            #expect(try c.store.note(id) != nil, "note \(id) did not come back")
        }
        try await quiesce([a, b, c])
    }

    @Test(
        "with a marker: the zone's notes go to the trash once; a note restored afterwards stays",
        arguments: FolderBackend.allCases, FolderKind.allCases)
    func deletedWithMarker(_ backend: FolderBackend, _ kind: FolderKind) async throws {
        let folder = try await backend.folder(kind)
        defer { if backend == .disk { try? FileManager.default.removeItem(atPath: folder.layout.root) } }
        let a = try TestDevice("a", folder: folder)
        let b = try TestDevice("b", folder: folder)
        let note = try a.store.create(title: "doomed", body: "x\n")
        try await quiesce([a, b])
        try folder.markZoneDeleted(ZoneID("notes")!, device: DeviceID(a.store.deviceID)!, hlc: HLC(millis: 1))
        _ = await b.sync()
        #expect(try b.store.note(note.id)?.isTrashed == true)
        _ = try b.store.restore(note.id)
        _ = await b.sync()
        #expect(try b.store.note(note.id)?.isTrashed == false)
    }
}
