import Foundation
import Testing

/// `edit` in $EDITOR while another writer changes the note: the two are merged as sync merges
/// them, and a merge that keeps conflict markers is flagged, listed by `conflicts`, never silent.
@Suite struct EditMergeTests {
    /// An editor script that lets another writer save `other` first, then writes `mine`.
    func racingEditor(_ cli: CLIRunner, id: String, other: String, mine: String) throws -> String {
        try cli.script(
            "race.sh",
            """
            '\(CLIRunner.binary.path)' edit \(id) --body '\(other)' --data-dir '\(cli.dataDirectory.path)'
            printf 'Busy\\n\\n\(mine)' > "$1"
            """)
    }

    @Test func aConflictingChangeWhileEditingIsMergedFlaggedAndListed() throws {
        let cli = try CLIRunner()
        defer { cli.cleanUp() }
        let id = try cli.add("Busy", body: "start")
        let editor = try racingEditor(cli, id: id, other: "other writer", mine: "mine")
        let result = try cli.cn("edit", id, environment: ["EDITOR": editor])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("flagged as a conflict"), "\(result.stderr)")
        let body = try #require(try cli.note(id)["body"] as? String)
        #expect(body.contains("<<<<<<< ") && body.contains("mine\n") && body.contains("other writer\n"), "\(body)")
        #expect(try cli.note(id)["syncState"] as? String == "conflict")
        let conflicts = try cli.cn("conflicts")
        #expect(conflicts.stdout.contains(id), "\(conflicts.stdout)")
        #expect(!conflicts.stdout.contains("no conflicts"))
        // Both versions are in history, and keeping one closes the conflict.
        #expect(try #require(try cli.json("history", id, "--json") as? [[String: Any]]).count == 4)
        #expect(try cli.cn("resolve", id, "--keep", "mine").status == 0)
        #expect(try cli.note(id)["body"] as? String == "mine")
        #expect(try cli.cn("conflicts").stdout == "no conflicts\n")
    }

    @Test func aChangeToAnotherLineWhileEditingMergesCleanly() throws {
        let cli = try CLIRunner()
        defer { cli.cleanUp() }
        let id = try cli.add("Busy", body: "one\ntwo\nthree")
        let editor = try racingEditor(
            cli, id: id, other: "one\ntwo\nthree from the other", mine: "one from me\ntwo\nthree")
        let result = try cli.cn("edit", id, environment: ["EDITOR": editor])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("merged with the other change"), "\(result.stderr)")
        #expect(try cli.note(id)["body"] as? String == "one from me\ntwo\nthree from the other")
        #expect(try cli.cn("conflicts").stdout == "no conflicts\n")
    }
}
