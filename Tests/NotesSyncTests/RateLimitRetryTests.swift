import CloudFolder
import Foundation
import NotesCore
import NotesStore
import NotesSync
import NotesTestSupport
import Testing

/// A `FileIO` that answers every call with `error` while armed (a store throttling requests),
/// else passes through.
final class ThrottledFileIO: FileIO, @unchecked Sendable {
    let base: InMemoryFileIO
    private let lock = NSLock()
    private var armed: CloudError?

    init(_ base: InMemoryFileIO) { self.base = base }

    func arm(_ error: CloudError?) { lock.withLock { armed = error } }

    private func check() throws { if let error = lock.withLock({ armed }) { throw error } }

    func createExclusive(_ path: String) throws -> FileDescriptor {
        try check()
        return try base.createExclusive(path)
    }
    func write(_ file: FileDescriptor, _ bytes: [UInt8]) throws { try base.write(file, bytes) }
    func fsync(_ file: FileDescriptor) throws { try base.fsync(file) }
    func close(_ file: FileDescriptor) throws { try base.close(file) }
    func rename(_ from: String, to: String) throws {
        try check()
        try base.rename(from, to: to)
    }
    func fsyncDirectory(_ path: String) throws { try base.fsyncDirectory(path) }
    func read(_ path: String, maxBytes: Int) throws -> [UInt8] {
        try check()
        return try base.read(path, maxBytes: maxBytes)
    }
    func list(_ path: String) throws -> [String] {
        try check()
        return try base.list(path)
    }
    func kind(_ path: String) throws -> FileKind? {
        try check()
        return try base.kind(path)
    }
    func makeDirectory(_ path: String) throws {
        try check()
        try base.makeDirectory(path)
    }
    func remove(_ path: String) throws {
        try check()
        try base.remove(path)
    }
}

@Suite("A throttling cloud: the retry waits as long as the server asked (ARCHITECTURE §4)")
struct RateLimitRetryTests {
    @Test("503 SlowDown with Retry-After 120: offline, no retry before 120 s even with a 5 s backoff, then sent")
    func retryHonoursRetryAfter() async throws {
        let memory = InMemoryFileIO()
        memory.plantDirectory("/cloud")
        let io = ThrottledFileIO(memory)
        let folder = DirectoryCloudFolder(root: "/cloud", io: io)
        let clock = TestClock()
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("throttle-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try NoteStore(directory: directory)
        var configuration = SyncEngine.Configuration(
            folder: folder, deviceName: "a", automaticallySync: true, debounceSeconds: 0,
            retry: RetryPolicy(initial: 5, maximum: 5))
        configuration.clock = clock
        let engine = try SyncEngine(store: store, configuration: configuration)
        await engine.start()
        io.arm(CloudError(.requestRateLimited, "the S3 server asks to slow down (SlowDown)", retryAfter: 120))
        _ = try store.create(title: "waits", body: "x\n")
        await engine.pendingChangesAdded()
        #expect(
            await eventually {
                if case .offline(let reason) = await engine.status.phase { reason.contains("wait 120s") } else { false }
            })
        #expect(await eventually { clock.sleepers == 1 })
        io.arm(nil)
        // The backoff alone would have retried after 5 s; the server asked for 120.
        clock.advance(by: .seconds(119))
        #expect(clock.sleepers == 1)
        #expect(try store.pendingCount() == 1)
        clock.advance(by: .seconds(1))
        #expect(try await eventually { try store.pendingCount() == 0 })
        await engine.stop()
    }
}
