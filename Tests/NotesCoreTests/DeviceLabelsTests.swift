import NotesCore
import Testing

/// People see devices by the names they gave them; ids only where names collide or are unknown.
@Suite struct DeviceLabelsTests {
    let labels = DeviceLabels(
        names: ["aaaaaaaaaaaaaaaa": "laptop", "bbbbbbbbbbbbbbbb": "desktop", "cccccccccccccccc": "desktop"],
        thisDevice: "aaaaaaaaaaaaaaaa")

    @Test func aDeviceIsShownByItsNameAndByItsIdOnlyWhereNamesCollide() {
        #expect(labels.label("aaaaaaaaaaaaaaaa") == "laptop")
        #expect(labels.label("bbbbbbbbbbbbbbbb") == "desktop (bbbbbb)")
        #expect(labels.label("cccccccccccccccc") == "desktop (cccccc)")
        #expect(labels.label("dddddddddddddddd") == "dddddddd")
        #expect(labels.describe("aaaaaaaaaaaaaaaa") == "laptop (this device)")
    }

    @Test func aNameFromAnotherDeviceCannotDriveTheTerminal() {
        let hostile = DeviceLabels(names: ["eeeeeeeeeeeeeeee": "evil\u{1B}[2J\u{7}", "ffffffffffffffff": "  "])
        #expect(!hostile.label("eeeeeeeeeeeeeeee").contains("\u{1B}"))
        #expect(hostile.label("ffffffffffffffff") == "ffffffff", "a blank name is no name")
    }

    @Test func markerLinesNameTheirDevicesAndKeepTheirLineEndings() {
        let stored =
            "intro\n<<<<<<< aaaaaaaaaaaaaaaa\nmine\n=======\ntheirs\n>>>>>>> bbbbbbbbbbbbbbbb\n"
            + "<<<<<<< aaaaaaaaaaaaaaaa\r\nx\r\n=======\r\ny\r\n>>>>>>> zzzzzzzzzzzzzzzz\r\nend"
        #expect(
            labels.relabelingMarkers(in: stored)
                == "intro\n<<<<<<< laptop\nmine\n=======\ntheirs\n>>>>>>> desktop (bbbbbb)\n"
                + "<<<<<<< laptop\r\nx\r\n=======\r\ny\r\n>>>>>>> zzzzzzzzzzzzzzzz\r\nend")
        let plain = "no markers here\n<<<<<<<not a marker aaaaaaaaaaaaaaaa\n"
        #expect(labels.relabelingMarkers(in: plain) == plain)
    }
}
