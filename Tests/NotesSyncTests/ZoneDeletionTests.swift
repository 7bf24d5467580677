import CloudFolder
import Foundation
import NotesCore
import NotesStore
import NotesSync
import Testing

@Suite("Zone folders deleted with and without a marker (SYNC-FORMAT rule 12)")
struct ZoneDeletionTests {
    /// Where the cloud folder lives: the scenarios run the same over each.
    enum Backend: String, CaseIterable, CustomTestStringConvertible {
        case memory, disk, s3
        var testDescription: String { rawValue }

        func folder() async throws -> DirectoryCloudFolder {
            switch self {
            case .memory: TestFolder.memory().0
            case .disk: try TestFolder.disk()
            case .s3: try await TestFolder.s3()
            }
        }
    }

    /// On a disk folder: deleting a whole folder tree is what a user does to a folder (a bucket's
    /// keys are not removed as a tree through `FileIO`).
    @Test("without a marker (userDeletedZone): recreated, everyone re-uploads, a new device gets every note")
    func deletedWithoutMarker() async throws {
        let folder = try TestFolder.disk()
        defer { try? FileManager.default.removeItem(atPath: folder.layout.root) }
        let a = try TestDevice("a", folder: folder)
        let b = try TestDevice("b", folder: folder)
        let fromA = try a.store.create(title: "from a", body: "a\n")
        let fromB = try b.store.create(title: "from b", body: "b\n")
        try await quiesce([a, b])
        try FileManager.default.removeItem(atPath: folder.layout.zoneDirectory(ZoneID("notes")!))
        let afterB = try b.store.create(title: "after", body: "written while the zone was gone\n")
        try await quiesce([a, b])
        #expect(await a.engine.warnings.contains { $0.contains("userDeletedZone") })
        let c = try TestDevice("c", folder: folder)
        _ = await c.sync()
        for id in [fromA.id, fromB.id, afterB.id] {
            #expect(try c.store.note(id) != nil, "note \(id) did not come back")
        }
        try await quiesce([a, b, c])
    }

    @Test(
        "with a marker: the zone's notes go to the trash once; a note restored afterwards stays",
        arguments: Backend.allCases)
    func deletedWithMarker(_ backend: Backend) async throws {
        let folder = try await backend.folder()
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
