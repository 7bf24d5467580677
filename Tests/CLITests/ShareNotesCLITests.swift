import Foundation
import NotesTestSupport
import Testing

/// A notebook shared with other people (issue 24): `share create` moves it into a place, members
/// who accept receive it, a read-write member's edits reach the owner, a read-only member is
/// refused, and a removed member reads nothing written after the removal.
@Suite("share: a notebook's notes through a shared place")
struct ShareNotesCLITests {
    typealias Person = ShareMembersCLITests.Person

    static func show(_ runner: CLIRunner, _ person: Person, _ title: String) throws -> String {
        let result = try runner.cn(at: person.directory, "show", title)
        #expect(result.status == 0, "\(result.stderr)")
        return result.stdout
    }

    static func sync(_ runner: CLIRunner, _ person: Person) throws -> CLIRunner.Result {
        let result = try runner.cn(at: person.directory, "sync")
        #expect(result.status == 0, "\(result.stderr)")
        return result
    }

    @Test("create, accept, edit both ways, read-only refused, removal locks out what comes after")
    func shareANotebook() throws {
        let runner = try CLIRunner()
        defer { runner.cleanUp() }
        let (ana, bo, cy) = (
            try ShareMembersCLITests.person(runner, "Ana"), try ShareMembersCLITests.person(runner, "Bo"),
            try ShareMembersCLITests.person(runner, "Cy")
        )
        #expect(try runner.cn(at: ana.directory, "notebook", "create", "Trip").status == 0)
        for (title, body) in [("Packing", "socks"), ("Plan", "day 1: the coast")] {
            #expect(try runner.cn(at: ana.directory, "add", title, "--body", body, "--notebook", "Trip").status == 0)
        }
        #expect(try runner.cn(at: ana.directory, "add", "Diary", "--body", "private thoughts").status == 0)
        let place = runner.home.appendingPathComponent("shared-trip").path
        let defaultNotebook = try runner.cn(at: ana.directory, "share", "create", "notes", place)
        #expect(defaultNotebook.status == 1 && defaultNotebook.stderr.contains("default notebook"))
        #expect(!FileManager.default.fileExists(atPath: place + "/container.json"))
        let created = try runner.cn(at: ana.directory, "share", "create", "Trip", place)
        #expect(created.status == 0 && created.stdout.contains("2 note(s)"), "\(created.stdout)\(created.stderr)")
        // The notebook keeps its name and notes on the owner's device, marked shared.
        let notebooks = try runner.cn(at: ana.directory, "notebooks").stdout
        #expect(notebooks.contains("Trip") && notebooks.contains("2  shared by you"), "\(notebooks)")

        // The place, or the notebook by its name (case aside), names the share.
        for (person, role, share) in [(bo, "read-write", place), (cy, "read-only", "trip")] {
            let invited = try runner.cn(at: ana.directory, "share", "invite", share, person.code, "--role", role)
            #expect(invited.status == 0 && invited.stdout.contains("share accept \(place)"), "\(invited.stderr)")
            let accepted = try runner.cn(
                at: person.directory, "share", "accept", place, "--fingerprint", ana.fingerprint)
            #expect(
                accepted.status == 0 && accepted.stdout.contains("received 4"), "\(accepted.stdout)\(accepted.stderr)")
            #expect(try Self.show(runner, person, "Plan").contains("day 1: the coast"))
            // The notebook says who shares it and the role here.
            let listed = try runner.cn(at: person.directory, "notebooks").stdout
            let trip = listed.split(separator: "\n").first { $0.hasPrefix("Trip") } ?? ""
            #expect(trip.contains("shared by Ana (\(ana.fingerprint)) · \(role)"), "\(listed)")
            // Nothing outside the notebook went to the place.
            #expect(try runner.cn(at: person.directory, "show", "Diary").status == 1)
        }
        // No plaintext in the place.
        let files = FileManager.default.enumerator(atPath: place)?.compactMap { $0 as? String } ?? []
        for file in files where file.hasSuffix(".json") {
            let text = (try? String(contentsOfFile: place + "/" + file, encoding: .isoLatin1)) ?? ""
            #expect(!text.contains("socks") && !text.contains("coast"), "\(file) holds plaintext")
        }

        // Bo edits; Ana receives it.
        #expect(try runner.cn(at: bo.directory, "edit", "Packing", "--body", "socks, hat").status == 0)
        _ = try Self.sync(runner, bo)
        _ = try Self.sync(runner, ana)
        #expect(try Self.show(runner, ana, "Packing").contains("socks, hat"))
        // Ana's history names the person whose device wrote it, not only the device.
        let history = try runner.cn(at: ana.directory, "history", "Packing", "--json")
        let revisions = (try JSONSerialization.jsonObject(with: history.stdoutData) as? [[String: Any]]) ?? []
        #expect(revisions.contains { ($0["deviceName"] as? String)?.hasPrefix("Bo · ") == true }, "\(history.stdout)")

        // Cy may only read: one line naming the owner, exit 1, nothing changed.
        let refused = try runner.cn(at: cy.directory, "edit", "Packing", "--body", "gone")
        #expect(refused.status == 1 && refused.stderr.contains("read-only by Ana"), "\(refused.stderr)")
        let added = try runner.cn(at: cy.directory, "add", "Mine", "--body", "x", "--notebook", "Trip")
        #expect(added.status == 1 && added.stderr.contains("read-only"), "\(added.stderr)")
        #expect(try Self.show(runner, cy, "Packing").contains("socks") == true)

        // Ana removes Bo, then writes; Cy reads it, Bo does not, and Bo is told.
        let unknown = try runner.cn(at: ana.directory, "share", "remove", "Groceries", "Bo")
        #expect(unknown.status == 1 && unknown.stderr.contains("Groceries"), "\(unknown.stderr)")
        let removed = try runner.cn(at: ana.directory, "share", "remove", "Trip", "Bo")
        #expect(removed.status == 0 && removed.stdout.contains("stays with them"), "\(removed.stderr)")
        #expect(try runner.cn(at: ana.directory, "edit", "Plan", "--body", "day 2: after Bo left").status == 0)
        _ = try Self.sync(runner, ana)
        _ = try Self.sync(runner, cy)
        #expect(try Self.show(runner, cy, "Plan").contains("day 2: after Bo left"))
        let boSync = try runner.cn(at: bo.directory, "sync")
        #expect(boSync.stderr.contains("no longer a member"), "\(boSync.stderr)")
        #expect(try Self.show(runner, bo, "Plan").contains("day 1: the coast"))
        #expect(try runner.cn(at: bo.directory, "edit", "Plan", "--body", "x").status == 1)

        // `status` shows each share beside the cloud folder: the notebook, the role, its state.
        for (person, role, state) in [(cy, "read-only", "synced"), (bo, "none", "removed")] {
            let status = try runner.cn(at: person.directory, "status", "--json")
            #expect(status.status == 0, "\(status.stderr)")
            let json = (try JSONSerialization.jsonObject(with: status.stdoutData) as? [String: Any]) ?? [:]
            let share = (json["shares"] as? [[String: Any]])?.first ?? [:]
            #expect(share["notebook"] as? String == "Trip" && share["role"] as? String == role, "\(share)")
            #expect((share["state"] as? String)?.hasPrefix(state) == true, "\(share)")
        }
        #expect(try runner.cn(at: cy.directory, "status").stdout.contains("shared     \"Trip\""))
    }

    @Test(
        "a shared notebook keeps what a private one does: attachments, links, conflicts named by person, trash, search, compaction, export"
    )
    func everythingElseWorksShared() throws {
        let runner = try CLIRunner()
        defer { runner.cleanUp() }
        let (ana, bo) = (try ShareMembersCLITests.person(runner, "Ana"), try ShareMembersCLITests.person(runner, "Bo"))
        #expect(try runner.cn(at: ana.directory, "notebook", "create", "Trip").status == 0)
        for (title, body) in [("Plan", "day 1: the coast\nday 2: hills\n"), ("Packing", "socks")] {
            #expect(try runner.cn(at: ana.directory, "add", title, "--body", body, "--notebook", "Trip").status == 0)
        }
        // An attachment over one chunk (rule 15): its chunks go to the place, sealed, unsigned.
        var random = SeededRandom(seed: 2424)
        let photo = Data((0..<300_000).map { _ in UInt8(truncatingIfNeeded: random.next()) })
        let photoPath = runner.home.appendingPathComponent("map.bin")
        try photo.write(to: photoPath)
        #expect(try runner.cn(at: ana.directory, "attach", "Plan", photoPath.path).status == 0)
        let place = runner.home.appendingPathComponent("shared-trip").path
        #expect(try runner.cn(at: ana.directory, "share", "create", "Trip", place).status == 0)
        #expect(
            try runner.cn(at: ana.directory, "share", "invite", "Trip", bo.code, "--role", "read-write").status == 0)
        #expect(try runner.cn(at: bo.directory, "share", "accept", place, "--fingerprint", ana.fingerprint).status == 0)
        let saved = runner.home.appendingPathComponent("saved.bin")
        #expect(try runner.cn(at: bo.directory, "attachment", "Plan", "map.bin", "--output", saved.path).status == 0)
        #expect(try Data(contentsOf: saved) == photo)

        // A link written by Bo is a backlink on Ana's device; search finds the shared notes.
        #expect(
            try runner.cn(at: bo.directory, "add", "Day 3", "--body", "as in [[Plan]]", "--notebook", "Trip").status
                == 0)
        _ = try Self.sync(runner, bo)
        _ = try Self.sync(runner, ana)
        #expect(try runner.cn(at: ana.directory, "backlinks", "Plan").stdout.contains("Day 3"))
        #expect(try runner.cn(at: bo.directory, "search", "socks").stdout.contains("Packing"))

        // Both change the same line: a conflict, both versions kept, the other side named by person.
        #expect(
            try runner.cn(at: ana.directory, "edit", "Plan", "--body", "day 1: the sea\nday 2: hills\n").status == 0)
        #expect(
            try runner.cn(at: bo.directory, "edit", "Plan", "--body", "day 1: the lake\nday 2: hills\n").status == 0)
        _ = try Self.sync(runner, bo)
        _ = try Self.sync(runner, ana)
        let conflicts = try runner.cn(at: ana.directory, "conflicts", "--json")
        let listed = (try JSONSerialization.jsonObject(with: conflicts.stdoutData) as? [[String: Any]]) ?? []
        let versions = (listed.first?["versions"] as? [[String: Any]]) ?? []
        #expect(listed.count == 1 && versions.count == 2, "\(conflicts.stdout)")
        #expect(versions.contains { ($0["deviceName"] as? String)?.hasPrefix("Bo · ") == true }, "\(conflicts.stdout)")
        let plan = try Self.show(runner, ana, "Plan")
        #expect(plan.contains("the sea") && plan.contains("the lake"), "\(plan)")

        // Bo trashes a note; Ana sees it gone, restores it, and Bo has it back.
        #expect(try runner.cn(at: bo.directory, "rm", "Packing").status == 0)
        _ = try Self.sync(runner, bo)
        _ = try Self.sync(runner, ana)
        #expect(!(try runner.cn(at: ana.directory, "list").stdout.contains("Packing")))
        #expect(try runner.cn(at: ana.directory, "restore", "Packing").status == 0)
        _ = try Self.sync(runner, ana)
        _ = try Self.sync(runner, bo)
        #expect(try Self.show(runner, bo, "Packing").contains("socks"))

        // Compaction writes a signed snapshot into the place; someone invited afterwards reads
        // the whole notebook from it, the attachment too, and exports it.
        let compacted = try runner.cn(at: ana.directory, "sync", "--compact")
        #expect(
            compacted.status == 0 && compacted.stdout.contains("snapshot written"),
            "\(compacted.stdout)\(compacted.stderr)")
        let cy = try ShareMembersCLITests.person(runner, "Cy")
        #expect(try runner.cn(at: ana.directory, "share", "invite", "Trip", cy.code, "--role", "read-only").status == 0)
        #expect(try runner.cn(at: cy.directory, "share", "accept", place, "--fingerprint", ana.fingerprint).status == 0)
        #expect(try Self.show(runner, cy, "Plan").contains("the lake"))
        #expect(
            try runner.cn(at: cy.directory, "attachment", "Plan", "map.bin", "--output", saved.path + "2").status == 0)
        #expect(try Data(contentsOf: URL(fileURLWithPath: saved.path + "2")) == photo)
        let exported = runner.home.appendingPathComponent("export")
        #expect(try runner.cn(at: cy.directory, "export", exported.path).status == 0)
        let files = FileManager.default.enumerator(atPath: exported.path)?.compactMap { $0 as? String } ?? []
        #expect(files.contains("Trip/Day 3.md") && files.contains("Trip/Packing.md"), "\(files)")
    }

    @Test("the account's other device follows its share: joins the place and moves its copy of the notebook in")
    func anotherDeviceFollowsTheShare() throws {
        let runner = try CLIRunner()
        defer { runner.cleanUp() }
        // Ana's two devices share an encrypted cloud folder, so they are one person (one identity).
        let (_, a1, a2) = try runner.devicesSharingACloudFolder(encrypted: true)
        let code1 = try runner.cn(at: a1, "share", "id", "--name", "Ana", "--json")
        let code2 = try runner.cn(at: a2, "share", "id", "--json")
        #expect(code1.status == 0 && code1.stdout == code2.stdout, "\(code1.stdout) \(code2.stdout)\(code2.stderr)")
        #expect(try runner.cn(at: a1, "notebook", "create", "Trip").status == 0)
        #expect(try runner.cn(at: a1, "add", "Packing", "--body", "socks", "--notebook", "Trip").status == 0)
        #expect(try runner.cn(at: a1, "sync").status == 0)
        #expect(try runner.cn(at: a2, "sync").status == 0)
        #expect(try runner.cn(at: a2, "show", "Packing").stdout.contains("socks"))

        let place = runner.home.appendingPathComponent("shared-trip").path
        #expect(try runner.cn(at: a1, "share", "create", "Trip", place).status == 0)
        #expect(try runner.cn(at: a1, "sync").status == 0)
        // The second device's next sync takes the setting, joins the place, moves its copy in.
        let followed = try runner.cn(at: a2, "sync")
        #expect(
            followed.status == 0 && followed.stdout.contains("shared notebook \"Trip\""),
            "\(followed.stdout)\(followed.stderr)")
        let notebooks = try runner.cn(at: a2, "notebooks").stdout
        #expect(notebooks.split(separator: "\n").filter { $0.hasPrefix("Trip") }.count == 1, "\(notebooks)")
        #expect(notebooks.contains("Trip") && notebooks.contains("shared by you"), "\(notebooks)")
        #expect(try runner.cn(at: a2, "share", "list").stdout.contains(place))

        // An edit on the second device goes to the place, and reaches the first and a member,
        // whose own second device (one encrypted cloud folder: one identity) follows too.
        let (bo, bo2) = (runner.device("bo"), runner.device("bo2"))
        let boCloud = runner.home.appendingPathComponent("cloud-bo").path
        let passphrase = CLIRunner.passphraseEnvironment(CLIRunner.passphrase)
        for (device, extra) in [(bo, ["--encrypt"]), (bo2, [])] {
            let bound = try runner.run(
                ["sync", "init", boCloud, "--data-dir", device.path] + extra, environment: passphrase)
            #expect(bound.status == 0, "\(bound.stderr)")
        }
        let boCode = try runner.cn(at: bo, "share", "id", "--name", "Bo", "--json").stdoutData
        let code = ((try JSONSerialization.jsonObject(with: boCode) as? [String: String]) ?? [:])["code"] ?? ""
        let ana = try runner.cn(at: a1, "share", "id", "--json").stdoutData
        let fingerprint =
            ((try JSONSerialization.jsonObject(with: ana) as? [String: String]) ?? [:])["fingerprint"] ?? ""
        #expect(try runner.cn(at: a1, "share", "invite", place, code, "--role", "read-only").status == 0)
        #expect(try runner.cn(at: bo, "share", "accept", place, "--fingerprint", fingerprint).status == 0)
        #expect(try runner.cn(at: bo, "sync").status == 0)
        #expect(try runner.cn(at: a2, "edit", "Packing", "--body", "socks, hat").status == 0)
        #expect(try runner.cn(at: a2, "sync").status == 0)
        #expect(try runner.cn(at: a1, "sync").status == 0)
        #expect(try runner.cn(at: a1, "show", "Packing").stdout.contains("socks, hat"))
        for device in [bo, bo2] {
            #expect(try runner.cn(at: device, "sync").status == 0)
            #expect(try runner.cn(at: device, "show", "Packing").stdout.contains("socks, hat"))
            #expect(try runner.cn(at: device, "notebooks").stdout.contains("read-only"))
        }
        // The member's second device is read-only there too.
        #expect(try runner.cn(at: bo2, "edit", "Packing", "--body", "x").status == 1)
    }

    @Test("a shared notebook in a bucket (SeaweedFS on loopback): create, accept, edits both ways")
    func shareInABucket() async throws {
        let runner = try CLIRunner()
        defer { runner.cleanUp() }
        let place = try await runner.useLoopbackBucket()
        let (ana, bo) = (try ShareMembersCLITests.person(runner, "Ana"), try ShareMembersCLITests.person(runner, "Bo"))
        #expect(try runner.cn(at: ana.directory, "notebook", "create", "Trip").status == 0)
        #expect(try runner.cn(at: ana.directory, "add", "Plan", "--body", "day 1", "--notebook", "Trip").status == 0)
        let created = try runner.cn(at: ana.directory, "share", "create", "Trip", place)
        #expect(created.status == 0, "\(created.stderr)")
        #expect(
            try runner.cn(at: ana.directory, "share", "invite", "Trip", bo.code, "--role", "read-write").status == 0)
        let accepted = try runner.cn(at: bo.directory, "share", "accept", place, "--fingerprint", ana.fingerprint)
        #expect(accepted.status == 0, "\(accepted.stderr)")
        #expect(try Self.show(runner, bo, "Plan").contains("day 1"))
        #expect(try runner.cn(at: bo.directory, "edit", "Plan", "--body", "day 1, then day 2").status == 0)
        _ = try Self.sync(runner, bo)
        _ = try Self.sync(runner, ana)
        #expect(try Self.show(runner, ana, "Plan").contains("then day 2"))
        #expect(try runner.cn(at: ana.directory, "edit", "Plan", "--body", "day 1, 2 and 3").status == 0)
        _ = try Self.sync(runner, ana)
        _ = try Self.sync(runner, bo)
        #expect(try Self.show(runner, bo, "Plan").contains("2 and 3"))
    }
}
