import Foundation
import NotesCore
import Testing

@testable import CloudFolder

/// Zone creation and deletion markers (SYNC-FORMAT rule 12) and device files (rule 1's one
/// rewritten file), through the `CloudFolder` protocol.
@Suite struct ZonesAndDevicesTests {
    let a = Fixtures.deviceA
    let b = Fixtures.deviceB
    let work = ZoneID("work")!

    @Test(arguments: Backend.allCases)
    func aCreatedZoneIsListedAndPresent(backend: Backend) throws {
        let fixture = FolderFixture(backend)
        let folder: any CloudFolder = try fixture.prepared()
        let info = ZoneInfo(zone: work, displayName: "Work ✓", createdBy: b)
        #expect(try folder.createZone(info, hlc: Fixtures.hlc) == info)
        #expect(try folder.zones().items == [Fixtures.zone, work])
        #expect(try folder.zoneStatus(work) == .present(info))
        #expect(try folder.zoneStatus(ZoneID("nope")!) == .missing)
        #expect(try folder.fetchChanges(zone: work, since: .empty).batches.isEmpty)
    }

    @Test(arguments: Backend.allCases)
    func aZoneCreatedTwiceKeepsTheFirstZoneJSON(backend: Backend) throws {
        let folder = try FolderFixture(backend).prepared()
        let first = ZoneInfo(zone: work, displayName: "Work", createdBy: a)
        _ = try folder.createZone(first, hlc: Fixtures.hlc)
        // Another device creates the same zone later: the folder's zone.json stands.
        let second = ZoneInfo(zone: work, displayName: "Job", createdBy: b)
        #expect(try folder.createZone(second, hlc: Fixtures.hlc) == first)
        #expect(try folder.createZone(first, hlc: Fixtures.hlc) == first)
    }

    @Test(arguments: Backend.allCases)
    func aDeletionMarkerMakesTheZoneDeleted(backend: Backend) throws {
        let fixture = FolderFixture(backend)
        let folder = try fixture.prepared()
        _ = try folder.createZone(ZoneInfo(zone: work, displayName: "Work", createdBy: a), hlc: Fixtures.hlc)
        try folder.markZoneDeleted(work, device: b, hlc: Fixtures.hlc)
        try folder.markZoneDeleted(work, device: b, hlc: Fixtures.hlc)  // a retry is harmless
        #expect(try folder.zoneStatus(work) == .deleted(by: [b]))
        #expect(fixture.allPaths().contains("private/zones/work/deleted/\(b)-\(Fixtures.hlc).json"))
        #expect {
            try folder.markZoneDeleted(ZoneID("nope")!, device: b, hlc: Fixtures.hlc)
        } throws: { ($0 as? CloudError)?.code == .zoneNotFound }
    }

    @Test(arguments: Backend.allCases)
    func aForgedOrTornMarkerDoesNotDeleteAZone(backend: Backend) throws {
        let fixture = FolderFixture(backend)
        let folder = try fixture.prepared()
        let path = fixture.layout.deletedMarker(Fixtures.zone, device: b, hlc: Fixtures.hlc)
        try fixture.plant(path, Array("{}\n".utf8))
        // A valid marker of another zone copied here does not count either.
        let other = Envelope(
            kind: .deleted, zone: "work", device: b.rawValue, hlc: Fixtures.hlc,
            body: .object(["zone": .string("work")]))
        try fixture.plant(fixture.layout.deletedMarker(Fixtures.zone, device: a, hlc: Fixtures.hlc), other.encoded)
        guard case .present = try folder.zoneStatus(Fixtures.zone) else {
            Issue.record("a zone was deleted by a marker that does not check out")
            return
        }
    }

    @Test(arguments: Backend.allCases)
    func theDeviceFileIsTheOneFileRewritten(backend: Backend) throws {
        let fixture = FolderFixture(backend)
        let folder = try fixture.prepared()
        #expect(try folder.readDevice(a) == nil)
        let first = DeviceInfo(name: "laptop", lastSeen: 1, acknowledged: [Fixtures.zone: ChangeToken([a: 3, b: 1])])
        try folder.writeDevice(first, device: a, hlc: Fixtures.hlc)
        #expect(try folder.readDevice(a) == first)
        let second = DeviceInfo(name: "laptop", lastSeen: 2, acknowledged: [Fixtures.zone: ChangeToken([a: 4, b: 2])])
        try folder.writeDevice(second, device: a, hlc: Fixtures.hlc)
        #expect(try folder.readDevice(a) == second)
        #expect(try folder.devices().items == [a])
        #expect(fixture.allPaths().allSatisfy { !$0.contains(".tmp-") })
    }

    @Test func aTokenRoundTripsThroughJSONAndComparesAsAVersionVector() throws {
        let token = ChangeToken([Fixtures.deviceA: 3, Fixtures.deviceB: 1])
        #expect(try ChangeToken(json: token.json) == token)
        #expect(token.covers(ChangeToken([Fixtures.deviceA: 2])))
        #expect(!token.covers(ChangeToken([Fixtures.deviceB: 2])))
        #expect(!ChangeToken.empty.covers(token))
        var advanced = ChangeToken.empty
        advanced[Fixtures.deviceB] = 0
        #expect(advanced == .empty)  // a device read up to 0 is no entry
        #expect(ChangeToken([Fixtures.deviceA: 0]) == .empty)
        #expect(throws: CloudError.self) { try ChangeToken(json: .object(["../x": .int(1)])) }
        #expect(throws: CloudError.self) { try ChangeToken(json: .object([Fixtures.deviceA.rawValue: .int(-1)])) }
    }
}
