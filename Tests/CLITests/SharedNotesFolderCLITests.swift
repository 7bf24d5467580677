import Foundation
import NotesTestSupport
import Testing

/// The notes folder with a shared notebook (issue 26): its notes are files on a member's notes
/// folder, a file edited there reaches the other members through sync, and a read-only member's
/// edit is kept in the file, named, and not sent, while the rest of the folder stays in step.
@Suite struct SharedNotesFolderCLITests {
    typealias Person = ShareMembersCLITests.Person

    @Test func aSharedNotebooksFilesCarryEditsBetweenMembersAndAReadOnlyMembersEditStaysInTheFile() throws {
        let runner = try CLIRunner()
        defer { runner.cleanUp() }
        let files = FilesCLITests()
        let (ana, bo, cy) = (
            try ShareMembersCLITests.person(runner, "Ana"), try ShareMembersCLITests.person(runner, "Bo"),
            try ShareMembersCLITests.person(runner, "Cy")
        )
        #expect(try runner.cn(at: ana.directory, "notebook", "create", "Trip").status == 0)
        #expect(
            try runner.cn(at: ana.directory, "add", "Packing", "--body", "socks\nmap", "--notebook", "Trip").status == 0
        )
        let place = runner.home.appendingPathComponent("shared-trip").path
        #expect(try runner.cn(at: ana.directory, "share", "create", "Trip", place).status == 0)
        for (person, role) in [(bo, "read-write"), (cy, "read-only")] {
            #expect(
                try runner.cn(at: ana.directory, "share", "invite", "Trip", person.code, "--role", role).status == 0)
            let accepted = try runner.cn(
                at: person.directory, "share", "accept", place, "--fingerprint", ana.fingerprint)
            #expect(accepted.status == 0, "\(accepted.stderr)")
        }

        // Bo's notes folder holds the shared notebook's note; an edit there reaches Ana.
        let folderB = runner.home.appendingPathComponent("notes-bo").path
        let onB = try runner.cn(at: bo.directory, "files", "on", folderB)
        #expect(onB.status == 0, "\(onB.stderr)")
        #expect(files.text(folderB + "/Trip/Packing.md")?.contains("socks\nmap") == true, "\(files.files(folderB))")
        try files.shell(runner, in: folderB, "sed -i 's/^map$/map, and a hat (Bo)/' Trip/Packing.md")
        let passB = try runner.cn(at: bo.directory, "files", "sync")
        #expect(passB.status == 0 && passB.stdout.contains("edited Trip/Packing.md"), "\(passB.stdout)\(passB.stderr)")
        #expect(try runner.cn(at: bo.directory, "sync").status == 0)
        #expect(try runner.cn(at: ana.directory, "sync").status == 0)
        #expect(try ShareNotesCLITests.show(runner, ana, "Packing").contains("map, and a hat (Bo)"))

        // Cy may only read: the note is a file there too, with Bo's edit once synced.
        #expect(try runner.cn(at: cy.directory, "sync").status == 0)
        let folderC = runner.home.appendingPathComponent("notes-cy").path
        #expect(try runner.cn(at: cy.directory, "add", "Mine", "--body", "my own").status == 0)
        #expect(try runner.cn(at: cy.directory, "files", "on", folderC).status == 0)
        let packingC = folderC + "/Trip/Packing.md"
        #expect(files.text(packingC)?.contains("map, and a hat (Bo)") == true, "\(files.files(folderC))")
        // Cy edits the shared note's file and a note of their own in one go: the pass does not
        // stop at the refused edit, the own note's edit goes in, the shared file is kept as saved.
        try files.shell(
            runner, in: folderC,
            "sed -i 's/^socks$/socks (Cy)/' Trip/Packing.md && sed -i 's/^my own$/my own, edited/' notes/Mine.md")
        let passC = try runner.cn(at: cy.directory, "files", "sync")
        #expect(passC.status == 0, "\(passC.stderr)")
        #expect(passC.stdout.contains("edited notes/Mine.md"), "\(passC.stdout)")
        #expect(
            passC.stderr.contains("Trip/Packing.md is not read: its notebook is shared with you read-only by Ana"),
            "\(passC.stderr)")
        #expect(try ShareNotesCLITests.show(runner, cy, "Mine").contains("my own, edited"))
        #expect(!(try ShareNotesCLITests.show(runner, cy, "Packing").contains("socks (Cy)")))
        #expect(files.text(packingC)?.contains("socks (Cy)") == true, "the edit stays in the file")
        let status = try runner.cn(at: cy.directory, "files", "status")
        #expect(
            status.stdout.contains("not read: Trip/Packing.md: its notebook is shared with you read-only"),
            "\(status.stdout)")
        // Nothing of Cy's edit reaches Ana.
        #expect(try runner.cn(at: cy.directory, "sync").status == 0)
        #expect(try runner.cn(at: ana.directory, "sync").status == 0)
        #expect(!(try ShareNotesCLITests.show(runner, ana, "Packing").contains("socks (Cy)")))

        // Removing the file gives the note's text back rather than trashing a note Cy may only read.
        try files.shell(runner, in: folderC, "rm Trip/Packing.md")
        let restored = try runner.cn(at: cy.directory, "files", "sync")
        #expect(restored.status == 0, "\(restored.stderr)")
        #expect(files.text(packingC)?.contains("map, and a hat (Bo)") == true, "\(restored.stdout)")
        #expect(try runner.cn(at: cy.directory, "files", "status").stdout.contains("in step"))
    }
}
