import Foundation
import Testing

@Suite struct PurgeTests {
    @Test func purgeDeletesATrashedNoteForGood() throws {
        let cli = try CLIRunner()
        defer { cli.cleanUp() }
        let keep = try cli.add("Keep", body: "k")
        let gone = try cli.add("Gone", body: "g")
        #expect(try cli.cn("rm", gone).status == 0)
        let result = try cli.cn("purge", gone)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try cli.ids() == [keep])
        #expect(try cli.ids(trash: true).isEmpty)
        #expect(try cli.cn("show", gone).status == 1)
    }

    @Test func purgeOfANoteNotInTheTrashIsRefused() throws {
        let cli = try CLIRunner()
        defer { cli.cleanUp() }
        let id = try cli.add("Alive", body: "a")
        let result = try cli.cn("purge", id)
        #expect(result.status == 1)
        #expect(result.stderrLines.count == 1)
        #expect(result.stderr.contains("not in the trash"))
        #expect(try cli.note(id)["body"] as? String == "a")
        let forced = try cli.cn("purge", "--force", id)
        #expect(forced.status == 0)
        #expect(try cli.ids().isEmpty)
    }

    @Test func emptyTrashPurgesOnlyTheTrash() throws {
        let cli = try CLIRunner()
        defer { cli.cleanUp() }
        let keep = try cli.add("Keep", body: "k")
        for title in ["T1", "T2"] {
            let id = try cli.add(title, body: "t")
            #expect(try cli.cn("rm", id).status == 0)
        }
        #expect(try cli.cn("purge", "--empty-trash").status == 0)
        #expect(try cli.ids(trash: true).isEmpty)
        #expect(try cli.ids() == [keep])
        let nothing = try cli.cn("purge")
        #expect(nothing.status == 1, "naming nothing is a usage error")
        #expect(nothing.stderrLines.count == 1)
    }

    @Test func oneNoteNotInTheTrashStopsThePurgeBeforeAnythingIsDeleted() throws {
        let cli = try CLIRunner()
        defer { cli.cleanUp() }
        let trashed = try cli.add("Trashed", body: "t")
        let alive = try cli.add("Alive", body: "a")
        #expect(try cli.cn("rm", trashed).status == 0)
        let result = try cli.cn("purge", trashed, alive)
        #expect(result.status == 1)
        #expect(result.stderrLines.count == 1)
        #expect(result.stderr.contains("nothing was purged"))
        #expect(try cli.ids(trash: true) == [trashed])
        #expect(try cli.ids() == [alive])
        let twice = try cli.cn("purge", trashed, "Trashed")
        #expect(twice.status == 0, "a note named twice is purged once: \(twice.stderr)")
        #expect(try cli.ids(trash: true).isEmpty)
    }
}
