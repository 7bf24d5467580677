import Foundation
import Testing

@Suite struct CLIBasicsTests {
    @Test func addThenShowRoundTripsTheBodyBytesWhenPiped() throws {
        let cli = try CLIRunner()
        defer { cli.cleanUp() }
        let body = "line one\n\tindented \u{1B}[2J and é\n"
        let add = try cli.cn("add", "Title", stdin: body)
        #expect(add.status == 0, "\(add.stderr)")
        let id = add.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(UUID(uuidString: id) != nil)
        let show = try cli.cn("show", String(id.prefix(8)))
        #expect(show.status == 0)
        #expect(show.stdoutData == Data(body.utf8))
    }

    @Test func unknownNoteIsAUserErrorWithOneLineOnStderr() throws {
        let cli = try CLIRunner()
        defer { cli.cleanUp() }
        let result = try cli.cn("show", "nope")
        #expect(result.status == 1)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.split(separator: "\n").count == 1)
        #expect(result.stderr.contains("no note matches"))
    }

    @Test(arguments: [
        ["show"], ["list", "--sort", "size"], ["add", "--bogus"], ["frobnicate", "x"], ["purge"],
        ["export", "x", "--format", "pdf"],
    ])
    func commandLineMistakesAreOneLineUserErrors(arguments: [String]) throws {
        let cli = try CLIRunner()
        defer { cli.cleanUp() }
        let result = try cli.cn(arguments, stdinBytes: Data())
        #expect(result.status == 1)
        #expect(result.stdout.isEmpty)
        #expect(result.stderrLines.count == 1, "\(result.stderr)")
        #expect(result.stderr.hasPrefix("cloudnotes: "))
        #expect(result.stderr.contains("--help"))
    }

    @Test func noCommandListsTheNotes() throws {
        let cli = try CLIRunner()
        defer { cli.cleanUp() }
        try cli.add("Listed", body: "x")
        let result = try cli.run(["--data-dir", cli.dataDirectory.path])
        #expect(result.status == 0)
        #expect(result.stdout.contains("Listed"))
    }

    @Test func helpGoesToStdoutAndExitsZero() throws {
        let cli = try CLIRunner()
        defer { cli.cleanUp() }
        let result = try cli.run(["--help"])
        #expect(result.status == 0)
        #expect(result.stdout.contains("USAGE: cloudnotes"))
        #expect(result.stdout.contains("Exit codes: 0 ok, 1 user error"))
    }

    @Test func aFullDiskOnStdoutIsAnErrorNotACrash() throws {
        let cli = try CLIRunner()
        defer { cli.cleanUp() }
        let id = try cli.add("Big", body: String(repeating: "x", count: 100_000))
        let result = try cli.runProgram(
            "/bin/sh",
            [
                "-c", "exec \"$@\" > /dev/full", "sh", CLIRunner.binary.path, "show", id, "--data-dir",
                cli.dataDirectory.path,
            ])
        #expect(result.status == 1)
        #expect(result.stderrLines == ["cloudnotes: cannot write to standard output: No space left on device"])
    }
}
