import CloudFolder
import Foundation
import NotesCore
import NotesStore
import NotesSync
import Testing

/// A reader stuck on a damaged log file that a snapshot covers loads the snapshot by itself and
/// says so (SYNC-FORMAT "Compaction"), instead of waiting forever.
@Suite("A damaged log file below a snapshot")
struct DamagedLogFallbackTests {
    @Test("a new device gets every note from the snapshot and names the damaged file")
    func fallsBackToSnapshot() async throws {
        let (folder, io) = TestFolder.memory()
        let a = try TestDevice("a", folder: folder)
        var ids: [UUID] = []
        for n in 0..<3 {
            ids.append(try a.store.create(title: "note \(n)", body: "\(n)\n").id)
            await a.sync()
        }
        let compacted = try await a.engine.compact()
        #expect(compacted.zones[ZoneID("notes")!]?.snapshotSeq == 3)
        let owner = try #require(DeviceID(a.store.deviceID))
        let path = folder.layout.logFile(ZoneID("notes")!, device: owner, seq: 1)
        var bytes = try #require(io.contents(path))
        bytes[bytes.count / 2] ^= 0x20
        io.plantFile(path, bytes)
        let c = try TestDevice("c", folder: folder)
        let summary = await c.sync()
        #expect(summary.fetched.snapshotsLoaded == 1)
        for id in ids { #expect(try c.store.note(id) != nil) }
        let warnings = await c.engine.warnings
        #expect(warnings.contains { $0.contains("000000000001.json does not check out") }, "\(warnings)")
    }
}
