import Foundation
import Testing

/// `rm` moves notes to the trash.
@Suite struct RemoveTests {
    @Test func rmMovesNotesToTheTrashWhereTheyCanStillBeShown() throws {
        let cli = try CLIRunner()
        defer { cli.cleanUp() }
        let keep = try cli.add("Keep", body: "k")
        let drop = try cli.add("Drop", body: "d")
        let result = try cli.cn("rm", "Drop")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try cli.ids() == [keep])
        #expect(try cli.ids(trash: true) == [drop])
        let note = try cli.note(drop)
        #expect(note["deletedAt"] is String)
        #expect(note["body"] as? String == "d")
    }

    @Test func rmOfAnUnknownNoteIsAUserErrorAndRemovesNothing() throws {
        let cli = try CLIRunner()
        defer { cli.cleanUp() }
        let keep = try cli.add("Keep", body: "k")
        let result = try cli.cn("rm", "Nope")
        #expect(result.status == 1)
        #expect(result.stderrLines.count == 1)
        #expect(try cli.ids() == [keep])
    }

    @Test func anUnknownNoteInTheListStopsRmBeforeAnythingMoves() throws {
        let cli = try CLIRunner()
        defer { cli.cleanUp() }
        let first = try cli.add("First", body: "1")
        let result = try cli.cn("rm", first, "Nope")
        #expect(result.status == 1)
        #expect(try cli.ids() == [first])
        #expect(try cli.ids(trash: true).isEmpty)
    }
}
