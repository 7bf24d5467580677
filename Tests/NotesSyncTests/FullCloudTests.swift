import CloudFolder
import Foundation
import Glibc
import NotesCore
import NotesStore
import NotesSync
import NotesTestSupport
import Testing

/// A full cloud folder degrades, never wedges (issue 21 item 13): what fits still goes out, what
/// does not waits with its reason, and a change that makes it fit lets it go.
@Suite("A full cloud folder")
struct FullCloudTests {
    /// A note that travels as an asset (fields over 256 KB, under the 1 MB limit).
    static let largeBody = LargeNoteTests.body(lines: 4_000, width: 100)

    /// Chunk writes fail with ENOSPC; log files and everything else still fit.
    static func fillAssets(_ io: InMemoryFileIO) {
        io.fail(.write, errno: ENOSPC, pathContains: "/assets/", times: 1_000)
    }

    @Test("a large note that does not fit holds only itself: the notes after it go out, status says why it waits")
    func largeNoteWaitsAlone() async throws {
        let (_, io, a, b) = try await TestFolder.memoryPair()
        let device = await a.engine.device
        let before = try a.store.create(title: "before", body: "small")
        let big = try a.store.create(title: "big", body: Self.largeBody)
        let after = try a.store.create(title: "after", body: "small too")
        Self.fillAssets(io)

        let summary = await a.engine.syncNow()
        #expect(summary.error == nil, "\(String(describing: summary.error))")
        #expect(summary.sent.failed.map(\.recordID) == [big.id])
        let reason = try #require(summary.sent.failed.first?.error.message)
        #expect(reason.contains("the cloud folder is full") && reason.contains(big.id.lowercasedString), "\(reason)")
        #expect(summary.pending == 1)
        let status = await a.engine.status
        #expect(status.heldCount == 1)
        #expect(status.heldReason == "the cloud folder is full")
        guard case .error(let message) = status.phase else {
            Issue.record("a note waits for room, yet the phase is \(status.phase)")
            return
        }
        #expect(message.contains("the cloud folder is full"), "\(message)")

        await b.sync()
        #expect(try b.store.note(before.id)?.body == "small")
        #expect(try b.store.note(after.id)?.body == "small too")
        #expect(try b.store.note(big.id) == nil)

        // Room again: past the retry backoff the note goes out under the same device id (the
        // seq it did not get is free).
        io.clearFaults()
        a.clock.advance(by: 2_000)
        let again = await a.sync()
        #expect(again.sent.failed.isEmpty && again.pending == 0)
        #expect(await a.engine.device == device)
        #expect(await a.engine.status.heldCount == 0)
        guard case .idle = await a.engine.status.phase else {
            Issue.record("nothing waits, yet the phase is \(await a.engine.status.phase)")
            return
        }
        await b.sync()
        #expect(try b.store.note(big.id)?.body == Self.largeBody)
    }

    @Test("an edit that makes the waiting note fit lets it go, and later edits follow it")
    func shrinkingTheWaitingNoteReleasesIt() async throws {
        let (_, io, a, b) = try await TestFolder.memoryPair()
        let big = try a.store.create(title: "big", body: Self.largeBody)
        Self.fillAssets(io)
        #expect(await a.engine.syncNow().sent.failed.map(\.recordID) == [big.id])
        _ = try a.store.update(big.id) { $0.body = "small now" }
        let shrunk = await a.sync()
        #expect(shrunk.sent.failed.isEmpty, "\(shrunk.sent.failed)")
        #expect(shrunk.pending == 0)
        #expect(await a.engine.status.heldCount == 0)
        await b.sync()
        #expect(try b.store.note(big.id)?.body == "small now")
        // Later edits follow it in order.
        _ = try a.store.update(big.id) { $0.body = "small, edited" }
        await a.sync()
        await b.sync()
        #expect(try b.store.note(big.id)?.body == "small, edited")
    }

    @Test("a batch in flight when the process died, that no longer fits, holds only its large note")
    func inFlightBatchThatNoLongerFits() async throws {
        let (_, io, a, b) = try await TestFolder.memoryPair()
        let big = try a.store.create(title: "big", body: Self.largeBody)
        let small = try a.store.create(title: "small", body: "fits")
        // Dies while writing the large note's chunk: the batch stays in flight.
        io.crash(at: .write, pathContains: "/assets/")
        #expect(await a.engine.syncNow().error != nil)
        io.restart()
        Self.fillAssets(io)
        let summary = await a.engine.syncNow()
        #expect(summary.error == nil, "\(String(describing: summary.error))")
        #expect(summary.sent.failed.map(\.recordID) == [big.id])
        await b.sync()
        #expect(try b.store.note(small.id)?.body == "fits")
        io.clearFaults()
        a.clock.advance(by: 2_000)
        await a.sync()
        await b.sync()
        #expect(try b.store.note(big.id)?.body == Self.largeBody)
    }

    @Test("a process tries a note that did not fit again only on the retry backoff, not at every pass")
    func triedAgainOnBackoff() async throws {
        let (_, io, a, b) = try await TestFolder.memoryPair()
        let big = try a.store.create(title: "big", body: Self.largeBody)
        Self.fillAssets(io)
        #expect(await a.engine.syncNow().sent.failed.map(\.recordID) == [big.id])
        let writes = io.callCount(.write)
        let soon = await a.engine.syncNow()
        #expect(soon.sent.failed.map(\.recordID) == [big.id])
        #expect(io.callCount(.write) - writes < 3, "the large note's chunk was written again at once")
        // Past the first backoff (1 s ± 20 %) it is tried again, and goes once there is room.
        io.clearFaults()
        a.clock.advance(by: 2_000)
        let later = await a.sync()
        #expect(later.sent.failed.isEmpty && later.pending == 0)
        await b.sync()
        #expect(try b.store.note(big.id)?.body == Self.largeBody)
    }

    @Test("a running app tries the waiting note again by itself, on the backoff, once there is room")
    func automaticRetry() async throws {
        let (folder, io) = TestFolder.memory()
        let clock = TestClock()
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("full-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try NoteStore(directory: directory, clock: { clock.date })
        var configuration = SyncEngine.Configuration(
            folder: folder, deviceName: "a", automaticallySync: true, debounceSeconds: 0,
            retry: RetryPolicy(initial: 5, maximum: 20, jitter: 0), now: { clock.date })
        configuration.clock = clock
        let engine = try SyncEngine(store: store, configuration: configuration)
        await engine.start()
        let big = try store.create(title: "big", body: Self.largeBody)
        Self.fillAssets(io)
        await engine.pendingChangesAdded()
        #expect(await eventually { await engine.status.heldCount == 1 })
        #expect(try store.pendingCount() == 1)
        io.clearFaults()
        #expect(await eventually { clock.sleepers == 1 })
        clock.advance(by: .seconds(5))
        #expect(try await eventually { try store.pendingCount() == 0 })
        #expect(await engine.status.heldCount == 0)
        #expect(try store.note(big.id) != nil)
        await engine.stop()
    }

    @Test(
        "a note removed while it waits for room waits alone, in the trash, and says so; the notes after it go out, purge lets it go"
    )
    func removedWhileWaiting() async throws {
        let (_, io, a, b) = try await TestFolder.memoryPair()
        let note = try a.store.create(title: "photo", body: "see attached\n")
        await a.sync()
        await b.sync()
        _ = try AttachmentSyncTests.attach(a, note.id, name: "a.bin", bytes: 300_000, seed: 71)
        Self.fillAssets(io)
        #expect(await a.engine.syncNow().sent.failed.map(\.recordID) == [note.id])
        _ = try a.store.trash(note.id)
        let after = try a.store.create(title: "after", body: "written after the rm\n")
        a.clock.advance(by: 2_000)
        let summary = await a.engine.syncNow()
        #expect(summary.error == nil, "\(String(describing: summary.error))")
        #expect(summary.sent.failed.map(\.recordID) == [note.id])
        let id = note.id.lowercasedString
        let reason = try #require(summary.sent.failed.first?.error.message)
        #expect(reason.contains("note \(id), in the trash, waits on this device"), "\(reason)")
        #expect(reason.contains("the cloud folder is full"), "\(reason)")
        #expect(reason.contains("`cloudnotes purge \(id)`"), "\(reason)")
        #expect(await a.engine.status.heldCount == 1)
        guard case .error(let message) = await a.engine.status.phase else {
            Issue.record("a removed note waits for room, yet the phase is \(await a.engine.status.phase)")
            return
        }
        #expect(message.contains("the cloud folder is full"), "\(message)")
        // Nothing else waits behind it; the other device keeps the note, as the reason says.
        await b.sync()
        #expect(try b.store.note(after.id)?.body == "written after the rm\n")
        #expect(try b.store.note(note.id)?.isTrashed == false)

        try a.store.purge(note.id)
        let released = await a.sync()
        #expect(released.sent.failed.isEmpty && released.pending == 0, "\(released.sent.failed)")
        #expect(await a.engine.status.heldCount == 0)
        guard case .idle = await a.engine.status.phase else {
            Issue.record("nothing waits, yet the phase is \(await a.engine.status.phase)")
            return
        }
        await b.sync()
        #expect(try b.store.note(note.id) == nil)
    }

    @Test("when not even a small change fits, the sync fails with the full folder's reason, and recovers")
    func nothingFits() async throws {
        let (_, io, a, b) = try await TestFolder.memoryPair()
        let note = try a.store.create(title: "small", body: "no room")
        io.fail(.write, errno: ENOSPC, times: 1_000)
        let summary = await a.engine.syncNow()
        #expect(summary.error?.code == .quotaExceeded)
        #expect(summary.pending == 1)
        io.clearFaults()
        await a.sync()
        await b.sync()
        #expect(try b.store.note(note.id)?.body == "no room")
    }
}
