import Foundation
import Testing

@Suite struct HistoryTests {
    @Test func everyChangeIsARevisionNewestFirst() throws {
        let cli = try CLIRunner()
        defer { cli.cleanUp() }
        let id = try cli.add("Diary", body: "monday\n")
        #expect(try cli.cn("edit", id, "--body", "tuesday\n").status == 0)
        #expect(try cli.cn("fav", id).status == 0)
        #expect(try cli.cn("rm", id).status == 0)
        let revisions = try #require(try cli.json("history", id, "--json") as? [[String: Any]])
        #expect(revisions.count == 4)
        #expect(revisions.map { $0["inTrash"] as? Bool } == [true, false, false, false])
        #expect(revisions.map { $0["isFavorite"] as? Bool } == [true, true, false, false])
        #expect(revisions.allSatisfy { $0["body"] == nil }, "the list leaves bodies out")
        let newest = revisions[0]
        #expect(newest["id"] as? String == (try cli.note(id))["headRev"] as? String)
        #expect(newest["title"] as? String == "Diary")
        #expect(newest["tags"] as? [String] == [])
        #expect(newest["deleted"] as? Bool == false)
        #expect((newest["device"] as? String)?.count == 16)
        #expect(newest["parents"] as? [String] == [revisions[1]["id"] as? String].compactMap { $0 })
        #expect(revisions.last?["parents"] as? [String] == [])
        let dates = revisions.compactMap { $0["date"] as? String }
        #expect(dates.count == 4 && dates == dates.sorted(by: >))

        let text = try cli.cn("history", id)
        let lines = text.stdout.split(separator: "\n")
        #expect(lines.count == 4)
        #expect(lines[0].hasPrefix("* \(String((newest["id"] as? String ?? "").prefix(12)))"))
        #expect(lines[1].hasPrefix("  "))
    }

    @Test func showRevPrintsTheOldBodyBytesWhenPiped() throws {
        let cli = try CLIRunner()
        defer { cli.cleanUp() }
        let id = try cli.add("Poem", body: "first draft\twith tab\n\n")
        #expect(try cli.cn("edit", id, "--body", "final").status == 0)
        let revisions = try #require(try cli.json("history", id, "--json") as? [[String: Any]])
        let old = try #require(revisions.last?["id"] as? String)
        let show = try cli.cn("history", id, "--show", String(old.prefix(10)))
        #expect(show.status == 0, "\(show.stderr)")
        #expect(show.stdoutData == Data("first draft\twith tab\n\n".utf8))
        let json = try #require(try cli.json("history", id, "--show", old, "--json") as? [String: Any])
        #expect(json["id"] as? String == old)
        #expect(json["body"] as? String == "first draft\twith tab\n\n")
        #expect(json["title"] as? String == "Poem")
    }

    @Test func anUnknownRevisionIsAUserError() throws {
        let cli = try CLIRunner()
        defer { cli.cleanUp() }
        let id = try cli.add("One", body: "x")
        let result = try cli.cn("history", id, "--show", "zzzz")
        #expect(result.status == 1)
        #expect(result.stderrLines.count == 1)
        #expect(result.stdout.isEmpty)
    }
}
