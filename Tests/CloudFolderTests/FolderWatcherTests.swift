import Foundation
import NotesTestSupport
import Testing

@testable import CloudFolder

/// The watcher of ARCHITECTURE §4: inotify on the folder tree, new folders picked up, a fallback poll.
@Suite("FolderWatcher")
struct FolderWatcherTests {
    /// Counts callbacks; `wait` polls with a deadline (never a bare sleep to "let it happen").
    /// The tests are async and wait by suspending: a test that blocked a thread of the
    /// cooperative pool (two on a two-core machine) starved the task a settle on a test clock
    /// sleeps in, and a CI run hung.
    final class Counter: @unchecked Sendable {
        private let lock = NSLock()
        private var value = 0
        func hit() { lock.withLock { value += 1 } }
        var count: Int { lock.withLock { value } }

        func wait(above: Int, seconds: Double = 5) async -> Bool {
            await eventually(timeout: .seconds(seconds)) { count > above }
        }
    }

    @Test("a file published in a device folder created after the start is reported")
    func newFoldersAreWatched() async throws {
        let root = TempDirectory.make()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let counter = Counter()
        let watcher = try FolderWatcher(root: root, pollInterval: 3600) { counter.hit() }
        defer { watcher.stop() }
        let segment = root + "/private/zones/notes/log/aaaaaaaaaaaaaaaa/000000000000"
        try FileManager.default.createDirectory(atPath: segment, withIntermediateDirectories: true)
        #expect(await counter.wait(above: 0))
        // The new folders are watched: a rename into the segment is seen.
        #expect(await eventually { watcher.watchedFolderCount == 7 })
        let before = counter.count
        try Data("x".utf8).write(to: URL(fileURLWithPath: segment + "/.tmp"))
        try FileManager.default.moveItem(atPath: segment + "/.tmp", toPath: segment + "/000000000001.json")
        #expect(await counter.wait(above: before))
    }

    @Test("a burst of events waits out the settle on the injected clock and is one callback")
    func aBurstIsOneCallbackAfterTheSettle() async throws {
        let root = TempDirectory.make()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let counter = Counter()
        let clock = TestClock()
        let watcher = try FolderWatcher(root: root, pollInterval: 3600, settle: .seconds(1), clock: clock) {
            counter.hit()
        }
        defer { watcher.stop() }
        // A publication: a temp file created and written, then renamed to its final name.
        try Data("x".utf8).write(to: URL(fileURLWithPath: root + "/.tmp"))
        #expect(await eventually { clock.sleepers == 1 })
        try FileManager.default.moveItem(atPath: root + "/.tmp", toPath: root + "/000000000001.json")
        #expect(counter.count == 0)
        clock.advance(by: .seconds(1))
        #expect(await counter.wait(above: 0))
        #expect(counter.count == 1)
    }

    @Test("stop ends the watcher while a settle waits on a clock that never moves")
    func stopEndsAWatcherWaitingOutItsSettle() async throws {
        let root = TempDirectory.make()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let clock = TestClock()
        let watcher = try FolderWatcher(root: root, pollInterval: 3600, settle: .seconds(1), clock: clock) {}
        try Data("x".utf8).write(to: URL(fileURLWithPath: root + "/000000000001.json"))
        try #require(await eventually { clock.sleepers == 1 })
        // Before the fix, stop waited for a thread that waited for the clock: a test run hung here.
        watcher.stop()
        #expect(watcher.hasEnded)
        #expect(clock.sleepers == 0)
    }

    @Test("with no events, the fallback poll still calls back; after stop nothing does")
    func fallbackPollAndStop() async throws {
        let root = TempDirectory.make()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let counter = Counter()
        let watcher = try FolderWatcher(root: root, pollInterval: 0.05) { counter.hit() }
        #expect(await counter.wait(above: 2))
        #expect(!watcher.hasEnded)
        // stop() returns once the watching thread has ended, so no callback can follow it.
        watcher.stop()
        #expect(watcher.hasEnded)
    }

    @Test("a planted symlink to another folder is not followed")
    func symlinkNotFollowed() async throws {
        let root = TempDirectory.make()
        let outside = TempDirectory.make()
        defer {
            try? FileManager.default.removeItem(atPath: root)
            try? FileManager.default.removeItem(atPath: outside)
        }
        try FileManager.default.createSymbolicLink(atPath: root + "/link", withDestinationPath: outside)
        let counter = Counter()
        let watcher = try FolderWatcher(root: root, pollInterval: 3600) { counter.hit() }
        defer { watcher.stop() }
        #expect(watcher.watchedFolderCount == 1)
        try Data("x".utf8).write(to: URL(fileURLWithPath: outside + "/file"))
        #expect(await !counter.wait(above: 0, seconds: 0.3))
    }
}
