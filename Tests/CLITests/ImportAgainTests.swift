import Foundation
import Glibc
import NotesTestSupport
import Testing

/// Importing a folder again updates the notes it imported before, files without an id
/// included: a re-run after an import killed part-way finishes the job instead of duplicating
/// it. Replay with CLOUDNOTES_SEED.
@Suite struct ImportAgainTests {
    /// `count` notes without ids: plain Markdown, front matter without an id, and JSON Lines.
    static func vault(_ cli: CLIRunner, count: Int) throws -> URL {
        let vault = cli.home.appendingPathComponent("vault")
        let fm = FileManager.default
        for index in 0..<count {
            let folder = vault.appendingPathComponent("Folder \(index % 7)")
            try fm.createDirectory(at: folder, withIntermediateDirectories: true)
            let text =
                index % 2 == 0
                ? "# Note \(index)\n\nbody \(index)\n" : "---\ntags: [t\(index % 5)]\n---\nbody of \(index)\n"
            try Data(text.utf8).write(to: folder.appendingPathComponent("note \(index).md"))
        }
        // Two equal lines: two notes, each found again.
        let lines = [#"{"title": "Line", "body": "same"}"#, #"{"title": "Line", "body": "same"}"#, #"{"body": "x"}"#]
        try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: vault.appendingPathComponent("lines.jsonl"))
        return vault
    }

    @Test func importingAFolderAgainChangesNothing() throws {
        let cli = try CLIRunner()
        defer { cli.cleanUp() }
        let vault = try Self.vault(cli, count: 20)
        #expect(try cli.cn("import", vault.path).status == 0)
        let again = try cli.cn("import", vault.path)
        #expect(again.status == 0, "\(again.stderr)")
        #expect(
            again.stderrLines.last == "imported 23 notes (0 new, 0 updated, 23 unchanged); skipped 0 files",
            "\(again.stderr)")
        // An edited file updates its note.
        try Data("# Note 0\n\nedited\n".utf8).write(to: vault.appendingPathComponent("Folder 0/note 0.md"))
        let edited = try cli.cn("import", vault.path)
        #expect(edited.stderrLines.last?.contains("(0 new, 1 updated, 22 unchanged)") == true, "\(edited.stderr)")
        #expect(try cli.ids().count == 23)
        #expect(try cli.note("Note 0")["body"] as? String == "edited")
    }

    /// `kill -9` at a seeded random moment of an import, then a full run: one note per file.
    @Test func aRerunAfterAKilledImportFinishesWithoutDuplicates() throws {
        let seed = SeededRandom.seed(default: 2222)
        var rng = SeededRandom(seed: seed)
        let cli = try CLIRunner()
        defer { cli.cleanUp() }
        let files = 3000
        let vault = try Self.vault(cli, count: files)
        for round in 0..<2 {
            let delay = 100_000 + rng.below(1_400_000)
            let process = Process()
            process.executableURL = CLIRunner.binary
            process.arguments = ["import", vault.path, "--data-dir", cli.dataDirectory.path]
            process.environment = [
                "HOME": cli.home.path, "XDG_CONFIG_HOME": cli.home.appendingPathComponent("xdg-config").path,
            ]
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            usleep(UInt32(delay))
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
            process.waitUntilExit()
            print(
                "seed \(seed): round \(round) killed after \(delay / 1000) ms: \(process.terminationReason == .uncaughtSignal ? "killed" : "finished")"
            )
        }
        let full = try cli.cn("import", vault.path)
        #expect(full.status == 0, "seed \(seed): \(full.stderr)")
        #expect(try cli.ids().count == files + 3, "seed \(seed): one note per file (and per JSON line)")
    }
}
