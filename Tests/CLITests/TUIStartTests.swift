import Foundation
import Testing

/// Starting the TUI on a terminal it cannot draw on: one line that says why, status 1, and the
/// terminal left as it was (ARCHITECTURE §1: TerminalNcurses refuses such terminals).
@Suite struct TUIStartTests {
    /// `cloudnotes tui` on a pseudo-terminal with `TERM` set, stopped after 10 s if it starts
    /// anyway (so a regression fails rather than hangs).
    private func tui(_ cli: CLIRunner, term: String) throws -> CLIRunner.Result {
        let words = ["timeout", "10", CLIRunner.binary.path, "tui", "--data-dir", cli.dataDirectory.path]
        let command = "exec " + words.map(CLIRunner.shellQuoted).joined(separator: " ")
        return try cli.runProgram("/usr/bin/script", ["-qfec", command, "/dev/null"], environment: ["TERM": term])
    }

    @Test func aDumbTerminalIsRefusedWithOneLine() throws {
        let cli = try CLIRunner()
        defer { cli.cleanUp() }
        let result = try tui(cli, term: "dumb")
        #expect(result.status == 1, "\(result.stdout)")
        let lines = result.stdout.split(whereSeparator: \.isNewline).filter { !$0.isEmpty }
        #expect(lines.count == 1, "\(result.stdout)")
        #expect(result.stdout.contains("cannot move the cursor (TERM=dumb)"), "\(result.stdout)")
        #expect(!result.stdout.contains("\u{1B}["), "no screen drawn: \(result.stdout.debugDescription)")
    }

    @Test func anUnknownTerminalIsRefusedWithOneLine() throws {
        let cli = try CLIRunner()
        defer { cli.cleanUp() }
        let result = try tui(cli, term: "no-such-terminal-xyz")
        #expect(result.status == 1, "\(result.stdout)")
        #expect(result.stdout.contains("cannot use the terminal (TERM=no-such-terminal-xyz)"), "\(result.stdout)")
    }
}
