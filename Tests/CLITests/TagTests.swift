import Foundation
import Testing

@Suite struct TagTests {
    @Test func tagsAreAddedRemovedAndPrintedSortedWithoutDuplicates() throws {
        let cli = try CLIRunner()
        defer { cli.cleanUp() }
        let id = try cli.add("Tagged", body: "x", "--tag", "work")
        let added = try cli.cn("tag", id, "ideas", "日本", "work", " ")
        #expect(added.status == 0, "\(added.stderr)")
        #expect(added.stdout == "ideas\nwork\n日本\n")
        #expect(try cli.note(id)["tags"] as? [String] == ["ideas", "work", "日本"])
        let removed = try cli.json("tag", id, "--remove", "work", "--json") as? [String]
        #expect(removed == ["ideas", "日本"])
        #expect(try cli.json("tag", id, "--json") as? [String] == ["ideas", "日本"])
        let history = try #require(try cli.json("history", id, "--json") as? [Any])
        #expect(history.count == 3, "printing tags is not a change")
    }
}
