import NotesCore
import Testing

@testable import CloudFolder

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
