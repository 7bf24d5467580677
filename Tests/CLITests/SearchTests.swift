import Foundation
import Testing

@Suite struct SearchTests {
    func seeded() throws -> CLIRunner {
        let cli = try CLIRunner()
        try cli.seed([
            CLIRunner.fixture(
                id: "10000000-0000-4000-8000-000000000001", title: "Café plans", body: "Meet at the CAFÉ\nthen walk",
                tags: ["travel"], isFavorite: true, createdAt: "2025-01-01T00:00:00.000Z"),
            CLIRunner.fixture(
                id: "20000000-0000-4000-8000-000000000002", title: "Groceries", body: "coffee beans from the cafe",
                tags: ["home"], createdAt: "2025-02-01T00:00:00.000Z"),
            CLIRunner.fixture(
                id: "30000000-0000-4000-8000-000000000003", title: "東京 trip", body: "会議 in Tokyo",
                createdAt: "2025-03-01T00:00:00.000Z"),
        ])
        return cli
    }

    func ids(_ cli: CLIRunner, _ query: String...) throws -> [String] {
        let hits = try #require(try cli.json(["search"] + query + ["--json"]) as? [[String: Any]])
        return hits.compactMap { ($0["note"] as? [String: Any])?["id"] as? String }.map { String($0.prefix(1)) }
    }

    @Test func caseAndDiacriticInsensitiveAndRankedByTitle() throws {
        let cli = try seeded()
        defer { cli.cleanUp() }
        #expect(try ids(cli, "cafe") == ["1", "2"])
        #expect(try ids(cli, "会議") == ["3"])
        #expect(try ids(cli, "cafe", "-beans") == ["1"])
        #expect(try ids(cli, "tag:home") == ["2"])
        #expect(try ids(cli, "is:fav") == ["1"])
        #expect(try ids(cli, "nothing-like-this").isEmpty)
    }

    @Test func jsonHitsCarryTheNoteTierSnippetAndMatches() throws {
        let cli = try seeded()
        defer { cli.cleanUp() }
        let hits = try #require(try cli.json("search", "groceries", "--json") as? [[String: Any]])
        #expect(hits.count == 1)
        let hit = try #require(hits.first)
        let note = try #require(hit["note"] as? [String: Any])
        #expect(note["id"] as? String == "20000000-0000-4000-8000-000000000002")
        #expect(note["title"] as? String == "Groceries")
        #expect(note["tags"] as? [String] == ["home"])
        #expect(note["createdAt"] as? String == "2025-02-01T00:00:00.000Z")
        #expect(hit["tier"] is Int)
        #expect(hit["snippet"] is String)
        #expect(hit["titleMatches"] as? [[Int]] == [[0, 9]])
        #expect(hit["snippetMatches"] is [[Int]])
    }

    /// `--json` is written without `JSONEncoder` (D-238): the bytes must be the encoder's (the
    /// hits decoded and encoded again with the CLI's options), and each note the object
    /// `list --json` encodes for it, over hostile text.
    @Test func jsonHitsAreTheBytesTheEncoderWrites() throws {
        struct Note: Codable {
            var body, createdAt, deletedAt, frontMatter, headRev, id: String?
            var isFavorite: Bool?
            var modifiedAt, notebook, notebookName, snippet, syncState: String?
            var tags: [String]?
            var title: String?
        }
        struct Hit: Codable {
            var note: Note
            var snippet: String
            var snippetMatches: [[Int]]
            var tier: Int
            var titleMatches: [[Int]]
        }
        let cli = try CLIRunner()
        defer { cli.cleanUp() }
        let hostile = "quote \" back\\slash / slash \t tab \u{1} \u{1F} del\u{7F} é 東京 👍🏽 \u{2028}"
        try cli.seed([
            CLIRunner.fixture(
                id: "10000000-0000-4000-8000-000000000001", title: "zeta " + hostile, body: "first\nzeta " + hostile,
                tags: ["a/b", "c\"d", "東"], isFavorite: true),
            CLIRunner.fixture(
                id: "20000000-0000-4000-8000-000000000002", title: "plain", body: "line\r\nzeta at the end",
                notebook: "work"),
            CLIRunner.fixture(id: "30000000-0000-4000-8000-000000000003", title: "zeta only in the title"),
        ])
        for query in ["zeta", "slash", "東京", "nothing-like-this"] {
            let result = try cli.cn("search", query, "--json")
            #expect(result.status == 0, "\(result.stderr)")
            let hits = try JSONDecoder().decode([Hit].self, from: result.stdoutData)
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            #expect(
                result.stdout == String(decoding: try encoder.encode(hits), as: UTF8.self) + "\n",
                "\(query): \(result.stdout)")
            let listed = try #require(try cli.json("list", "--json") as? [[String: Any]])
            let printed = try #require(try JSONSerialization.jsonObject(with: result.stdoutData) as? [[String: Any]])
            #expect(printed.count == (query == "zeta" ? 3 : query == "nothing-like-this" ? 0 : 1))
            for hit in printed {
                let note = try #require(hit["note"] as? [String: Any])
                let same = try #require(listed.first { $0["id"] as? String == note["id"] as? String })
                #expect(NSDictionary(dictionary: note) == NSDictionary(dictionary: same), "\(query)")
            }
        }
    }

    /// On a terminal the terms are highlighted in the title and the snippet; piped, the titles'
    /// matches are not even looked for (D-237) and nothing is styled.
    @Test func aTerminalShowsTheMatchesHighlightedAndAPipeShowsNone() throws {
        let cli = try seeded()
        defer { cli.cleanUp() }
        let command = [CLIRunner.binary.path, "--data-dir", cli.dataDirectory.path, "search", "cafe"].map {
            "'" + $0 + "'"
        }.joined(separator: " ")
        // `script` runs the search on a pseudo-terminal of its own.
        let shown = try cli.runProgram(
            "/usr/bin/script", ["-qec", command, "/dev/null"], environment: ["TERM": "xterm"])
        #expect(shown.status == 0, "\(shown.stderr)")
        let highlight = "\u{1B}[1;4m"
        let lines = shown.stdout.split(separator: "\n")
        let titleRow = try #require(lines.first { $0.contains("1000000") })
        #expect(titleRow.contains(highlight + "Café"), "\(titleRow.debugDescription)")
        #expect(lines.contains { $0.contains(highlight + "CAFÉ") }, "\(shown.stdout.debugDescription)")
        let piped = try cli.cn("search", "cafe")
        #expect(piped.status == 0 && !piped.stdout.contains("\u{1B}") && piped.stdout.contains("Café plans"))
    }

    @Test func textOutputShowsOneRowAndASnippetPerHit() throws {
        let cli = try seeded()
        defer { cli.cleanUp() }
        let result = try cli.cn("search", "walk")
        #expect(result.status == 0)
        let lines = result.stdout.split(separator: "\n")
        #expect(lines.count == 2)
        #expect(lines.first?.contains("10000000  Café plans") == true)
        let none = try cli.cn("search", "zzz")
        #expect(none.status == 0 && none.stdout.isEmpty)
    }

    @Test func onATerminalNoHitsSaysSo() throws {
        let cli = try seeded()
        defer { cli.cleanUp() }
        let result = try cli.inTerminal("search", "zzz")
        #expect(result.status == 0)
        #expect(result.stdout.contains("No notes match."))
    }

    @Test func dashWordsAreExclusionsButMistypedLongOptionsAreErrors() throws {
        let cli = try seeded()
        defer { cli.cleanUp() }
        #expect(try ids(cli, "-beans", "cafe") == ["1"])
        #expect(try ids(cli, "cafe", "-tag:home") == ["1"])
        let typo = try cli.cn("search", "cafe", "--limt", "3")
        #expect(typo.status == 1)
        #expect(typo.stderrLines.count == 1)
        #expect(typo.stderr.contains("--limt"))
    }

    @Test func idsListEveryMatchingNoteInTheSameOrderAndNothingElse() throws {
        let cli = try seeded()
        defer { cli.cleanUp() }
        let result = try cli.cn("search", "cafe", "--ids")
        #expect(result.status == 0)
        #expect(
            result.stdout == "10000000-0000-4000-8000-000000000001\n20000000-0000-4000-8000-000000000002\n")
        // The same notes, in the same order, as the full output; a limit and sort: apply too.
        #expect(
            try cli.cn("search", "cafe", "--ids", "--limit", "1").stdout == "10000000-0000-4000-8000-000000000001\n")
        #expect(
            try cli.cn("search", "cafe", "sort:title", "--ids").stdout
                == "10000000-0000-4000-8000-000000000001\n20000000-0000-4000-8000-000000000002\n")
        #expect(try cli.cn("search", "zzz", "--ids").stdout.isEmpty)
        let both = try cli.cn("search", "cafe", "--ids", "--json")
        #expect(both.status != 0 && both.stderr.contains("--ids and --json"))
    }
}
