import CloudFolder
import Foundation
import NotesCore
import NotesStore
import NotesSync
import NotesTestSupport
import Testing

@Suite("Automatic sync: debounce, retries, the status stream (ARCHITECTURE §4)")
struct AutomaticSyncTests {
    func automaticDevice(
        _ name: String, folder: any CloudFolder, debounce: Double, retry: RetryPolicy = RetryPolicy(),
        clock: TestClock
    ) throws -> (NoteStore, SyncEngine, URL) {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "auto-\(name)-\(UUID().uuidString)")
        let store = try NoteStore(directory: directory)
        var configuration = SyncEngine.Configuration(
            folder: folder, deviceName: name, automaticallySync: true, debounceSeconds: debounce, retry: retry)
        configuration.clock = clock
        let engine = try SyncEngine(store: store, configuration: configuration)
        return (store, engine, directory)
    }

    @Test("edits are sent once, a debounce after the last of a burst, and not before")
    func debouncedSend() async throws {
        let (folder, _) = TestFolder.memory()
        let clock = TestClock()
        let (store, engine, directory) = try automaticDevice("a", folder: folder, debounce: 2, clock: clock)
        defer { try? FileManager.default.removeItem(at: directory) }
        await engine.start()
        // Every batch sent until the stream ends (stop() ends it), so a second send would count.
        let events = Task {
            var sentBatches = 0
            for await event in engine.events {
                if case .sentRecordZoneChanges(_, let saved, _) = event, !saved.isEmpty { sentBatches += 1 }
            }
            return sentBatches
        }
        let note = try store.create(title: "burst", body: "1\n")
        await engine.pendingChangesAdded()
        for n in 2...4 {
            clock.advance(by: .seconds(1))
            _ = try store.update(note.id) { $0.body += "\(n)\n" }
            await engine.pendingChangesAdded()
        }
        // Each edit restarted the wait: one debounce sleeps, nothing has gone out.
        #expect(await eventually { clock.sleepers == 1 })
        clock.advance(by: .milliseconds(1900))
        #expect(clock.sleepers == 1)
        #expect(try store.pendingCount() == 4)
        clock.advance(by: .milliseconds(100))
        #expect(try await eventually { try store.pendingCount() == 0 })
        // Stopping ends the streams, so the reader above cannot wait forever.
        await engine.stop()
        #expect(await events.value == 1)
    }

    @Test("a folder that comes back: the status goes offline, then a retry with backoff sends what waited")
    func retryAfterOutage() async throws {
        let folder = try TestFolder.disk()
        let root = folder.layout.root
        defer { try? FileManager.default.removeItem(atPath: root) }
        let clock = TestClock()
        let (store, engine, directory) = try automaticDevice(
            "a", folder: folder, debounce: 0, retry: RetryPolicy(initial: 5, maximum: 20), clock: clock)
        defer { try? FileManager.default.removeItem(at: directory) }
        await engine.start()
        let statuses = Task {
            var seen: [SyncStatus.Phase] = []
            for await status in engine.statusUpdates {
                seen.append(status.phase)
                if case .idle = status.phase, seen.contains(where: { if case .offline = $0 { true } else { false } }) {
                    return seen
                }
            }
            return seen
        }
        try FileManager.default.moveItem(atPath: root, toPath: root + ".away")
        _ = try store.create(title: "waits", body: "x\n")
        await engine.pendingChangesAdded()
        #expect(await eventually { if case .offline = await engine.status.phase { true } else { false } })
        // The retry waits on the clock: however long the folder is back, nothing moves before it.
        #expect(await eventually { clock.sleepers == 1 })
        try FileManager.default.moveItem(atPath: root + ".away", toPath: root)
        #expect(try store.pendingCount() == 1)
        clock.advance(by: .seconds(20))
        #expect(try await eventually { try store.pendingCount() == 0 })
        #expect(await eventually { if case .idle = await engine.status.phase { true } else { false } })
        await engine.stop()
        let seen = await statuses.value
        #expect(seen.contains { if case .offline(let reason) = $0 { reason.contains("wait") } else { false } })
    }

    @Test("backoff doubles up to the maximum, jitter stays within its fraction, retry-after is a floor")
    func retryPolicy() {
        let policy = RetryPolicy(initial: 1, multiplier: 2, maximum: 60, jitter: 0.2)
        #expect(policy.delay(attempt: 1, unit: 0.5) == 1)
        #expect(policy.delay(attempt: 4, unit: 0.5) == 8)
        #expect(policy.delay(attempt: 30, unit: 0.5) == 60)
        #expect(policy.delay(attempt: 4, unit: 0) == 8 * 0.8)
        #expect(policy.delay(attempt: 4, unit: 0.999_999) < 8 * 1.2 + 0.001)
        #expect(policy.delay(attempt: 1, retryAfter: 30, unit: 0.5) == 30)
    }
}
