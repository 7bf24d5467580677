import Foundation
import Testing

/// `fav` and `unfav`.
@Suite struct FavTests {
    @Test func favAndUnfavMoveNotesInAndOutOfTheFavorites() throws {
        let cli = try CLIRunner()
        defer { cli.cleanUp() }
        let one = try cli.add("One", body: "1")
        let two = try cli.add("Two", body: "2")
        let fav = try cli.cn("fav", "One", String(two.prefix(8)))
        #expect(fav.status == 0, "\(fav.stderr)")
        #expect(fav.stdout.isEmpty, "quiet when piped")
        #expect(try cli.note(one)["isFavorite"] as? Bool == true)
        let favorites = try #require(try cli.json("list", "--favorites", "--json") as? [[String: Any]])
        #expect(Set(favorites.compactMap { $0["id"] as? String }) == [one, two])
        #expect(try cli.cn("unfav", one).status == 0)
        #expect(try cli.note(one)["isFavorite"] as? Bool == false)
        #expect(try cli.note(two)["isFavorite"] as? Bool == true)
    }

    @Test func favOfAnUnknownNoteIsAUserError() throws {
        let cli = try CLIRunner()
        defer { cli.cleanUp() }
        let result = try cli.cn("fav", "ghost")
        #expect(result.status == 1)
        #expect(result.stderrLines.count == 1)
    }
}
