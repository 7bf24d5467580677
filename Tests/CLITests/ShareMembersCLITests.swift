import Foundation
import NotesTestSupport
import Testing

/// `cloudnotes share init/invite/accept/list/remove/leave` (issue 24, "Invite, accept, roles"):
/// three accounts, each its own data directory, meeting at a shared place (a folder).
@Suite("share: a shared place's members from the CLI")
struct ShareMembersCLITests {
    struct Person {
        let directory: URL
        let code: String
        let fingerprint: String
    }

    static func person(_ runner: CLIRunner, _ name: String) throws -> Person {
        let directory = runner.device(name.lowercased())
        let result = try runner.cn(at: directory, "share", "id", "--name", name, "--json")
        #expect(result.status == 0, "\(result.stderr)")
        let json = (try JSONSerialization.jsonObject(with: result.stdoutData) as? [String: String]) ?? [:]
        return Person(directory: directory, code: json["code"] ?? "", fingerprint: json["fingerprint"] ?? "")
    }

    static func members(_ runner: CLIRunner, _ person: Person, _ place: String) throws -> [String: [String: String]] {
        let result = try runner.cn(at: person.directory, "share", "list", place, "--json")
        #expect(result.status == 0, "\(result.stderr)")
        let shares = (try JSONSerialization.jsonObject(with: result.stdoutData) as? [[String: Any]]) ?? []
        let members = shares.first?["members"] as? [[String: String]] ?? []
        return Dictionary(members.map { ($0["name"] ?? "?", $0) }, uniquingKeysWith: { first, _ in first })
    }

    @Test("invite, accept with the owner's fingerprint, list, remove, leave; a rollback is refused")
    func inviteAcceptRemove() throws {
        let runner = try CLIRunner()
        defer { runner.cleanUp() }
        let (ana, bo, cy) = (
            try Self.person(runner, "Ana"), try Self.person(runner, "Bo"), try Self.person(runner, "Cy")
        )
        let place = runner.home.appendingPathComponent("shared").path
        let created = try runner.cn(at: ana.directory, "share", "init", place)
        #expect(created.status == 0 && created.stdout.contains("owned by Ana"), "\(created.stderr)")
        let invited = try runner.cn(at: ana.directory, "share", "invite", place, bo.code, "--role", "read-write")
        #expect(invited.status == 0, "\(invited.stderr)")
        #expect(
            invited.stdout.contains("share accept \(place) --fingerprint \"\(ana.fingerprint)\""), "\(invited.stdout)")
        #expect(try runner.cn(at: ana.directory, "share", "invite", place, cy.code, "--role", "read-only").status == 0)

        // Bo: without the fingerprint (not a terminal) nothing is accepted; with a wrong one neither.
        let unasked = try runner.cn(at: bo.directory, "share", "accept", place)
        #expect(unasked.status == 1 && unasked.stderr.contains("--fingerprint"), "\(unasked.stderr)")
        let wrong = try runner.cn(at: bo.directory, "share", "accept", place, "--fingerprint", cy.fingerprint)
        #expect(wrong.status == 1 && wrong.stderr.contains("not the fingerprint you gave"), "\(wrong.stderr)")
        #expect(try Self.members(runner, ana, place)["Bo"]?["status"] == "invited")
        let accepted = try runner.cn(at: bo.directory, "share", "accept", place, "--fingerprint", ana.fingerprint)
        #expect(accepted.status == 0 && accepted.stdout.contains("as read-write"), "\(accepted.stderr)")
        let listed = try Self.members(runner, ana, place)
        #expect(listed["Ana"]?["role"] == "owner" && listed["Bo"]?["status"] == "accepted")
        #expect(listed["Cy"]?["role"] == "read-only" && listed["Cy"]?["status"] == "invited")

        // Someone not invited cannot accept; a read-only member cannot remove anyone.
        let dee = try Self.person(runner, "Dee")
        let stranger = try runner.cn(at: dee.directory, "share", "accept", place, "--fingerprint", ana.fingerprint)
        #expect(stranger.status == 1 && stranger.stderr.contains("no invitation for you"), "\(stranger.stderr)")
        let byCy = try runner.cn(at: cy.directory, "share", "remove", place, "Bo")
        #expect(byCy.status == 1 && byCy.stderr.contains("only the owner"), "\(byCy.stderr)")

        // Cy reads the list (and so remembers entry 3); Ana removes Bo; Cy sees it.
        #expect(try Self.members(runner, cy, place)["Bo"]?["status"] == "accepted")
        let removed = try runner.cn(at: ana.directory, "share", "remove", place, bo.fingerprint)
        #expect(removed.status == 0 && removed.stdout.contains("stays with them"), "\(removed.stderr)")
        #expect(try Self.members(runner, cy, place)["Bo"]?["status"] == "removed")

        // The removal's file deleted: Cy, who saw it, refuses the list rather than show Bo back.
        let entries = try FileManager.default.contentsOfDirectory(atPath: place + "/members").sorted()
        try FileManager.default.removeItem(atPath: place + "/members/" + (entries.last ?? "?"))
        let rolledBack = try runner.cn(at: cy.directory, "share", "list", place)
        #expect(rolledBack.status == 1 && rolledBack.stderr.contains("rolled back"), "\(rolledBack.stderr)")

        // Someone never invited cannot leave either.
        let left = try runner.cn(at: dee.directory, "share", "leave", place)
        #expect(left.status == 1, "Dee was never invited: \(left.stdout)")
    }

    @Test("a bad identity code, role or place is one line and exit 1")
    func badInput() throws {
        let runner = try CLIRunner()
        defer { runner.cleanUp() }
        let ana = try Self.person(runner, "Ana")
        let place = runner.home.appendingPathComponent("shared").path
        #expect(try runner.cn(at: ana.directory, "share", "init", place).status == 0)
        let code = try runner.cn(at: ana.directory, "share", "invite", place, "cnid1.nope.nope")
        #expect(code.status == 1 && code.stderr.contains("not an identity code"), "\(code.stderr)")
        let bo = try Self.person(runner, "Bo")
        let role = try runner.cn(at: ana.directory, "share", "invite", place, bo.code, "--role", "owner")
        #expect(role.status == 1 && role.stderr.contains("a role is"), "\(role.stderr)")
        let again = try runner.cn(at: ana.directory, "share", "init", place)
        #expect(again.status == 1 && again.stderr.contains("not empty"), "\(again.stderr)")
        let elsewhere = runner.home.appendingPathComponent("nothing").path
        let none = try runner.cn(at: bo.directory, "share", "accept", elsewhere, "--fingerprint", ana.fingerprint)
        #expect(none.status == 1 && none.stderr.contains("holds no shared place"), "\(none.stderr)")
        for result in [code, role, again, none] {
            #expect(result.stderr.split(separator: "\n").count == 1, "\(result.stderr)")
        }
    }

    @Test("leave: the member's signed answer shows as left to the owner")
    func leave() throws {
        let runner = try CLIRunner()
        defer { runner.cleanUp() }
        let (ana, bo) = (try Self.person(runner, "Ana"), try Self.person(runner, "Bo"))
        let place = runner.home.appendingPathComponent("shared").path
        #expect(try runner.cn(at: ana.directory, "share", "init", place).status == 0)
        #expect(try runner.cn(at: ana.directory, "share", "invite", place, bo.code).status == 0)
        #expect(try runner.cn(at: bo.directory, "share", "accept", place, "--fingerprint", ana.fingerprint).status == 0)
        let left = try runner.cn(at: bo.directory, "share", "leave", place)
        #expect(left.status == 0 && left.stdout.contains("removes you"), "\(left.stderr)")
        #expect(try Self.members(runner, ana, place)["Bo"]?["status"] == "left")
        let everyone = try runner.cn(at: bo.directory, "share", "list", "--json")
        #expect(everyone.status == 0 && everyone.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "[\n\n]")
    }
}
