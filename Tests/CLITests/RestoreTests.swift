import Foundation
import Testing

@Suite struct RestoreTests {
    @Test func restoreBringsANoteBackFromTheTrash() throws {
        let cli = try CLIRunner()
        defer { cli.cleanUp() }
        let id = try cli.add("Back", body: "b", "--fav")
        #expect(try cli.cn("rm", id).status == 0)
        let result = try cli.cn("restore", String(id.prefix(6)))
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try cli.ids() == [id])
        #expect(try cli.ids(trash: true).isEmpty)
        let note = try cli.note(id)
        #expect(note["deletedAt"] == nil)
        #expect(note["isFavorite"] as? Bool == true)
    }

    @Test func restoreOfANoteNotInTheTrashIsAUserError() throws {
        let cli = try CLIRunner()
        defer { cli.cleanUp() }
        let id = try cli.add("Here", body: "h")
        let result = try cli.cn("restore", id)
        #expect(result.status == 1)
        #expect(result.stderrLines.count == 1)
        #expect(result.stderr.contains("not in the trash"))
        #expect(try (cli.json("history", id, "--json") as? [Any])?.count == 1)
    }

    @Test func oneNoteNotInTheTrashStopsTheRestoreBeforeAnythingChanges() throws {
        let cli = try CLIRunner()
        defer { cli.cleanUp() }
        let trashed = try cli.add("Trashed", body: "t")
        let alive = try cli.add("Alive", body: "a")
        #expect(try cli.cn("rm", trashed).status == 0)
        let result = try cli.cn("restore", trashed, alive)
        #expect(result.status == 1)
        #expect(result.stderr.contains("nothing was restored"))
        #expect(try cli.ids(trash: true) == [trashed])
    }
}
