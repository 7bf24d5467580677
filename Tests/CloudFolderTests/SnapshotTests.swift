import NotesCore
import Testing

@testable import CloudFolder

/// Snapshot files of SYNC-FORMAT rule 11: write-once, self-checking, listed by name.
@Suite struct SnapshotTests {
    let zone = Fixtures.zone
    let a = Fixtures.deviceA
    let b = Fixtures.deviceB

    @Test(arguments: Backend.allCases)
    func aSnapshotRoundTripsAndIsWriteOnce(backend: Backend) throws {
        let fixture = FolderFixture(backend)
        let folder: any CloudFolder = try fixture.prepared()
        let snapshot = Snapshot(
            device: a, seq: 12, hlc: Fixtures.hlc, covers: ChangeToken([a: 12, b: 3]),
            state: .object(["heads": .array([.string("r1")])]))
        #expect(try folder.publishSnapshot(snapshot, zone: zone) == .published)
        #expect(try folder.publishSnapshot(snapshot, zone: zone) == .alreadyPublished)
        var changed = snapshot
        changed.state = .object([:])
        #expect(throws: CloudError.self) { try folder.publishSnapshot(changed, zone: zone) }
        #expect(try folder.readSnapshot(zone: zone, device: a, seq: 12) == snapshot)
        #expect(try folder.readSnapshot(zone: zone, device: a, seq: 13) == nil)
    }

    @Test(arguments: Backend.allCases)
    func snapshotsAreListedOldestFirstAndJunkIsIgnored(backend: Backend) throws {
        let fixture = FolderFixture(backend)
        let folder = try fixture.prepared()
        for (device, seq) in [(a, Int64(20)), (b, 5), (a, 7)] {
            let snapshot = Snapshot(device: device, seq: seq, hlc: Fixtures.hlc, covers: .empty, state: .null)
            _ = try folder.publishSnapshot(snapshot, zone: zone)
        }
        try fixture.plant(fixture.layout.snapshotsDirectory(zone) + "/.DS_Store", [0])
        let listing = try folder.snapshots(zone: zone)
        #expect(listing.items.map(\.seq) == [5, 7, 20])
        #expect(listing.ignored == [".DS_Store"])
    }

    @Test(arguments: Backend.allCases)
    func aSnapshotAtAnotherDevicesNameDoesNotCheckOut(backend: Backend) throws {
        let fixture = FolderFixture(backend)
        let folder = try fixture.prepared()
        let snapshot = Snapshot(device: a, seq: 1, hlc: Fixtures.hlc, covers: .empty, state: .null)
        try fixture.plant(fixture.layout.snapshotFile(zone, device: b, seq: 1), snapshot.envelope(zone: zone).encoded)
        #expect(try folder.readSnapshot(zone: zone, device: b, seq: 1) == nil)
    }

    /// Device a's log 1…5 and b's 1…3, published.
    func publishedLogs(_ fixture: FolderFixture) throws -> DirectoryCloudFolder {
        let folder = try fixture.prepared()
        for seq in Int64(1)...5 {
            _ = try folder.publish(Fixtures.batch([Int(seq)]), zone: zone, device: a, seq: seq, hlc: Fixtures.hlc)
        }
        for seq in Int64(1)...3 {
            _ = try folder.publish(Fixtures.batch([10 + Int(seq)]), zone: zone, device: b, seq: seq, hlc: Fixtures.hlc)
        }
        return folder
    }

    @Test(arguments: Backend.allCases)
    func compactionRemovesOnlyTheCallersOwnRegularLogFiles(backend: Backend) throws {
        let fixture = FolderFixture(backend)
        let folder = try publishedLogs(fixture)
        let others = fixture.allPaths().filter { !$0.contains("log/\(a)/") }.map {
            ($0, fixture.contents(fixture.root + "/" + $0))
        }
        // A symlink planted where a's log file 6 would be is not a's file: it stays.
        try fixture.plantSymlink(fixture.layout.logFile(zone, device: a, seq: 6), to: fixture.root + "/container.json")
        #expect(try folder.removeOwnLogFiles(zone: zone, device: a, seqs: 1...6) == 5)
        #expect(try folder.removeOwnLogFiles(zone: zone, device: a, seqs: 1...6) == 0)
        for (path, bytes) in others {
            #expect(fixture.contents(fixture.root + "/" + path) == bytes, "\(path)")
        }
        #expect(try fixture.io.kind(fixture.layout.logFile(zone, device: a, seq: 6)) == .symlink)
        #expect(try folder.fetchChanges(zone: zone, since: .empty).batches.map(\.device) == [b, b, b])
    }

    @Test(arguments: Backend.allCases)
    func compactionDeletesNothingInAFolderWithoutItsContainer(backend: Backend) throws {
        let fixture = FolderFixture(backend)
        let folder = try publishedLogs(fixture)
        try fixture.io.remove(fixture.layout.containerFile)
        let before = fixture.allPaths()
        #expect {
            try folder.removeOwnLogFiles(zone: zone, device: a, seqs: 1...3)
        } throws: { ($0 as? CloudError)?.code == .accountTemporarilyUnavailable }
        #expect(fixture.allPaths() == before)
    }

    @Test(arguments: Backend.allCases)
    func aFetchPastACompactedLogReportsTheTokenExpired(backend: Backend) throws {
        let fixture = FolderFixture(backend)
        let folder = try publishedLogs(fixture)
        // Without a snapshot of a's own beyond the token, missing files are a gap: waited for.
        _ = try folder.removeOwnLogFiles(zone: zone, device: a, seqs: 1...3)
        let other = Snapshot(device: b, seq: 3, hlc: Fixtures.hlc, covers: ChangeToken([a: 5, b: 3]), state: .null)
        _ = try folder.publishSnapshot(other, zone: zone)
        let gap = try folder.fetchChanges(zone: zone, since: ChangeToken([a: 1]))
        #expect(gap.expired.isEmpty)
        #expect(gap.token[a] == 1)
        let own = Snapshot(device: a, seq: 3, hlc: Fixtures.hlc, covers: ChangeToken([a: 3]), state: .null)
        _ = try folder.publishSnapshot(own, zone: zone)
        #expect(folder.ownSnapshotHeads(zone: zone) == [a: 3, b: 3])
        for token in [ChangeToken.empty, ChangeToken([a: 1]), ChangeToken([a: 2, b: 3])] {
            let fetched = try folder.fetchChanges(zone: zone, since: token)
            #expect(fetched.expired == [a: 3], "from \(token)")
            #expect(fetched.token[a] == token[a])
            #expect(!fetched.batches.contains { $0.device == a })
        }
        // A token at the snapshot reads on; one at the log's end is simply up to date.
        let after = try folder.fetchChanges(zone: zone, since: ChangeToken([a: 3, b: 3]))
        #expect(after.batches.map(\.seq) == [4, 5])
        #expect(after.expired.isEmpty)
        #expect(try folder.fetchChanges(zone: zone, since: ChangeToken([a: 5, b: 3])).expired.isEmpty)
    }

    @Test func aDeviceFileWithPrunedFloorsRoundTripsAndAnOldOneReadsAsNothingPruned() throws {
        let info = DeviceInfo(name: "laptop", lastSeen: 5, acknowledged: [zone: ChangeToken([a: 2])], pruned: [zone: 4])
        #expect(try DeviceInfo(json: info.json) == info)
        let old = DeviceInfo(name: "laptop", lastSeen: 5, acknowledged: [zone: ChangeToken([a: 2])])
        #expect(old.json["pruned"] == nil)
        #expect(try DeviceInfo(json: old.json).pruned.isEmpty)
        #expect(throws: CloudError.self) {
            try DeviceInfo(
                json: .object([
                    "name": .string("x"), "lastSeen": .int(1), "acknowledged": .object([:]),
                    "pruned": .object(["../x": .int(1)]),
                ]))
        }
    }
}
