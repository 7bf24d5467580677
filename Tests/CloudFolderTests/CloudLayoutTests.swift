import NotesCore
import Testing

@testable import CloudFolder

@Suite struct CloudLayoutTests {
    let layout = CloudLayout(root: "/cloud/")
    let a = Fixtures.deviceA
    let zone = Fixtures.zone

    @Test func pathsFollowTheFormatV1Layout() {
        #expect(layout.containerFile == "/cloud/container.json")
        #expect(layout.deviceFile(a) == "/cloud/private/devices/aaaaaaaaaaaaaaaa.json")
        #expect(layout.zoneFile(zone) == "/cloud/private/zones/notes/zone.json")
        #expect(
            layout.deletedMarker(zone, device: a, hlc: HLC(millis: 1_700_000_000_000, counter: 10))
                == "/cloud/private/zones/notes/deleted/aaaaaaaaaaaaaaaa-0001700000000000-000a.json")
        #expect(
            layout.logFile(zone, device: a, seq: 1)
                == "/cloud/private/zones/notes/log/aaaaaaaaaaaaaaaa/000000000000/000000000001.json")
        #expect(
            layout.logFile(zone, device: a, seq: 2049)
                == "/cloud/private/zones/notes/log/aaaaaaaaaaaaaaaa/000000000002/000000002049.json")
        #expect(
            layout.snapshotFile(zone, device: a, seq: 5)
                == "/cloud/private/zones/notes/snapshots/aaaaaaaaaaaaaaaa-000000000005.json")
    }

    @Test func segmentsHold1024Seqs() {
        #expect(CloudLayout.segment(of: 1023) == 0)
        #expect(CloudLayout.segment(of: 1024) == 1)
        #expect(CloudLayout.segment(of: 2047) == 1)
    }

    @Test func nameOrderIsNumericOrder() {
        let seqs: [Int64] = [1, 9, 10, 99, 100, 1023, 1024, 999_999, 1_000_000, 123_456_789_012]
        let names = seqs.map { CloudLayout.padded($0) + ".json" }
        #expect(names.sorted() == names)
        #expect(names.map(CloudName.logFile) == seqs)
    }

    @Test func aTempNameIsHiddenCarriesTheWriterAndIsRandom() {
        let one = CloudLayout.temporaryName(for: "000000000001.json", device: a)
        let two = CloudLayout.temporaryName(for: "000000000001.json", device: a)
        #expect(one.hasPrefix(".000000000001.json.tmp-aaaaaaaaaaaaaaaa-"))
        #expect(one != two)
        #expect(CloudName.temporaryFile(one) == a)
        #expect(CloudName.logFile(one) == nil)
    }
}

@Suite struct CloudNameTests {
    static let hostile = [
        "../x", "..", ".", "", "/etc/passwd", "a/b", "a\0b", "notes\0", "NOTES", "nötes", " notes", "notes\n",
        String(repeating: "a", count: 65), "../../../../etc", "%2e%2e",
    ]

    @Test(arguments: hostile)
    func hostileNamesAreNeitherZonesNorDevices(name: String) {
        #expect(ZoneID(name) == nil)
        #expect(DeviceID(name) == nil)
        #expect(CloudName.deviceFile(name + ".json") == nil)
        #expect(CloudName.logFile(name) == nil)
        #expect(CloudName.segment(name) == nil)
    }

    @Test func zoneIDsAreLowercaseDigitsAndDashesUpTo64() {
        #expect(ZoneID("notes") != nil)
        #expect(ZoneID("work-2024") != nil)
        #expect(ZoneID(String(repeating: "z", count: 64)) != nil)
        #expect(ZoneID("Notes") == nil)
        #expect(ZoneID("my_notes") == nil)
    }

    @Test func deviceIDsAre16CharactersOfLowercaseBase32() {
        #expect(DeviceID("abcdefghijklmn27") != nil)
        #expect(DeviceID("abcdefghijklmn28") == nil)  // 8 is not base32
        #expect(DeviceID("abcdefghijklmn0") == nil)
        #expect(DeviceID("ABCDEFGHIJKLMN27") == nil)
        #expect(DeviceID("abcdefghijklmn277") == nil)
        let random = DeviceID.random()
        #expect(DeviceID(random.rawValue) == random)
        #expect(DeviceID.random() != random)
    }

    @Test func logNamesAreExactly12DigitsAndAPositiveSeq() {
        #expect(CloudName.logFile("000000000001.json") == 1)
        for name in [
            "1.json", "000000000000.json", "0000000000001.json", "00000000001.json", "+00000000001.json",
            "-00000000001.json", "000000000001.JSON", "000000000001.json.tmp", "000000000001", "٠٠٠٠٠٠٠٠٠٠٠١.json",
            "000000000001 (conflicted copy).json",
        ] {
            #expect(CloudName.logFile(name) == nil, "\(name)")
        }
    }

    @Test func markerAndSnapshotNamesParseBack() {
        let hlc = HLC(millis: 1_700_000_000_000, counter: 0xbeef)
        #expect(CloudName.deletedMarker("aaaaaaaaaaaaaaaa-\(hlc).json")?.hlc == hlc)
        #expect(CloudName.deletedMarker("aaaaaaaaaaaaaaaa-\(hlc).json")?.device == Fixtures.deviceA)
        #expect(CloudName.deletedMarker("aaaaaaaaaaaaaaaa-0001700000000000-BEEF.json") == nil)
        #expect(CloudName.deletedMarker("../aaaaaaaaaaaa-0001700000000000-beef.json") == nil)
        #expect(CloudName.snapshotFile("aaaaaaaaaaaaaaaa-000000000005.json")?.seq == 5)
        #expect(CloudName.snapshotFile("aaaaaaaaaaaaaaaa-5.json") == nil)
    }
}

@Suite struct SalvageNameTests {
    @Test(arguments: [
        ("000000000007 (conflicted copy).json", SalvageName.Replicator.conflictedCopy),
        ("000000000007 (Bob's conflicted copy 2024-01-01).json", .conflictedCopy),
        ("000000000007 (conflicted copy 2024-01-01 120000).json", .conflictedCopy),
        ("000000000007.sync-conflict-20240101-120000-ABCDEFG.json", .syncthingConflict),
        ("000000000007 2.json", .numberedCopy),
        ("000000000007 13.json", .numberedCopy),
    ])
    func renamedCopiesAreRecognised(name: String, replicator: SalvageName.Replicator) {
        #expect(SalvageName(name) == SalvageName(original: "000000000007.json", replicator: replicator))
    }

    @Test(arguments: [
        "000000000007.json", "desktop.ini", ".DS_Store", ".000000000007.json.tmp-aaaaaaaaaaaaaaaa-1f",
        "000000000007 (copy).json", " 2.json", "notes.txt", "000000000007 two.json",
    ])
    func otherNamesAreNotSalvage(name: String) {
        #expect(SalvageName(name) == nil)
    }
}
