import CloudFolder
import Foundation
import NotesCore
import NotesStore
import NotesSync
import NotesTestSupport
import Testing

/// The app's sync as the runtime holds it (`BackgroundSync.client`), over an in-memory folder,
/// a real store in a temporary directory and a test clock: what the executable's `TUI` used to
/// wire by hand, tested without a terminal (issue 23, "a composition root").
@Suite("Background sync: the app's client of the engine")
struct BackgroundSyncTests {
    /// The app's store in a fresh directory, and an automatic engine factory over `folder`.
    final class App: Sendable {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("app-\(UUID().uuidString)")
        let store: NoteStore
        let clock = TestClock()

        init() throws { store = try NoteStore(directory: directory) }

        deinit { try? FileManager.default.removeItem(at: directory) }

        /// An engine as the app runs it: automatic, a 2 s debounce on the test clock.
        func engine(_ folder: any CloudFolder) throws -> SyncEngine {
            var configuration = SyncEngine.Configuration(
                folder: folder, deviceName: "app", automaticallySync: true, debounceSeconds: 2)
            configuration.clock = clock
            configuration.logger.logLevel = .error
            return try SyncEngine(store: store, configuration: configuration)
        }
    }

    /// Every status the client's stream gave, read as it comes; `ended` once the stream finished.
    actor StatusLog {
        private(set) var statuses: [SyncStatus] = []
        private(set) var ended = false

        /// A log that reads `stream` until it ends.
        static func reading(_ stream: AsyncStream<SyncStatus>?) -> StatusLog {
            let log = StatusLog()
            if let stream {
                Task {
                    for await status in stream { await log.append(status) }
                    await log.end()
                }
            }
            return log
        }

        private func append(_ status: SyncStatus) { statuses.append(status) }
        private func end() { ended = true }

        var last: SyncStatus? { statuses.last }

        /// The first sync finished: the last status is idle with a time.
        var synced: Bool {
            if case .idle(let lastSync)? = last?.phase { lastSync != nil } else { false }
        }
    }

    /// How many engines a factory made.
    actor Count {
        private(set) var value = 0
        func increment() { value += 1 }
    }

    /// `stop` blocks until the last send is done: called off the cooperative pool, as the app
    /// calls it on its main thread.
    func stop(_ client: SyncClient) async {
        await withCheckedContinuation { done in
            DispatchQueue.global().async {
                client.stop()
                done.resume()
            }
        }
    }

    @Test("a note saved in the store reaches the folder a debounce later, through the local-write watcher")
    func storeWriteReachesTheFolder() async throws {
        let (folder, _) = TestFolder.memory()
        let app = try App()
        let client = BackgroundSync(localWrites: app.directory.path) { _ in
            BackgroundSync.Started(engine: try app.engine(folder), cloudOnThisDisk: true)
        }.client
        let log = StatusLog.reading(client.status)
        #expect(!client.startsLocked)
        #expect(await settles { await log.synced })
        // Nobody tells the engine about this write but the watcher on the data directory.
        let note = try app.store.create(title: "from the app", body: "typed\n")
        #expect(await settles { await log.last?.pendingCount == 1 })
        #expect(try app.store.pendingCount() == 1, "nothing is sent before the debounce")
        #expect(
            try await settles {
                // The debounce sleeps on the test clock: moved on each time it is waiting.
                if app.clock.sleepers > 0 { app.clock.advance(by: .seconds(2)) }
                return try app.store.pendingCount() == 0
            })
        let other = try TestDevice("other", folder: folder)
        await other.sync()
        #expect(try other.store.note(note.id)?.body == "typed\n")
        // The status bar's warning about a folder on the data's disk rides on every status.
        #expect(await log.statuses.allSatisfy { $0.cloudOnThisDisk })
        await stop(client)
        #expect(await settles { await log.ended })
    }

    @Test("stopping sends what the debounce still holds, and ends the status stream")
    func stopSendsTheLastChange() async throws {
        let (folder, _) = TestFolder.memory()
        let app = try App()
        // However starved the pool, the test waits for the last send (the app waits 3 s).
        let client = BackgroundSync(localWrites: app.directory.path, lastSendWait: .seconds(600)) { _ in
            BackgroundSync.Started(engine: try app.engine(folder))
        }.client
        let log = StatusLog.reading(client.status)
        #expect(await settles { await log.synced })
        let note = try app.store.create(title: "saved on quit", body: "last words\n")
        #expect(await settles { app.clock.sleepers > 0 })
        // The clock never moves: only the stop's own send can carry the note.
        await stop(client)
        #expect(try app.store.pendingCount() == 0)
        let other = try TestDevice("other", folder: folder)
        await other.sync()
        #expect(try other.store.note(note.id)?.title == "saved on quit")
        #expect(await settles { await log.ended })
    }

    @Test("a locked folder waits for the passphrase: a wrong one is refused in a sentence, the right one starts sync")
    func lockedClientUnlocks() async throws {
        let io = InMemoryFileIO()
        io.plantDirectory("/cloud")
        let seal = TestFolder.testSeal()
        let writer = try TestDevice("writer", folder: DirectoryCloudFolder(root: "/cloud", io: io, seal: seal))
        let note = try writer.store.create(title: "sealed", body: "secret\n")
        await writer.sync()
        let app = try App()
        let made = Count()
        let unlock: BackgroundSync.Unlock = { passphrase in
            guard passphrase == "right" else {
                throw CloudError(.notAuthenticated, "the passphrase does not open this cloud folder")
            }
            return seal
        }
        let sync = BackgroundSync(localWrites: app.directory.path, locked: unlock) { unlocked in
            Task { await made.increment() }
            return BackgroundSync.Started(
                engine: try app.engine(DirectoryCloudFolder(root: "/cloud", io: io, seal: unlocked)))
        }
        let client = sync.client
        let log = StatusLog.reading(client.status)
        #expect(client.startsLocked)
        #expect(await settles { await log.last?.phase == .error(message: BackgroundSync.lockedMessage) })
        client.syncNow?()
        #expect(client.unlock?("wrong") == "the passphrase does not open this cloud folder")
        #expect(sync.isLocked)
        #expect(await made.value == 0, "no engine before the folder is unlocked")
        #expect(client.unlock?("right") == nil)
        #expect(!sync.isLocked)
        #expect(await settles { await log.synced })
        #expect(try app.store.note(note.id)?.body == "secret\n")
        // `s` after unlocking: a sync at once, which fetches what the writer sent since.
        let later = try writer.store.create(title: "later", body: "")
        await writer.sync()
        client.syncNow?()
        #expect(try await settles { try app.store.note(later.id) != nil })
        #expect(client.unlock?("wrong") == nil, "nothing left to unlock")
        #expect(await settles { await made.value == 1 })
        await stop(client)
    }

    @Test("an engine that cannot start turns sync off, said in the status bar; the app goes on")
    func failureToStartIsSaid() async throws {
        let app = try App()
        let client = BackgroundSync(localWrites: app.directory.path) { _ in
            throw CloudError(.permissionFailure, "the cloud folder cannot be read", path: "/cloud")
        }.client
        let log = StatusLog.reading(client.status)
        #expect(
            await settles {
                await log.last?.phase == .error(message: "sync is off: the cloud folder cannot be read (/cloud)")
            })
        client.syncNow?()
        await stop(client)
        #expect(await settles { await log.ended })
    }

    @Test("with no cloud folder, a shared notebook's engine still syncs in the background, and the bar shows it")
    func sharedNotebookSyncsWithoutACloudFolder() async throws {
        let (place, _) = TestFolder.memory()
        let app = try App()
        let shared = try app.engine(place)
        let client = BackgroundSync(
            localWrites: app.directory.path,
            makeShared: { ([BackgroundSync.Shared(name: "Trip", engine: shared)], []) }, makeEngine: { _ in nil }
        ).client
        let log = StatusLog.reading(client.status)
        #expect(await settles { await log.synced }, "the bar says synced, not local only")
        let note = try app.store.create(title: "packing", body: "socks\n")
        #expect(
            try await settles {
                if app.clock.sleepers > 0 { app.clock.advance(by: .seconds(2)) }
                return try app.store.pendingCount() == 0
            })
        let member = try TestDevice("member", folder: place)
        await member.sync()
        #expect(try member.store.note(note.id)?.body == "socks\n")
        await stop(client)
        #expect(await settles { await log.ended })
    }

    @Test("a shared place that cannot be synced is said in the status bar while the cloud folder syncs")
    func sharedProblemIsSaid() async throws {
        let (folder, _) = TestFolder.memory()
        let app = try App()
        let problem = "/places/trip: you are no longer a member of Ana's share; the notes you had stay here, read-only"
        let client = BackgroundSync(
            localWrites: app.directory.path, makeShared: { ([], [problem]) },
            makeEngine: { _ in BackgroundSync.Started(engine: try app.engine(folder)) }
        ).client
        let log = StatusLog.reading(client.status)
        #expect(await settles { await log.last?.phase == .error(message: problem) })
        await stop(client)
    }
}
