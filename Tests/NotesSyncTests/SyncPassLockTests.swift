import CloudFolder
import Foundation
import NotesCore
import NotesStore
import NotesSync
import Testing

/// One sync at a time per data directory (SYNC-FORMAT "One sync at a time").
@Suite("The sync lock")
struct SyncPassLockTests {
    /// Two engines over one data directory, as two `cloudnotes sync` processes would have.
    static func twoEngines(_ folder: any CloudFolder, directory: URL, wait: Double = 30) throws -> [(
        store: NoteStore, engine: SyncEngine
    )] {
        try (0..<2).map { _ in
            let store = try NoteStore(directory: directory)
            var configuration = SyncEngine.Configuration(folder: folder, deviceName: "same")
            configuration.passLock = SyncPassLock(path: directory.appendingPathComponent("sync.lock").path)
            configuration.passLockWaitSeconds = wait
            return (store, try SyncEngine(store: store, configuration: configuration))
        }
    }

    @Test("two syncs at once on one data directory, 20 rounds: no clone detected, every note published once")
    func concurrentSyncs() async throws {
        let folder = try TestFolder.disk()
        defer { try? FileManager.default.removeItem(atPath: folder.layout.root) }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("lock-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let engines = try Self.twoEngines(folder, directory: directory)
        let device = await engines[0].engine.device
        var ids: [UUID] = []
        for round in 0..<20 {
            ids.append(try engines[round % 2].store.create(title: "note \(round)", body: "\(round)\n").id)
            async let first = engines[0].engine.syncNow()
            async let second = engines[1].engine.syncNow()
            let summaries = await [first, second]
            for summary in summaries {
                #expect(summary.error == nil, "round \(round): \(String(describing: summary.error))")
            }
        }
        for (_, engine) in engines {
            #expect(await engine.device == device)
            let warnings = await engine.warnings
            #expect(!warnings.contains { $0.contains("device id") }, "\(warnings)")
        }
        #expect(try engines[0].store.pendingCount() == 0)
        // A reader sees every note exactly once, from one device id.
        let reader = try TestDevice("reader", folder: folder)
        await reader.sync()
        for id in ids { #expect(try reader.store.note(id) != nil) }
        let logs = try FileManager.default.contentsOfDirectory(atPath: folder.layout.logDirectory(ZoneID("notes")!))
        #expect(Set(logs).subtracting([reader.store.deviceID]) == [device.rawValue])
    }

    @Test("while another holds the lock past the wait, sync says a sync is already running and changes nothing")
    func busy() async throws {
        let folder = try TestFolder.disk()
        defer { try? FileManager.default.removeItem(atPath: folder.layout.root) }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("lock-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let engines = try Self.twoEngines(folder, directory: directory, wait: 0)
        _ = try engines[0].store.create(title: "waits", body: "x\n")
        let other = SyncPassLock(path: directory.appendingPathComponent("sync.lock").path)
        #expect(try other.acquire(timeout: 0))
        let summary = await engines[0].engine.syncNow()
        #expect(summary.error?.message.contains("a sync is already running") == true)
        #expect(try engines[0].store.pendingCount() == 1)
        other.release()
        let after = await engines[0].engine.syncNow()
        #expect(after.error == nil)
        #expect(after.sent.sent == 1)
    }
}
