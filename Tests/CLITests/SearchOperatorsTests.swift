import Foundation
import Testing

/// `cloudnotes search` with the operators of issue 25 (OR, groups, dates, `in:` by name, `sort:`)
/// and the hint for a word that looks like an operator.
@Suite struct SearchOperatorsTests {
    func seeded() throws -> CLIRunner {
        let cli = try CLIRunner()
        try cli.seed([
            CLIRunner.fixture(
                id: "10000000-0000-4000-8000-000000000001", title: "Budget plan", body: "- [ ] send it",
                notebook: "work", createdAt: "2025-01-10T12:00:00.000Z", modifiedAt: "2025-03-20T12:00:00.000Z"),
            CLIRunner.fixture(
                id: "20000000-0000-4000-8000-000000000002", title: "Roadmap", body: "next year",
                createdAt: "2025-02-10T12:00:00.000Z"),
            CLIRunner.fixture(
                id: "30000000-0000-4000-8000-000000000003", title: "Zebra budget", body: "- [x] done",
                notebook: "work", createdAt: "2025-03-10T12:00:00.000Z"),
        ])
        #expect(try cli.cn("notebook", "rename", "work", "Work Stuff").status == 0)
        return cli
    }

    func ids(_ cli: CLIRunner, _ query: String...) throws -> [String] {
        let hits = try #require(try cli.json(["search"] + query + ["--json"]) as? [[String: Any]])
        return hits.compactMap { ($0["note"] as? [String: Any])?["id"] as? String }.map { String($0.prefix(1)) }
    }

    @Test func orGroupsAndNotCombine() throws {
        let cli = try seeded()
        defer { cli.cleanUp() }
        #expect(try Set(ids(cli, "roadmap", "OR", "zebra")) == ["2", "3"])
        #expect(try ids(cli, "budget", "-(zebra OR roadmap)") == ["1"])
        #expect(try Set(ids(cli, "(title:plan OR has:todo) OR -budget")) == ["1", "2"])
    }

    @Test func datesNotebookNamesAndSort() throws {
        let cli = try seeded()
        defer { cli.cleanUp() }
        // Mid-month dates: the same in any local time zone.
        #expect(try ids(cli, "created:2025-01-15..2025-02-15") == ["2"])
        #expect(try Set(ids(cli, "created:>2025-01")) == ["2", "3"])
        #expect(try ids(cli, "modified:2025-03", "budget", "sort:title") == ["1", "3"])
        #expect(try ids(cli, "modified:<7d").isEmpty)
        #expect(try ids(cli, "in:Work Stuff", "sort:created") == ["3", "1"])
        #expect(try ids(cli, #"in:"work stuff""#, "-has:todo") == ["3"])
        #expect(try ids(cli, "sort:created") == ["3", "2", "1"])
    }

    @Test func anUnknownNotebookIsAnErrorAndAMistypedOperatorAHint() throws {
        let cli = try seeded()
        defer { cli.cleanUp() }
        let unknown = try cli.cn("search", "in:Nowhere")
        #expect(unknown.status == 1)
        #expect(unknown.stderrLines == [#"cloudnotes: no notebook named "Nowhere""#])
        let typo = try cli.cn("search", "crated:2025", "--json")
        #expect(typo.status == 0)
        #expect(typo.stderrLines == ["cloudnotes: hint: crated:2025 is searched as words: did you mean created:?"])
        #expect(typo.stdout.filter { !$0.isWhitespace } == "[]")
        let sort = try cli.cn("search", "sort:size")
        #expect(
            sort.stderrLines == [
                "cloudnotes: hint: sort:size is searched as words: sort: takes created, modified or title"
            ])
    }

    @Test func helpShowsAnExampleOfEachOperator() throws {
        let cli = try CLIRunner()
        defer { cli.cleanUp() }
        let help = try cli.cn("search", "--help").stdout
        for example in [
            " OR ", "(budget OR plan)", "-(a OR b)", "created:2025-01-03", "modified:>2025-01", "2025-01..2025-03",
            "modified:<7d", "created:today", "title:plan", "has:attachment", "has:conflict", "has:todo",
            #"in:"Work stuff""#, "sort:created", "sort:modified", "sort:title", "local time zone",
        ] {
            #expect(help.contains(example), "\(example)")
        }
    }
}
