import CloudFolder
import Foundation
import NotesCore
import NotesStore
import NotesSync
import NotesTestSupport
import Testing

/// Snapshots and compaction (SYNC-FORMAT rule 11), checked against §7's oracle: nothing a device
/// acknowledged is lost, every device converges byte for byte with the same revision ids.
@Suite("Snapshots and compaction (SYNC-FORMAT rule 11)")
struct CompactionTests {
    static let zone = ZoneID("notes")!
    static let minute: Int64 = 60_000
    static let day: Int64 = 86_400_000

    /// Every log file of a device in the in-memory folder, by seq.
    static func logFiles(_ io: InMemoryFileIO, of device: DeviceID) -> [Int64: [UInt8]] {
        var files: [Int64: [UInt8]] = [:]
        for path in io.allPaths() where path.contains("/log/\(device)/") {
            let name = String(path[path.index(after: path.lastIndex(of: "/")!)...])
            if let seq = CloudName.logFile(name), let bytes = io.contents(path) { files[seq] = bytes }
        }
        return files
    }

    /// Every file of the folder that is not under `device`'s name, with its bytes.
    static func filesNotOf(_ folder: DirectoryCloudFolder, _ device: DeviceID) throws -> [String: [UInt8]] {
        try folder.allFiles().filter { !$0.key.contains("/\(device)") }
    }

    static func advance(_ devices: [TestDevice], by ms: Int64) {
        for device in devices { device.clock.advance(by: ms) }
    }

    /// Syncs each device once, a minute apart, so each rewrites its device file (acknowledgements).
    static func syncRound(_ devices: [TestDevice], sourceLocation: SourceLocation = #_sourceLocation) async {
        for device in devices {
            advance(devices, by: minute + 1)
            await device.sync(sourceLocation: sourceLocation)
        }
    }

    /// Devices "a", "b", … over one in-memory folder.
    static func memoryDevices(_ count: Int, _ kind: FolderKind = .plain) throws -> (
        DirectoryCloudFolder, InMemoryFileIO, [TestDevice]
    ) {
        let (folder, io) = TestFolder.memory(encrypted: kind == .encrypted)
        let names = ["a", "b", "c", "d"].prefix(count)
        return (folder, io, try names.map { try TestDevice($0, folder: folder) })
    }

    /// One device that published `files` log files (a note each) and wrote a snapshot a day ago.
    static func aloneWithADayOldSnapshot(files: Int, _ kind: FolderKind = .plain) async throws -> (
        DirectoryCloudFolder, InMemoryFileIO, TestDevice
    ) {
        let (folder, io, devices) = try memoryDevices(1, kind)
        let a = devices[0]
        for n in 0..<files {
            _ = try a.store.create(title: "n\(n)", body: "\(n)\n")
            await syncRound([a])
        }
        _ = try await a.engine.compact()
        advance([a], by: day + minute)
        return (folder, io, a)
    }

    @Test(
        "compaction, then a device returns with pending edits: token expired, snapshot loaded, edits merged, all converge",
        arguments: [FolderBackend.memory, .s3], FolderKind.allCases
    )
    func returningDeviceWithPendingEdits(_ backend: FolderBackend, _ kind: FolderKind) async throws {
        let (folder, all) = try await backend.devices(3, kind)
        let (a, b, c) = (all[0], all[1], all[2])
        let shared = try a.store.create(title: "shared", body: "l1\nl2\nl3\nl4\nl5\n")
        try await quiesce(all)
        // C goes offline with edits: one to the shared note, one new note.
        _ = try c.store.update(shared.id) { $0.body = $0.body.replacingOccurrences(of: "l5\n", with: "l5 from c\n") }
        let offline = try c.store.create(title: "written offline on c", body: "c was away\n")
        var ledger = ["l5 from c"]
        // A and B keep working and syncing; A edits the shared note, B writes notes of its own.
        for round in 0..<6 {
            Self.advance([a, b], by: 3_600_000)
            _ = try a.store.update(shared.id) { $0.body = "a\(round)\n" + $0.body }
            ledger.append("a\(round)")
            let note = try b.store.create(title: "b\(round)", body: "from b \(round)\n")
            _ = try b.store.update(note.id) { $0.body += "edited\n" }
            await Self.syncRound([a, b])
        }
        // A month later C is no longer an active device; A and B compact their own logs.
        Self.advance([a, b], by: 31 * Self.day)
        await Self.syncRound([a, b, a, b])
        let firstA = try await a.engine.compact()
        #expect(firstA.zones[Self.zone]?.snapshotSeq != nil)
        #expect(firstA.zones[Self.zone]?.deleted == 0, "deleted before the snapshot was visible for a day")
        _ = try await b.engine.compact()
        Self.advance([a, b], by: Self.day + Self.minute)
        _ = try a.store.update(shared.id) { $0.title = "shared, renamed on a" }
        await Self.syncRound([a, b, a, b])
        let secondA = try await a.engine.compact()
        let secondB = try await b.engine.compact()
        let deviceA = await a.engine.device
        let deviceB = await b.engine.device
        #expect((secondA.zones[Self.zone]?.deleted ?? 0) > 0, "\(secondA)")
        #expect((secondB.zones[Self.zone]?.deleted ?? 0) > 0, "\(secondB)")
        #expect(try folder.logFiles(of: deviceA)[1] == nil)
        #expect(try folder.logFiles(of: deviceB)[1] == nil)

        // C comes back: its token points at deleted files.
        c.clock.advance(by: 32 * Self.day)
        let back = await c.sync()
        #expect(back.fetched.snapshotsLoaded >= 1)
        #expect(await c.engine.warnings.contains { $0.contains("changeTokenExpired") })
        // A device that joins now starts from the snapshots too.
        let d = try TestDevice("d", folder: folder, clock: TestClock(c.clock.date.millisecondsSince1970))
        try await quiesce(all + [d])
        let histories = try (all + [d]).map { Set(try $0.store.history(shared.id).map(\.id)) }
        for (device, history) in zip(all + [d], histories) {
            #expect(history == histories[0], "\(device.name) holds other revisions of the shared note")
            let body = try #require(try device.store.note(shared.id)).body
            for text in ledger { #expect(body.contains(text), "\(text) lost on \(device.name): \(body)") }
            #expect(try device.store.note(offline.id)?.body == "c was away\n", "\(device.name)")
            #expect(try device.store.pendingCount() == 0, "\(device.name)")
            #expect(try device.store.bufferedRevisionCount() == 0, "\(device.name)")
        }
        #expect(try d.store.list(ListRequest(section: .all, limit: 100)).count == 8)
    }

    @Test(
        "a device deletes only its own log files: every other device's file keeps its bytes",
        arguments: [FolderBackend.memory, .s3])
    func neverAnotherDevicesFiles(_ backend: FolderBackend) async throws {
        let (folder, devices) = try await backend.devices(2)
        let (a, b) = (devices[0], devices[1])
        for n in 0..<5 {
            _ = try a.store.create(title: "a\(n)", body: "x\n")
            _ = try b.store.create(title: "b\(n)", body: "y\n")
            await Self.syncRound([a, b])
        }
        _ = try await b.engine.compact()
        let deviceA = await a.engine.device
        let published = await a.engine.state.zones[Self.zone]?.published ?? 0
        let before = try Self.filesNotOf(folder, deviceA)
        _ = try await a.engine.compact()
        Self.advance([a, b], by: Self.day + Self.minute)
        await Self.syncRound([b, a])
        let summary = try await a.engine.compact()
        #expect(summary.zones[Self.zone]?.prunedThrough == published - 1, "\(summary)")
        // Everything not of A is unchanged, byte for byte (B's log and snapshot included), but
        // B's device file, the one file B rewrites when it syncs.
        let after = try Self.filesNotOf(folder, deviceA)
        for (path, bytes) in before where !path.contains("/devices/") {
            #expect(after[path] == bytes, "\(path) changed or vanished")
        }
        // A's own log: the files through the floor are gone, the last one stays.
        let own = try folder.logFiles(of: deviceA)
        #expect(own.keys.sorted() == [published], "A's log holds \(own.keys.sorted())")
    }

    @Test("nothing an active device has not acknowledged is deleted, nor before the snapshot is a day old")
    func onlyWhatActiveDevicesAcknowledged() async throws {
        let (_, io, devices) = try Self.memoryDevices(2)
        let (a, b) = (devices[0], devices[1])
        _ = try a.store.create(title: "first", body: "1\n")
        await Self.syncRound([a, b])
        let deviceA = await a.engine.device
        let acknowledged = await b.engine.state.zones[Self.zone]?.token[deviceA] ?? 0
        #expect(acknowledged >= 1)
        // A goes on alone; B stays active (seen within the month) but reads nothing more.
        for n in 0..<4 {
            Self.advance([a], by: Self.minute + 1)
            _ = try a.store.create(title: "later \(n)", body: "\(n)\n")
            await a.sync()
        }
        let published = await a.engine.state.zones[Self.zone]?.published ?? 0
        let early = try await a.engine.compact()
        #expect(early.zones[Self.zone]?.deleted == 0)
        #expect(early.zones[Self.zone]?.waiting?.contains("min") == true, "\(early)")
        Self.advance([a, b], by: Self.day)
        let held = try await a.engine.compact()
        #expect(held.zones[Self.zone]?.prunedThrough == acknowledged, "\(held)")
        #expect(held.zones[Self.zone]?.waiting?.contains(b.store.deviceID) == true, "\(held)")
        #expect(Self.logFiles(io, of: deviceA).keys.sorted() == Array((acknowledged + 1)...published))
        // B reads on (no expiry: nothing it needed was gone), acknowledges, then A deletes more.
        let read = await b.sync()
        #expect(read.fetched.snapshotsLoaded == 0)
        await Self.syncRound([b, a])
        let freed = try await a.engine.compact()
        #expect(freed.zones[Self.zone]?.prunedThrough == published - 1, "\(freed)")
        try await quiesce([a, b])
    }

    @Test("an unmounted folder (container.json gone): compaction deletes nothing; afterwards it proceeds")
    func unmountedFolderDeletesNothing() async throws {
        let (folder, io, a) = try await Self.aloneWithADayOldSnapshot(files: 3)
        let container = try #require(io.contents(folder.layout.containerFile))
        try io.remove(folder.layout.containerFile)
        let paths = io.allPaths()
        await #expect(throws: CloudError.self) { try await a.engine.compact() }
        #expect(io.allPaths() == paths)
        io.plantFile(folder.layout.containerFile, container)
        let summary = try await a.engine.compact()
        #expect((summary.zones[Self.zone]?.deleted ?? 0) > 0, "\(summary)")
    }

    @Test(
        "a crash while compaction deletes: a restart finishes the deletion, a new device converges",
        arguments: FolderKind.allCases)
    func crashWhileDeleting(_ kind: FolderKind) async throws {
        let (folder, io, a) = try await Self.aloneWithADayOldSnapshot(files: 5, kind)
        io.crash(at: .remove, occurrence: 2)
        await #expect(throws: InMemoryFileIO.SimulatedCrash.self) { try await a.engine.compact() }
        io.restart()
        let deviceA = await a.engine.device
        #expect(Self.logFiles(io, of: deviceA).keys.sorted() == [2, 3, 4, 5])
        let restarted = try SyncEngine(
            store: a.store, configuration: SyncEngine.Configuration(folder: folder, now: { a.clock.date }))
        let summary = try await restarted.compact()
        #expect(summary.zones[Self.zone]?.prunedThrough == 4, "\(summary)")
        #expect(Self.logFiles(io, of: deviceA).keys.sorted() == [5])
        let c = try TestDevice("c", folder: folder, clock: TestClock(a.clock.date.millisecondsSince1970))
        let joined = await c.sync()
        #expect(joined.fetched.snapshotsLoaded == 1)
        #expect(try c.store.list(ListRequest(section: .all, limit: 100)).count == 5)
        try await quiesce([a, c])
    }

    @Test(
        "an old device file and a deleted log file replayed into the folder: nothing rolls back, a new device converges"
    )
    func replayedFilesRollNothingBack() async throws {
        let (folder, io, devices) = try Self.memoryDevices(2)
        let (a, b) = (devices[0], devices[1])
        let note = try a.store.create(title: "note", body: "v0\n")
        await Self.syncRound([a, b])
        let deviceA = await a.engine.device
        let oldDeviceFile = try #require(io.contents(folder.layout.deviceFile(deviceA)))
        let firstLogFile = try #require(Self.logFiles(io, of: deviceA)[1])
        for n in 1...3 {
            _ = try a.store.update(note.id) { $0.body = "v\(n)\n" }
            await Self.syncRound([a, b])
        }
        _ = try await a.engine.compact()
        Self.advance([a, b], by: Self.day + Self.minute)
        await Self.syncRound([b, a])
        _ = try await a.engine.compact()
        #expect(Self.logFiles(io, of: deviceA)[1] == nil)
        // A replicator restores an old device file (no pruned floor) and a deleted log file.
        io.plantFile(folder.layout.deviceFile(deviceA), oldDeviceFile)
        io.plantFile(folder.layout.logFile(Self.zone, device: deviceA, seq: 1), firstLogFile)
        // A rewrites its device file at its next sync (a minute later), announcing its floor again.
        Self.advance([a, b], by: Self.minute + 1)
        try await quiesce([a, b])
        #expect(try b.store.note(note.id)?.body == "v3\n")
        let c = try TestDevice("c", folder: folder, clock: TestClock(a.clock.date.millisecondsSince1970))
        try await quiesce([a, b, c])
        #expect(try c.store.note(note.id)?.body == "v3\n")
    }
}
