import Foundation
import NotesTestSupport
import Testing

/// A shared notebook under a random schedule (issue 24): an owner and a read-write member edit
/// and add notes, a read-only member tries to, and syncs of each are killed with SIGKILL at random
/// moments. After every member has synced, all three hold the same notes, no word either writer
/// typed is lost, and nothing the read-only member tried is anywhere. Seeded: `CLOUDNOTES_SEED`
/// replays a failure's schedule (the seed is printed).
@Suite("share: three accounts converge on a shared notebook through random edits and killed syncs")
struct ShareConvergenceCLITests {
    typealias Person = ShareMembersCLITests.Person

    struct Member {
        let name: String
        let person: Person
    }

    /// Each note's body as this member has it, by title (`list --json`, then `show --json`).
    static func notes(_ runner: CLIRunner, _ member: Member) throws -> [String: String] {
        let listed = try runner.cn(at: member.person.directory, "list", "--json")
        #expect(listed.status == 0, "\(member.name): \(listed.stderr)")
        let rows = (try JSONSerialization.jsonObject(with: listed.stdoutData) as? [[String: Any]]) ?? []
        var notes: [String: String] = [:]
        for row in rows {
            guard let id = row["id"] as? String, let title = row["title"] as? String else { continue }
            let shown = try runner.cn(at: member.person.directory, "show", id, "--json")
            let json = (try JSONSerialization.jsonObject(with: shown.stdoutData) as? [String: Any]) ?? [:]
            notes[title] = json["body"] as? String ?? ""
        }
        return notes
    }

    @Test("random edits, adds and refused edits, with killed syncs, converge with no word lost")
    func convergesUnderRandomSchedule() throws {
        let runner = try CLIRunner()
        defer { runner.cleanUp() }
        let seed = SeededRandom.seed(default: 24_2026)
        var random = SeededRandom(seed: seed)
        print("share convergence seed \(seed)")
        // Three accounts, each with a cloud folder of its own.
        var members: [Member] = []
        for name in ["Ana", "Bo", "Cy"] {
            let directory = runner.device(name.lowercased())
            let cloud = runner.home.appendingPathComponent("cloud-\(name.lowercased())").path
            #expect(try runner.cn(at: directory, "sync", "init", cloud).status == 0)
            members.append(Member(name: name, person: try ShareMembersCLITests.person(runner, name)))
        }
        let (ana, bo, cy) = (members[0], members[1], members[2])
        #expect(try runner.cn(at: ana.person.directory, "notebook", "create", "Trip").status == 0)
        var words: [String: [String]] = [:]
        for index in 0..<3 {
            let title = "N\(index)"
            #expect(
                try runner.cn(at: ana.person.directory, "add", title, "--body", "w-start\(index)", "--notebook", "Trip")
                    .status == 0)
            words[title] = ["w-start\(index)"]
        }
        let place = runner.home.appendingPathComponent("shared-trip").path
        #expect(try runner.cn(at: ana.person.directory, "share", "create", "Trip", place).status == 0)
        for (member, role) in [(bo, "read-write"), (cy, "read-only")] {
            #expect(
                try runner.cn(at: ana.person.directory, "share", "invite", place, member.person.code, "--role", role)
                    .status == 0)
            let accepted = try runner.cn(
                at: member.person.directory, "share", "accept", place, "--fingerprint", ana.person.fingerprint)
            #expect(accepted.status == 0, "\(accepted.stderr)")
        }

        var killed = 0
        for step in 0..<36 {
            let word = "w\(step)x\(random.below(1000))"
            switch random.below(10) {
            case 0..<4:
                // A writer appends a word to a note it has (what it has may be behind).
                let writer = [ana, bo][random.below(2)]
                let held = try Self.notes(runner, writer)
                let titles = held.keys.sorted()
                guard !titles.isEmpty else { continue }
                let title = titles[random.below(titles.count)]
                let edited = try runner.cn(
                    at: writer.person.directory, "edit", title, "--body", (held[title] ?? "") + "\n" + word)
                #expect(edited.status == 0, "seed \(seed) step \(step): \(writer.name) edit: \(edited.stderr)")
                words[title, default: []].append(word)
            case 4:
                let writer = [ana, bo][random.below(2)]
                let title = "T\(step)"
                let added = try runner.cn(
                    at: writer.person.directory, "add", title, "--body", word, "--notebook", "Trip")
                #expect(added.status == 0, "seed \(seed) step \(step): \(writer.name) add: \(added.stderr)")
                words[title] = [word]
            case 5:
                // The read-only member is refused, in one line, and nothing changes.
                let refused = try runner.cn(at: cy.person.directory, "edit", "N0", "--body", "forged " + word)
                #expect(refused.status == 1 && refused.stderr.contains("read-only"), "seed \(seed) step \(step)")
            case 6, 7:
                let member = members[random.below(3)]
                if try runner.killedSync(member.person.directory, after: 5_000 + random.below(250_000)) { killed += 1 }
            default:
                let member = members[random.below(3)]
                let synced = try runner.cn(at: member.person.directory, "sync")
                #expect(synced.status == 0, "seed \(seed) step \(step): \(member.name) sync: \(synced.stderr)")
            }
        }
        print("share convergence seed \(seed): \(killed) sync(s) killed")

        // Everyone syncs until what they hold no longer changes.
        for _ in 0..<3 {
            for member in members {
                let synced = try runner.cn(at: member.person.directory, "sync")
                #expect(synced.status == 0, "seed \(seed): \(member.name) final sync: \(synced.stderr)")
            }
        }
        let held = try members.map { try Self.notes(runner, $0) }
        #expect(held[0] == held[1] && held[1] == held[2], "seed \(seed): the members differ: \(held)")
        #expect(Set(held[0].keys) == Set(words.keys), "seed \(seed): notes \(held[0].keys.sorted())")
        for (title, typed) in words {
            let body = held[0][title] ?? ""
            for word in typed {
                #expect(body.contains(word), "seed \(seed): \(word) lost from \(title): \(body)")
            }
        }
        #expect(!held.contains { $0.values.contains { $0.contains("forged") } }, "seed \(seed)")
    }
}
