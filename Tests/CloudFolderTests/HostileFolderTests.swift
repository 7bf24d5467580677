import Foundation
import Glibc
import NotesCore
import Testing

@testable import CloudFolder

/// ARCHITECTURE §7 "Paths" and SYNC-FORMAT rule 9: planted links are never followed, huge files are refused
/// without being read, unknown names are ignored and counted, renamed copies are salvaged.
@Suite struct HostileFolderTests {
    let zone = Fixtures.zone
    let a = Fixtures.deviceA
    let b = Fixtures.deviceB

    func envelopeBytes(device: DeviceID, seq: Int64, records: [Int]) throws -> [UInt8] {
        Envelope(
            kind: .changes, zone: zone.rawValue, device: device.rawValue, seq: seq, hlc: Fixtures.hlc,
            body: try Fixtures.batch(records).body()
        ).encoded
    }

    @Test(arguments: Backend.allCases)
    func aSymlinkNamedLikeALogFileIsNeverFollowed(backend: Backend) throws {
        let fixture = FolderFixture(backend)
        let folder = try fixture.prepared()
        // The link points at a perfectly valid batch outside the folder: following it would accept it.
        let outside = fixture.root + "/outside/valid.json"
        try fixture.plant(outside, try envelopeBytes(device: b, seq: 1, records: [1]))
        try fixture.plantSymlink(fixture.layout.logFile(zone, device: b, seq: 1), to: outside)

        let fetched = try folder.fetchChanges(zone: zone, since: .empty)
        #expect(fetched.batches.isEmpty)
        #expect(fetched.token[b] == 0)
        #expect(fetched.notArrived.map(\.seq) == [1])
        #expect(fetched.notArrived.first?.reason.contains("symbolic link") == true)
    }

    @Test(arguments: Backend.allCases)
    func aSymlinkInPlaceOfADeviceFolderIsIgnoredAndCounted(backend: Backend) throws {
        let fixture = FolderFixture(backend)
        let folder = try fixture.prepared()
        let elsewhere = fixture.root + "/elsewhere"
        try fixture.plant(
            elsewhere + "/000000000000/000000000001.json", try envelopeBytes(device: b, seq: 1, records: [1]))
        try fixture.plantSymlink(fixture.layout.deviceLogDirectory(zone, device: b), to: elsewhere)
        let fetched = try folder.fetchChanges(zone: zone, since: .empty)
        #expect(fetched.batches.isEmpty)
        #expect(fetched.ignored == ["log/\(b)"])
    }

    @Test(arguments: Backend.allCases)
    func publishingRefusesAPlantedSymlinkOnItsOwnPath(backend: Backend) throws {
        let fixture = FolderFixture(backend)
        let folder = try fixture.prepared()
        let elsewhere = fixture.root + "/elsewhere"
        try fixture.mkdirs(elsewhere)
        try fixture.plantSymlink(fixture.layout.segmentDirectory(zone, device: a, seq: 1), to: elsewhere)
        #expect {
            try folder.publish(Fixtures.batch([1]), zone: zone, device: a, seq: 1, hlc: Fixtures.hlc)
        } throws: { ($0 as? CloudError)?.code == .invalidArguments }
        #expect(!fixture.allPaths().contains { $0.hasPrefix("elsewhere/") })
    }

    @Test func aOneGigabyteSparseFileIsRefusedWithoutBeingRead() throws {
        let fixture = FolderFixture(.disk)
        let folder = try fixture.prepared()
        _ = try folder.publish(Fixtures.batch([1]), zone: zone, device: b, seq: 1, hlc: Fixtures.hlc)
        let path = fixture.layout.logFile(zone, device: b, seq: 2)
        let fd = open(path, O_CREAT | O_WRONLY, 0o600)
        #expect(fd >= 0)
        #expect(ftruncate(fd, 1 << 30) == 0)  // 1 GB, sparse: costs no disk
        close(fd)

        // PosixFileIO refuses it from fstat alone: limitExceeded comes before any read.
        #expect {
            try PosixFileIO().read(path, maxBytes: DirectoryCloudFolder.maxLogFileBytes)
        } throws: { ($0 as? CloudError)?.code == .limitExceeded }

        let fetched = try folder.fetchChanges(zone: zone, since: .empty)
        #expect(fetched.batches.map(\.seq) == [1])
        #expect(fetched.token[b] == 1)
        #expect(fetched.notArrived.map(\.seq) == [2])
        #expect(fetched.notArrived.first?.reason.contains("refused without reading") == true)
    }

    @Test func aFIFOWhereALogFileShouldBeDoesNotHangAndIsRefused() throws {
        let fixture = FolderFixture(.disk)
        let folder = try fixture.prepared()
        _ = try folder.publish(Fixtures.batch([1]), zone: zone, device: b, seq: 1, hlc: Fixtures.hlc)
        #expect(mkfifo(fixture.layout.logFile(zone, device: b, seq: 2), 0o600) == 0)
        let fetched = try folder.fetchChanges(zone: zone, since: .empty)
        #expect(fetched.token[b] == 1)
        #expect(fetched.notArrived.first?.reason.contains("not a regular file") == true)
    }

    @Test(arguments: Backend.allCases)
    func unknownFilesAreIgnoredAndCountedNeverAnError(backend: Backend) throws {
        let fixture = FolderFixture(backend)
        let folder = try fixture.prepared()
        _ = try folder.publish(Fixtures.batch([1]), zone: zone, device: a, seq: 1, hlc: Fixtures.hlc)
        try folder.writeDevice(DeviceInfo(name: "laptop", lastSeen: 1), device: a, hlc: Fixtures.hlc)
        let junk = ["desktop.ini", ".DS_Store", ".aaaaaaaaaaaaaaaa.json.tmp-bbbbbbbbbbbbbbbb-77", "Thumbs.db"]
        for name in junk {
            try fixture.plant(fixture.layout.logDirectory(zone) + "/" + name, Array("junk".utf8))
            try fixture.plant(fixture.layout.devicesDirectory + "/" + name, Array("junk".utf8))
            try fixture.plant(fixture.layout.zonesDirectory + "/" + name, Array("junk".utf8))
            try fixture.plant(fixture.layout.segmentDirectory(zone, device: a, seq: 1) + "/" + name, Array("junk".utf8))
        }
        try fixture.mkdirs(fixture.layout.logDirectory(zone) + "/UPPERCASEDEVICE1")

        let fetched = try folder.fetchChanges(zone: zone, since: .empty)
        #expect(fetched.batches.map(\.seq) == [1])
        #expect(fetched.ignored.sorted() == (junk + ["UPPERCASEDEVICE1"]).map { "log/" + $0 }.sorted())
        #expect(fetched.notArrived.isEmpty)
        #expect(try folder.devices() == Listing(items: [a], ignored: junk.sorted()))
        #expect(try folder.zones() == Listing(items: [zone], ignored: junk.sorted()))
        let salvage = try folder.salvageScan(zone: zone)
        #expect(salvage.salvaged.isEmpty)
        #expect(salvage.ignored.count == junk.count * 2 + 1)
    }

    @Test(arguments: Backend.allCases)
    func renamedConflictCopiesAreSalvagedWhenTheirEnvelopeChecksOut(backend: Backend) throws {
        let fixture = FolderFixture(backend)
        let folder = try fixture.prepared()
        _ = try folder.publish(Fixtures.batch([1]), zone: zone, device: b, seq: 1, hlc: Fixtures.hlc)
        let segment = fixture.layout.segmentDirectory(zone, device: b, seq: 2)
        let valid = try envelopeBytes(device: b, seq: 2, records: [2])
        let copies = [
            "000000000002 (conflicted copy).json", "000000000002 (Alice's conflicted copy 2026-11-23).json",
            "000000000002.sync-conflict-20261123-010203-ABCDEFG.json", "000000000002 2.json",
        ]
        for name in copies { try fixture.plant(segment + "/" + name, valid) }
        // A copy claiming seq 3 holds seq 2's envelope; a tampered copy; a copy from the wrong segment.
        try fixture.plant(segment + "/000000000003 (conflicted copy).json", valid)
        var tampered = valid
        tampered[tampered.count / 2] ^= 1
        try fixture.plant(segment + "/000000000002 3.json", tampered)
        try fixture.plant(segment + "/000000002000 2.json", try envelopeBytes(device: b, seq: 2000, records: [5]))

        let report = try folder.salvageScan(zone: zone)
        #expect(report.salvaged.count == copies.count)
        #expect(report.salvaged.allSatisfy { $0.seq == 2 && $0.device == b && $0.batch == Fixtures.batch([2]) })
        #expect(
            Set(report.ignored)
                == Set(
                    ["000000000003 (conflicted copy).json", "000000000002 3.json", "000000002000 2.json"].map {
                        "log/\(b)/000000000000/" + $0
                    }))
        // The hot path never reads copies: seq 2 is still waited for.
        #expect(try folder.fetchChanges(zone: zone, since: .empty).token[b] == 1)
    }
}
