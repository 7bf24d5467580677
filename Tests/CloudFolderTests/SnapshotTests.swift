import NotesCore
import Testing

@testable import CloudFolder

/// Snapshot files of DESIGN §3 rule 11: write-once, self-checking, listed by name.
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
}
