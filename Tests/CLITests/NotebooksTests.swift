import Foundation
import Testing

@Suite struct NotebooksTests {
    struct Row: Decodable, Equatable {
        var id: String
        var name: String
        var count: Int
        init(_ id: String, _ name: String, _ count: Int) {
            (self.id, self.name, self.count) = (id, name, count)
        }
    }

    struct TagRow: Decodable, Equatable {
        var tag: String
        var count: Int
    }

    func rows(_ cli: CLIRunner, at directory: URL? = nil) throws -> [Row] {
        let result = try directory.map { try cli.cn(at: $0, "notebooks", "--json") } ?? cli.cn("notebooks", "--json")
        #expect(result.status == 0, "\(result.stderr)")
        return try JSONDecoder().decode([Row].self, from: result.stdoutData)
    }

    @Test func notebooksAreCreatedListedRenamedMovedIntoAndDeleted() throws {
        let cli = try CLIRunner()
        defer { cli.cleanUp() }
        let created = try cli.cn("notebook", "create", "Work Log")
        #expect(created.status == 0, "\(created.stderr)")
        #expect(created.stdout == "created notebook Work Log (work-log)\n")
        let id = try cli.add("Standup", body: "x")
        let other = try cli.add("Lunch", body: "y", "--notebook", "Work Log")
        #expect(try cli.note(other)["notebook"] as? String == "work-log")
        let moved = try cli.cn("move", id, "--notebook", "work log")
        #expect(moved.status == 0, "\(moved.stderr)")
        #expect(try cli.note(id)["notebook"] as? String == "work-log")
        #expect(
            try rows(cli) == [
                Row("notes", "notes", 0), Row("work-log", "Work Log", 2),
            ])
        #expect(try cli.cn("notebook", "rename", "Work Log", "Job").status == 0)
        #expect(try cli.cn("notebooks").stdout == "Job  (work-log)  2\nnotes  0\n")
        let missing = try cli.cn("move", id, "--notebook", "Nope")
        #expect(missing.status == 1 && missing.stderr == "cloudnotes: no notebook named \"Nope\"\n")
        let deleted = try cli.cn("notebook", "delete", "Job")
        #expect(deleted.stdout == "deleted notebook Job; 2 note(s) moved to the trash\n")
        #expect(try cli.note(id)["deletedAt"] != nil)
        #expect(try rows(cli) == [Row("notes", "notes", 0)])
        let refused = try cli.cn("notebook", "delete", "notes")
        #expect(refused.status == 1 && refused.stderr.contains("cannot be deleted"))
    }

    @Test("a rename made with the CLI on one device shows on the other after sync")
    func renameSyncsBetweenDataDirectories() throws {
        let cli = try CLIRunner()
        defer { cli.cleanUp() }
        let (_, a, b) = try cli.devicesSharingACloudFolder()
        #expect(try cli.cn(at: a, "notebook", "create", "Reading").status == 0)
        #expect(try cli.cn(at: a, "add", "Dune", "--body", "x", "--notebook", "Reading").status == 0)
        #expect(try cli.cn(at: a, "sync").status == 0)
        #expect(try cli.cn(at: b, "sync").status == 0)
        #expect(try rows(cli, at: b).contains(Row("reading", "Reading", 1)))
        #expect(try cli.cn(at: b, "notebook", "rename", "Reading", "Books to read").status == 0)
        #expect(try cli.cn(at: b, "sync").status == 0)
        #expect(try cli.cn(at: a, "sync").status == 0)
        #expect(try rows(cli, at: a).contains(Row("reading", "Books to read", 1)))
    }

    @Test func tagsAreListedWithCountsAndRenamedAcrossNotes() throws {
        let cli = try CLIRunner()
        defer { cli.cleanUp() }
        let first = try cli.add("One", body: "about #garden", "--tag", "home", "--tag", "todo")
        _ = try cli.add("Two", body: "x", "--tag", "todo")
        #expect(
            try JSONDecoder().decode([TagRow].self, from: cli.cn("tags", "--json").stdoutData) == [
                TagRow(tag: "home", count: 1), TagRow(tag: "todo", count: 2),
            ])
        let renamed = try cli.cn("tags", "rename", "todo", "next")
        #expect(renamed.stdout == "renamed tag on 2 note(s)\n")
        #expect(try cli.note(first)["tags"] as? [String] == ["home", "next"])
        #expect(try cli.cn("tags").stdout == "home  1\nnext  2\n")
        // `tag rename OLD NEW` says the same.
        #expect(try cli.cn("tag", "rename", "next", "todo").stdout == "renamed tag on 2 note(s)\n")
        #expect(try cli.cn("tags", "rename", "todo", "next").status == 0)
        let none = try cli.cn("tags", "rename", "todo", "x")
        #expect(none.status == 1 && none.stderr.contains("no note has the tag"))
        // With bodyHashtags on, #words in bodies count as tags.
        let folder = cli.home.appendingPathComponent("xdg-config/cloudnotes")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try Data(#"{"bodyHashtags": true}"#.utf8).write(to: folder.appendingPathComponent("config.json"))
        #expect(try cli.cn("tags").stdout == "garden  1\nhome  1\nnext  2\n")
    }
}
