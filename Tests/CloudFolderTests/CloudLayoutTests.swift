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
