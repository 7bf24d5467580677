import Foundation
import Testing

/// `list` says when it stops at its limit; `--version` prints the version.
@Suite struct ListLimitAndVersionTests {
    @Test func listSaysHowManyNotesItLeftOutAtItsLimit() throws {
        let cli = try CLIRunner()
        defer { cli.cleanUp() }
        try cli.seed(
            (0..<1240).map { i in
                CLIRunner.fixture(
                    id: String(format: "00000000-0000-4000-8000-%012d", i), title: "note \(i)", isFavorite: i < 3)
            })
        let piped = try cli.cn("list", "--limit", "6")
        #expect(piped.status == 0)
        #expect(piped.stdout.split(separator: "\n").filter { $0.contains("note ") }.count == 6, "\(piped.stdout)")
        // Piped, stdout stays the rows: the notice goes to stderr.
        #expect(piped.stderr == "… and 1,234 more: --limit 1240 shows them all\n", "\(piped.stderr)")
        let favorites = try cli.cn("list", "--favorites", "--limit", "2")
        #expect(favorites.stderr == "… and 1 more: --limit 3 shows them all\n", "\(favorites.stderr)")
        let json = try cli.cn("list", "--limit", "1240", "--json")
        #expect(json.status == 0)
        #expect(json.stderr.isEmpty, "nothing left out: no notice")
        let terminal = try cli.inTerminal("list", "--limit", "6")
        #expect(terminal.stdout.contains("… and 1,234 more: --limit 1240 shows them all"), "\(terminal.stdout)")
    }

    @Test func versionPrintsTheVersion() throws {
        let cli = try CLIRunner()
        defer { cli.cleanUp() }
        let result = try cli.run(["--version"])
        #expect(result.status == 0)
        let version = result.stdout.trimmingCharacters(in: .newlines)
        #expect(
            version.split(separator: ".").count == 3 && version.allSatisfy { $0.isNumber || $0 == "." }, "\(version)")
    }
}
