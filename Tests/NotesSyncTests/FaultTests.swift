import CloudFolder
import Foundation
import Glibc
import NotesCore
import NotesStore
import NotesSync
import NotesTestSupport
import Synchronization
import Testing

@Suite("Crashes and folder faults lose nothing (ARCHITECTURE §7)")
struct FaultTests {
    @Test(
        "a crash at each step of publication, then a restart: B gets every note once",
        arguments: FileIOStep.publication, FolderKind.allCases
    )
    func crashDuringPublication(_ step: FileIOStep, _ kind: FolderKind) async throws {
        let (folder, io, a, b) = try await TestFolder.memoryPair(kind)
        let note = try a.store.create(title: "survives", body: "crash test\n")
        io.crash(at: step, pathContains: "/log/")
        let crashed = await a.engine.syncNow()
        #expect(crashed.error != nil)
        io.restart()
        // A new process over the same store: the in-flight batch is published again.
        let restarted = try SyncEngine(
            store: a.store, configuration: SyncEngine.Configuration(folder: folder, now: { a.clock.date }))
        let summary = await restarted.syncNow()
        #expect(summary.error == nil, "\(step): \(String(describing: summary.error))")
        #expect(try a.store.pendingCount() == 0)
        _ = await b.sync()
        #expect(try b.store.note(note.id)?.body == "crash test\n")
        let logFiles = io.allPaths().filter { $0.contains("/log/\(a.store.deviceID)/") && $0.hasSuffix(".json") }
        #expect(logFiles.allSatisfy { !$0.contains(".tmp-") }, "\(step): temp files left: \(logFiles)")
        #expect(try b.store.history(note.id).count == 1)
    }

    @Test(
        "power loss after a publication that was not yet durable: republished, nothing lost",
        arguments: FolderKind.allCases)
    func powerLoss(_ kind: FolderKind) async throws {
        let (folder, io, a, b) = try await TestFolder.memoryPair(kind)
        let note = try a.store.create(title: "durable", body: "x\n")
        io.crash(at: .fsyncDirectory, pathContains: "/log/")
        _ = await a.engine.syncNow()
        io.powerLoss()
        let restarted = try SyncEngine(
            store: a.store, configuration: SyncEngine.Configuration(folder: folder, now: { a.clock.date }))
        #expect(await restarted.syncNow().error == nil)
        _ = await b.sync()
        #expect(try b.store.note(note.id)?.body == "x\n")
    }

    @Test(
        "a crash inside the fetch transaction: rolled back, fetched again, applied once",
        arguments: [FolderBackend.memory, .s3], FolderKind.allCases
    )
    func crashInsideFetch(_ backend: FolderBackend, _ kind: FolderKind) async throws {
        let folder = try await backend.folder(kind)
        let a = try TestDevice("a", folder: folder)
        let note = try a.store.create(title: "once", body: "x\n")
        _ = await a.sync()
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("crash-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try NoteStore(directory: directory)
        let failing = FailingApplyStore(base: store)
        let first = try SyncEngine(store: failing, configuration: SyncEngine.Configuration(folder: folder))
        #expect(await first.syncNow().error != nil)
        #expect(try store.note(note.id) == nil)
        #expect(try store.engineState().map(SyncEngineState.init(serialized:))?.zones.isEmpty ?? true)
        let second = try SyncEngine(store: store, configuration: SyncEngine.Configuration(folder: folder))
        #expect(await second.syncNow().error == nil)
        #expect(try store.note(note.id)?.body == "x\n")
        #expect(try store.history(note.id).count == 1)
        let again = await second.syncNow()
        #expect(again.fetched.received == 0)
    }

    /// `source` imports and publishes `notes`; then a new device's store, in a new directory
    /// (the caller removes it), and its engine over a `FailingApplyStore`, before any sync.
    static func newDevice(after source: TestDevice, published notes: [Note], folder: any CloudFolder) async throws -> (
        directory: URL, store: NoteStore, spy: FailingApplyStore, engine: SyncEngine
    ) {
        _ = try source.store.importNotes(notes)
        _ = await source.sync()
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("first-\(UUID().uuidString)")
        let store = try NoteStore(directory: directory)
        let spy = FailingApplyStore(base: store)
        return (
            directory, store, spy, try SyncEngine(store: spy, configuration: SyncEngine.Configuration(folder: folder))
        )
    }

    /// A new device's first sync defers the store's indexes for its large groups and builds
    /// them when the fetch ends, also when it fails; a later fetch of a few changes defers nothing.
    @Test func aFirstSyncDefersTheIndexesAndRestoresThemHoweverItEnds() async throws {
        let folder = TestFolder.memory().0
        let a = try TestDevice("a", folder: folder)
        let (directory, store, failing, engine) = try await Self.newDevice(
            after: a, published: (0..<1_200).map { Note(title: "note \($0)", body: "body \($0)") }, folder: folder)
        defer { try? FileManager.default.removeItem(at: directory) }
        #expect(await engine.syncNow().error != nil)
        #expect(failing.calls.first == "defer true" && failing.calls.last == "restore", "\(failing.calls)")
        #expect(try store.count(.all) == 0)
        failing.calls = []
        #expect(await engine.syncNow().error == nil)
        #expect(failing.calls.first == "defer true" && failing.calls.last == "restore", "\(failing.calls)")
        #expect(failing.calls.filter { $0 == "restore" }.count == 1, "\(failing.calls)")
        #expect(try store.count(.all) == 1_200)
        #expect(try store.resolve("note 777").body == "body 777")
        #expect(try store.search(SearchQuery(parsing: "note 1199"), limit: 5).hits.map(\.note.title) == ["note 1199"])
        _ = try a.store.create(title: "later", body: "one more")
        _ = await a.sync()
        failing.calls = []
        #expect(await engine.syncNow().error == nil)
        #expect(failing.calls == ["apply 1"], "\(failing.calls)")
        #expect(try store.count(.all) == 1_201)
    }

    /// A first sync of more notes than one group: the next group is read, and its new notes'
    /// search text made, while the group before is applied (`SyncStore.prepareFetched` on the
    /// reading thread); what the store was given ahead is what the apply of that group uses, and
    /// the new device searches as the device that made the notes, the first apply having failed
    /// and been done again.
    @Test func groupsReadAheadAreAppliedWithTheirSearchTextMadeAhead() async throws {
        let folder = TestFolder.memory().0
        let a = try TestDevice("a", folder: folder)
        let words = ["alpha", "beta", "gamma", "delta", "東京", "café"]
        let notes = (0..<3_200).map { index in
            Note(
                title: "note \(index)", body: "body \(index) \(words[index % 6]) \(words[index % 5])",
                modifiedAt: Date(timeIntervalSince1970: 1_700_000_000 + Double(index / 3)))
        }
        let (directory, store, spy, engine) = try await Self.newDevice(after: a, published: notes, folder: folder)
        defer { try? FileManager.default.removeItem(at: directory) }
        // The failed pass read ahead too (its read may end after the pass did, and is dropped).
        #expect(await engine.syncNow().error != nil)
        #expect(await engine.syncNow().error == nil)
        let prepared = spy.prepared.withLock { $0 }
        #expect(Set(prepared) == ["prepare 1200 made", "apply 1200 with it"], "\(prepared) \(spy.calls)")
        #expect(prepared.filter { $0.hasPrefix("apply") }.count == 1, "\(prepared)")
        #expect(try store.count(.all) == 3_200)
        for query in ["alpha", "gamma delta", "東京", "cafe", "note 3199", "body 2999"] {
            let here = try store.search(SearchQuery(parsing: query), limit: 4_000).hits.map(\.note.id)
            let there = try a.store.search(SearchQuery(parsing: query), limit: 4_000).hits.map(\.note.id)
            #expect(!here.isEmpty && here == there, "\(query)")
        }
    }

    /// A store in a new directory (the caller removes it) holding `count` notes to publish, and a
    /// `FailingApplyStore` over it that does not fail.
    static func storeToPublish(_ count: Int) throws -> (directory: URL, store: NoteStore, spy: FailingApplyStore) {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("publish-\(UUID().uuidString)")
        let store = try NoteStore(directory: directory)
        _ = try store.importNotes((0..<count).map { Note(title: "note \($0)", body: "body \($0)") })
        let spy = FailingApplyStore(base: store)
        spy.failed = true
        return (directory, store, spy)
    }

    /// While a pass publishes notes in many log files, the status tells how many changes are
    /// left after each one, from the count the pass began with, not a count of the outbox read
    /// again per file (a scan of it: a fifth of the publishing thread at 100k notes); the pass
    /// ends with a real count.
    @Test func aPublishTellsWhatIsLeftWithoutCountingTheOutboxPerLogFile() async throws {
        let folder = TestFolder.memory().0
        let (directory, _, spy) = try Self.storeToPublish(3_000)
        defer { try? FileManager.default.removeItem(at: directory) }
        let seen = Mutex<[SyncStatus]>([])
        var configuration = SyncEngine.Configuration(folder: folder)
        configuration.onStatus = { status in seen.withLock { $0.append(status) } }
        let engine = try SyncEngine(store: spy, configuration: configuration)
        let summary = await engine.syncNow()
        #expect(summary.error == nil && summary.sent.batches == 8)
        let progress = seen.withLock { $0 }.compactMap { status -> (done: Int, pending: Int)? in
            guard case .syncing(let done, let total) = status.phase, total == 3_000, done > 0 else { return nil }
            return (done, status.pendingCount)
        }
        #expect(progress.map(\.done) == [400, 800, 1_200, 1_600, 2_000, 2_400, 2_800, 3_000])
        #expect(progress.allSatisfy { $0.pending == 3_000 - $0.done }, "\(progress)")
        #expect(spy.pendingCounts.withLock { $0 } <= 5, "counted per log file")
        #expect(summary.pending == 0)
        #expect(seen.withLock { $0.last?.pendingCount } == 0)
    }

    /// A note saved while a pass publishes, after the pass read the last of the pending
    /// changes (read ahead while the batch before was published), still goes out in that pass:
    /// an empty read ahead is read again before the pass ends.
    @Test func aNoteSavedWhileAPassPublishesGoesOutInThatPass() async throws {
        let folder = TestFolder.memory().0
        let (directory, store, typing) = try Self.storeToPublish(450)
        defer { try? FileManager.default.removeItem(at: directory) }
        // Reads never overlap (the next starts after the one before returned), so the note's
        // existence says whether it was typed.
        typing.afterPendingRead = { rows in
            guard rows == 0, (try? store.resolve("typed")) == nil else { return }
            _ = try store.create(title: "typed", body: "while the pass published")
        }
        let engine = try SyncEngine(store: typing, configuration: SyncEngine.Configuration(folder: folder))
        #expect(await engine.syncNow().error == nil)
        #expect(try store.pendingCount() == 0)
        let b = try TestDevice("b", folder: folder)
        _ = await b.sync()
        #expect(try b.store.count(.all) == 451)
        #expect(try b.store.resolve("typed").body == "while the pass published")
    }

    /// An error type of some library that describes itself only as a Swift value.
    struct OpaqueStoreError: Error { var internalCode = 42 }

    @Test("a store failing with an error of unknown type: the status and the saved last error are sentences, no dump")
    func opaqueErrorIsASentence() async throws {
        let folder = TestFolder.memory().0
        let a = try TestDevice("a", folder: folder)
        _ = try a.store.create(title: "once", body: "x\n")
        _ = await a.sync()
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("opaque-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try NoteStore(directory: directory)
        let engine = try SyncEngine(
            store: FailingApplyStore(base: store, failure: OpaqueStoreError()),
            configuration: SyncEngine.Configuration(folder: folder))
        let message = try #require(await engine.syncNow().error?.message)
        let saved = try #require(try store.engineState().map(SyncEngineState.init(serialized:))?.lastError?.message)
        for text in [message, saved, "\(await engine.status.phase)"] {
            #expect(!text.contains("OpaqueStoreError") && !text.contains("internalCode"), "\(text)")
        }
        #expect(message.contains("an unexpected error"), "\(message)")
    }

    @Test("the folder removed, or unmounted (an empty folder in its place): offline, nothing created, changes wait")
    func folderGone() async throws {
        let folder = try TestFolder.disk()
        let root = folder.layout.root
        let a = try TestDevice("a", folder: folder)
        let b = try TestDevice("b", folder: folder)
        try await quiesce([a, b])
        let note = try a.store.create(title: "waits", body: "x\n")
        try FileManager.default.moveItem(atPath: root, toPath: root + ".away")
        let removed = await a.engine.syncNow()
        #expect(removed.error != nil)
        guard case .temporarilyUnavailable = await a.engine.accountStatus else {
            Issue.record("account status is \(await a.engine.accountStatus)")
            return
        }
        guard case .offline(let reason) = await a.engine.status.phase else {
            Issue.record("status is \(await a.engine.status)")
            return
        }
        #expect(reason.contains("1 change(s) wait"))
        #expect(!FileManager.default.fileExists(atPath: root))
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: false)
        #expect(await a.engine.syncNow().error != nil)
        #expect(try FileManager.default.contentsOfDirectory(atPath: root).isEmpty)
        #expect(try a.store.pendingCount() == 1)
        try FileManager.default.removeItem(atPath: root)
        try FileManager.default.moveItem(atPath: root + ".away", toPath: root)
        _ = await a.sync()
        _ = await b.sync()
        #expect(try b.store.note(note.id) != nil)
        try? FileManager.default.removeItem(atPath: root)
    }

    @Test(
        "a read-only or full folder: status says so, changes wait and go out when it recovers",
        arguments: [EROFS, ENOSPC])
    func readOnlyOrFull(_ number: Int32) async throws {
        let (_, io, a, b) = try await TestFolder.memoryPair()
        let note = try a.store.create(title: "later", body: "x\n")
        io.fail(number == EROFS ? .createExclusive : .write, errno: number, times: 1000)
        #expect(await a.engine.syncNow().error != nil)
        let status = await a.engine.status
        if number == EROFS {
            guard case .restricted = await a.engine.accountStatus, case .offline(let reason) = status.phase else {
                Issue.record("status is \(status)")
                return
            }
            #expect(reason.contains("read-only"))
        } else {
            guard case .error(let message) = status.phase else {
                Issue.record("status is \(status)")
                return
            }
            #expect(message.contains("full"))
        }
        #expect(status.pendingCount == 1)
        io.clearFaults()
        _ = await a.sync()
        _ = await b.sync()
        #expect(try b.store.note(note.id) != nil)
        #expect(io.allPaths().filter { $0.contains(".tmp-") }.isEmpty)
    }

    @Test("a note over 1 MB stays local with limitExceeded; the other notes sync")
    func overLimit() async throws {
        let (folder, _) = TestFolder.memory()
        let a = try TestDevice("a", folder: folder)
        let b = try TestDevice("b", folder: folder)
        let big = try a.store.create(title: "big", body: String(repeating: "0123456789abcdef\n", count: 70_000))
        let small = try a.store.create(title: "small", body: "fits\n")
        let summary = await a.sync()
        #expect(summary.sent.failed.map(\.recordID) == [big.id])
        #expect(summary.sent.failed.first?.error.code == .limitExceeded)
        #expect(await a.engine.limitExceeded[big.id]?.contains("1 MB") == true)
        #expect(await a.engine.report().limitExceeded.count == 1)
        _ = await b.sync()
        #expect(try b.store.note(small.id) != nil)
        #expect(try b.store.note(big.id) == nil)
        #expect(try a.store.pendingCount() == 1)
        #expect(try b.store.bufferedRevisionCount() == 0)
    }

    @Test("clock skew of a day: a device stamped in the future is a warning, not a dragged clock; they converge")
    func clockSkew() async throws {
        let (folder, _) = TestFolder.memory()
        let a = try TestDevice("a", folder: folder)
        let future = TestClock(1_700_000_000_000 + 25 * 3600 * 1000)
        let b = try TestDevice("b", folder: folder, clock: future)
        let note = try a.store.create(title: "skew", body: "one\ntwo\n")
        try await quiesce([a, b])
        _ = try b.store.update(note.id) { $0.body = "one\ntwo\nfrom the future\n" }
        _ = try a.store.update(note.id) { $0.title = "renamed" }
        try await quiesce([a, b])
        #expect(await a.engine.warnings.contains { $0.contains("clock skew") })
        let after = try a.store.update(note.id) { $0.body += "now\n" }
        let stamp = try #require(try a.store.history(note.id).first { $0.id == after.headRev }).hlc
        #expect(stamp.millis < future.date.millisecondsSince1970)
        try await quiesce([a, b])
        #expect(try b.store.note(note.id)?.body == "one\ntwo\nfrom the future\nnow\n")
    }
}

/// A store whose fetch transaction fails (rolls back) the first time. It names the calls that
/// defer and restore the store's indexes, in order (`calls`), and the groups the engine had it
/// prepare ahead, on the thread that reads them (`prepared`). `afterPendingRead` runs after
/// each read of pending changes with what it read (the engine may read ahead on another thread).
final class FailingApplyStore: SyncStore, @unchecked Sendable {
    let base: NoteStore
    let failure: any Error
    var failed = false
    var calls: [String] = []
    let prepared = Mutex<[String]>([])
    /// How many times the pending changes were counted.
    let pendingCounts = Mutex(0)
    var afterPendingRead: (@Sendable (_ rows: Int) throws -> Void)?

    init(
        base: NoteStore, failure: any Error = CloudError(.internalError, "simulated crash inside the fetch transaction")
    ) {
        self.base = base
        self.failure = failure
    }

    var deviceID: String { base.deviceID }
    func pendingRecordZoneChanges(after outboxSeq: Int64, limit: Int) throws -> [(
        outboxSeq: Int64, zone: String, revision: Revision
    )] {
        let rows = try base.pendingRecordZoneChanges(after: outboxSeq, limit: limit)
        try afterPendingRead?(rows.count)
        return rows
    }
    func pendingCount() throws -> Int {
        pendingCounts.withLock { $0 += 1 }
        return try base.pendingCount()
    }
    func markSent(outboxSeqs: [Int64], engineState: String) throws {
        try base.markSent(outboxSeqs: outboxSeqs, engineState: engineState)
    }
    func engineState() throws -> String? { try base.engineState() }
    func saveEngineState(_ state: String) throws { try base.saveEngineState(state) }
    func bindCloudFolder(_ path: String, engineState: String) throws {
        try base.bindCloudFolder(path, engineState: engineState)
    }
    func conflictCount() throws -> Int { try base.conflictCount() }
    func revisionPresence(_ ids: [String]) throws -> (known: Set<String>, awaited: Set<String>) {
        try base.revisionPresence(ids)
    }
    func requeueZone(_ zone: String) throws -> Int { try base.requeueZone(zone) }
    func trashZone(_ zone: String) throws -> Int { try base.trashZone(zone) }
    func snapshotRevisions(zone: String) throws -> [Revision] { try base.snapshotRevisions(zone: zone) }
    func makeDurable() throws { try base.makeDurable() }
    func supersedeUnpublishable(_ recordID: UUID, isPublishable: (Revision) -> Bool) throws -> Revision? {
        try base.supersedeUnpublishable(recordID, isPublishable: isPublishable)
    }
    func rotateDeviceID(from old: String, to new: String, engineState: String) throws -> Int {
        try base.rotateDeviceID(from: old, to: new, engineState: engineState)
    }
    func deferIndexesForFirstSync() throws -> Bool {
        let deferred = try base.deferIndexesForFirstSync()
        calls.append("defer \(deferred)")
        return deferred
    }
    func restoreDeferredIndexes() throws {
        calls.append("restore")
        try base.restoreDeferredIndexes()
    }
    func prepareFetched(_ revisions: [Revision]) -> (any Sendable)? {
        let made = base.prepareFetched(revisions)
        prepared.withLock { $0.append("prepare \(revisions.count)\(made == nil ? "" : " made")") }
        return made
    }
    func applyFetchedRevisions(
        _ revisions: [Revision], engineState: String,
        resolve: (_ heads: [Revision], _ history: RevisionHistory) -> (merged: Revision?, conflict: Bool)
    ) throws -> (changed: [UUID], buffered: Int, merged: Int, clockSkew: Int) {
        try applyFetchedRevisions(revisions, prepared: nil, engineState: engineState, resolve: resolve)
    }
    func applyFetchedRevisions(
        _ revisions: [Revision], prepared made: (any Sendable)?, engineState: String,
        resolve: (_ heads: [Revision], _ history: RevisionHistory) -> (merged: Revision?, conflict: Bool)
    ) throws -> (changed: [UUID], buffered: Int, merged: Int, clockSkew: Int) {
        calls.append("apply \(revisions.count)")
        if made != nil { prepared.withLock { $0.append("apply \(revisions.count) with it") } }
        if !failed {
            failed = true
            throw failure
        }
        return try base.applyFetchedRevisions(revisions, prepared: made, engineState: engineState, resolve: resolve)
    }
}
