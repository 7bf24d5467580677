import Foundation
import Testing

@Suite struct ShowTests {
    static let first = "abcd1234-0000-4000-8000-000000000001"
    static let second = "abcd5678-0000-4000-8000-000000000002"
    static let third = "ef000000-0000-4000-8000-000000000003"

    func seeded() throws -> CLIRunner {
        let cli = try CLIRunner()
        try cli.seed([
            CLIRunner.fixture(
                id: Self.first, title: "Twin", body: "first twin\n", tags: ["a", "b"], isFavorite: true,
                notebook: "home", createdAt: "2025-05-05T05:05:05.005Z", modifiedAt: "2025-06-06T06:06:06.006Z"),
            CLIRunner.fixture(id: Self.second, title: "Twin", body: "second twin"),
            CLIRunner.fixture(id: Self.third, title: "Unique", body: "\tbytes \u{1B}[31m as stored\r\n\n"),
        ])
        return cli
    }

    @Test func pipedShowWritesTheStoredBytesUnchanged() throws {
        let cli = try seeded()
        defer { cli.cleanUp() }
        let show = try cli.cn("show", "Unique")
        #expect(show.status == 0)
        #expect(show.stdoutData == Data("\tbytes \u{1B}[31m as stored\r\n\n".utf8))
    }

    @Test func jsonHasEveryField() throws {
        let cli = try seeded()
        defer { cli.cleanUp() }
        let note = try cli.note(Self.first)
        #expect(note["id"] as? String == Self.first)
        #expect(note["title"] as? String == "Twin")
        #expect(note["body"] as? String == "first twin\n")
        #expect(note["tags"] as? [String] == ["a", "b"])
        #expect(note["isFavorite"] as? Bool == true)
        #expect(note["notebook"] as? String == "home")
        #expect(note["createdAt"] as? String == "2025-05-05T05:05:05.005Z")
        #expect(note["modifiedAt"] as? String == "2025-06-06T06:06:06.006Z")
        #expect(note["deletedAt"] == nil)
        #expect(note["syncState"] as? String == "pending")
        #expect((note["headRev"] as? String)?.count == 64)
        #expect(note["snippet"] == nil)
    }

    @Test func notesAreFoundByFullIdUniquePrefixOrExactTitle() throws {
        let cli = try seeded()
        defer { cli.cleanUp() }
        for reference in [Self.third, Self.third.uppercased(), "ef", "ef000000-0000", "Unique"] {
            #expect(try cli.note(reference)["id"] as? String == Self.third, "\(reference)")
        }
        #expect(try cli.note("abcd1")["id"] as? String == Self.first)
        let partialTitle = try cli.cn("show", "Uniq")
        #expect(partialTitle.status == 1, "a title must match exactly")
    }

    @Test func anAmbiguousPrefixIsAnErrorListingTheCandidates() throws {
        let cli = try seeded()
        defer { cli.cleanUp() }
        let result = try cli.cn("show", "abcd")
        #expect(result.status == 1)
        #expect(result.stdout.isEmpty)
        let lines = result.stderrLines
        #expect(lines.count == 3, "\(result.stderr)")
        #expect(lines.first?.hasPrefix("cloudnotes: \"abcd\" matches 2 notes") == true)
        #expect(lines.dropFirst().contains { $0.contains("abcd1234") && $0.contains("Twin") })
        #expect(lines.dropFirst().contains { $0.contains("abcd5678") && $0.contains("Twin") })
        #expect(!result.stderr.contains("ef000000"))
    }

    @Test func anAmbiguousTitleIsAnErrorListingTheCandidates() throws {
        let cli = try seeded()
        defer { cli.cleanUp() }
        let result = try cli.cn("show", "Twin")
        #expect(result.status == 1)
        #expect(result.stderrLines.count == 3)
        #expect(result.stderr.contains("abcd1234") && result.stderr.contains("abcd5678"))
    }

    @Test func anUnknownNoteIsAOneLineUserError() throws {
        let cli = try seeded()
        defer { cli.cleanUp() }
        for reference in ["nothing", "0123", "99999999-0000-4000-8000-000000000009"] {
            let result = try cli.cn("show", reference)
            #expect(result.status == 1)
            #expect(result.stderrLines.count == 1)
            #expect(result.stderr.hasPrefix("cloudnotes: no note matches"))
        }
    }

    @Test func onATerminalShowPrintsTitleDetailsAndBody() throws {
        let cli = try seeded()
        defer { cli.cleanUp() }
        #expect(try cli.cn("rm", Self.first).status == 0)
        let result = try cli.inTerminal("show", Self.first, environment: ["NO_COLOR": "1"])
        #expect(result.status == 0)
        let lines = result.stdout.split(separator: "\r\n", omittingEmptySubsequences: false).map(String.init)
        #expect(lines.count >= 6, "\(lines)")
        guard lines.count >= 6 else { return }
        #expect(lines[0] == "Twin")
        #expect(lines[1] == "id \(Self.first)  notebook home  ↻ pending  ★ favorite  in trash")
        #expect(lines[2] == "#a #b")
        #expect(lines[3].hasPrefix("created 2025-05-05T05:05:05.005Z  modified "))
        #expect(lines[4] == "")
        #expect(lines[5] == "first twin")
    }
}
