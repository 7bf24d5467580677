import Foundation
import Testing

@Suite struct ListTests {
    static let a = "aaaaaaaa-0000-4000-8000-000000000001"
    static let b = "bbbbbbbb-0000-4000-8000-000000000002"
    static let c = "cccccccc-0000-4000-8000-000000000003"
    static let d = "dddddddd-0000-4000-8000-000000000004"

    /// Four notes with fixed dates: a favorite, two others and one in the trash.
    func seeded() throws -> CLIRunner {
        let cli = try CLIRunner()
        try cli.seed([
            CLIRunner.fixture(
                id: Self.a, title: "Zebra facts", body: "Zebra facts\nstripes", tags: ["animals"],
                isFavorite: true, createdAt: "2025-01-01T00:00:00.000Z", modifiedAt: "2025-01-02T00:00:00.000Z"),
            CLIRunner.fixture(
                id: Self.b, title: "apple pie", body: "flour\nbutter", notebook: "recipes",
                createdAt: "2025-02-01T00:00:00.000Z", modifiedAt: "2025-03-01T12:34:56.789Z"),
            CLIRunner.fixture(id: Self.c, title: "Meeting", body: "agenda", createdAt: "2025-01-15T00:00:00.000Z"),
            CLIRunner.fixture(
                id: Self.d, title: "Old", body: "gone", createdAt: "2024-01-01T00:00:00.000Z",
                deletedAt: "2025-04-01T00:00:00.000Z"),
        ])
        return cli
    }

    @Test func favoritesComeFirstThenTheRestNewestFirst() throws {
        let cli = try seeded()
        defer { cli.cleanUp() }
        #expect(try cli.ids() == [Self.a, Self.b, Self.c])
        let text = try cli.cn("list")
        #expect(text.status == 0)
        let lines = text.stdout.split(separator: "\n").map(String.init)
        #expect(lines.count == 5)
        #expect(lines[0] == "FAVORITES")
        #expect(lines[1].hasPrefix("★ aaaaaaaa  Zebra facts"))
        #expect(lines[1].hasSuffix("#animals"))
        #expect(lines[2] == "NOTES")
        #expect(lines[3].hasPrefix("  bbbbbbbb  apple pie"))
        #expect(lines[4].hasPrefix("  cccccccc  Meeting"))
    }

    @Test func jsonHasEveryFieldOfARowButNotTheBody() throws {
        let cli = try seeded()
        defer { cli.cleanUp() }
        let rows = try #require(try cli.json("list", "--json") as? [[String: Any]])
        #expect(rows.count == 3)
        let pie = try #require(rows.first { $0["id"] as? String == Self.b })
        #expect(pie["title"] as? String == "apple pie")
        #expect(pie["snippet"] as? String == "flour")
        #expect(pie["tags"] as? [String] == [])
        #expect(pie["isFavorite"] as? Bool == false)
        #expect(pie["notebook"] as? String == "recipes")
        #expect(pie["createdAt"] as? String == "2025-02-01T00:00:00.000Z")
        #expect(pie["modifiedAt"] as? String == "2025-03-01T12:34:56.789Z")
        #expect(pie["syncState"] as? String == "pending")
        #expect(pie["deletedAt"] == nil)
        #expect(pie["body"] == nil)
        let zebra = try #require(rows.first)
        #expect(zebra["snippet"] as? String == "stripes", "the title line is not repeated as the snippet")
        #expect(zebra["isFavorite"] as? Bool == true)
        #expect(zebra["tags"] as? [String] == ["animals"])
    }

    @Test func favoritesTrashLimitAndSort() throws {
        let cli = try seeded()
        defer { cli.cleanUp() }
        let favorites = try #require(try cli.json("list", "--favorites", "--json") as? [[String: Any]])
        #expect(favorites.map { $0["id"] as? String } == [Self.a])
        let trash = try #require(try cli.json("list", "--trash", "--json") as? [[String: Any]])
        #expect(trash.map { $0["id"] as? String } == [Self.d])
        #expect(trash.first?["deletedAt"] as? String == "2025-04-01T00:00:00.000Z")
        let limited = try #require(try cli.json("list", "--limit", "2", "--json") as? [[String: Any]])
        #expect(limited.map { $0["id"] as? String } == [Self.a, Self.b])
        let byTitle = try #require(try cli.json("list", "--sort", "title", "--json") as? [[String: Any]])
        #expect(byTitle.map { $0["title"] as? String } == ["Zebra facts", "apple pie", "Meeting"])
        let limitZero = try cli.cn("list", "--limit", "0")
        #expect(limitZero.status == 0 && limitZero.stdout.isEmpty)
    }

    @Test func onATerminalAnEmptyListSaysHowToStart() throws {
        let cli = try CLIRunner()
        defer { cli.cleanUp() }
        let empty = try cli.inTerminal("list")
        #expect(empty.stdout.contains("No notes yet. Add one with: cloudnotes add"))
        let trash = try cli.inTerminal("list", "--trash")
        #expect(trash.stdout.contains("The trash is empty."))
    }

    @Test func anEmptyStoreListsNothingWhenPiped() throws {
        let cli = try CLIRunner()
        defer { cli.cleanUp() }
        let result = try cli.cn("list")
        #expect(result.status == 0)
        #expect(result.stdout.isEmpty)
        #expect((try cli.json("list", "--json") as? [Any])?.isEmpty == true)
    }

    @Test func contradictoryOrBadOptionsAreOneLineUserErrors() throws {
        let cli = try seeded()
        defer { cli.cleanUp() }
        for arguments in [["list", "--favorites", "--trash"], ["list", "--limit", "-1"], ["list", "--sort", "size"]] {
            let result = try cli.run(arguments + ["--data-dir", cli.dataDirectory.path])
            #expect(result.status == 1, "\(arguments)")
            #expect(result.stderrLines.count == 1, "\(arguments): \(result.stderr)")
            #expect(result.stdout.isEmpty)
        }
    }
}
