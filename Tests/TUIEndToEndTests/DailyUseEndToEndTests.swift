import Foundation
import Testing

/// Daily use in the real binary in tmux (issue 10): a note held back by the size limit is
/// named in the status bar, and an edit in the app that meets another process's edit of the
/// same line is kept with conflict markers and flagged ⚠. Every wait has a deadline of 20 s
/// or more: the CI machine is loaded.
@Suite(.serialized, .enabled(if: TmuxSession.isAvailable, "tmux is not installed; the TUI end-to-end tests need it"))
struct DailyUseEndToEndTests {
    static let wait: Double = 20

    /// Polls `cloudnotes <arguments>` until `done` says yes (`TmuxSession.waitForCLI`).
    @discardableResult
    private func waitForCLI(
        _ tmux: TmuxSession, _ arguments: [String], _ what: String, sourceLocation: SourceLocation = #_sourceLocation,
        _ done: (String) -> Bool
    ) async throws -> String {
        try await tmux.waitForCLI(arguments, what, seconds: Self.wait, sourceLocation: sourceLocation, done)
    }

    @Test func aNoteOverTheSizeLimitIsNamedInTheStatusBarBesideThePendingCount() async throws {
        let tmux = try TmuxSession()
        // The config's limit at 1 MB, and 1.2 MB of text: over it (SYNC-FORMAT rule 13).
        let config = tmux.home.appendingPathComponent("xdg-config/cloudnotes")
        try FileManager.default.createDirectory(at: config, withIntermediateDirectories: true)
        try Data(#"{"maxNoteBytes": 1048576}"#.utf8).write(to: config.appendingPathComponent("config.json"))
        let line = String(repeating: "a line of a very long note, ", count: 3) + "\n"
        let body = String(repeating: line, count: 1_200_000 / line.utf8.count + 1)
        let file = tmux.home.appendingPathComponent("big.txt")
        try body.write(to: file, atomically: true, encoding: .utf8)
        try tmux.cli("add", "Too big to sync", "--file", file.path)
        try tmux.cli("add", "Small", "--body", "syncs")
        // The embedded default: a cloud folder under XDG_DATA_HOME, synced in the background.
        try tmux.start()
        try await tmux.waitFor("the held note named in the status bar", seconds: Self.wait) {
            $0.contains("↑ 1 pending · 1 held: over the 1 MB limit")
        }
        // The CLI's status agrees.
        try await waitForCLI(tmux, ["status"], "status lists the held note") { $0.contains("held ") }
        try tmux.type("q")
    }

    @Test func anEditInTheAppMeetingACLIEditOfTheSameLineIsKeptBothWaysAndFlagged() async throws {
        let tmux = try TmuxSession()
        // A long autosave gives the test time to stop the app after the typing shows, however
        // loaded the machine (at the default 1.5 s a slow run saw the autosave slip in first).
        try tmux.writeConfig(#"{"autosaveSeconds": 8}"#)
        try tmux.cli("add", "Shared", "--body", "line one\nshared line\nline three")
        try tmux.start()
        try await tmux.waitFor("Shared", seconds: Self.wait)
        try tmux.keys("Enter")
        try await tmux.waitFor("the editor's hints", seconds: Self.wait) { $0.contains("Esc back") }
        // The end of "shared line" (the title is line 0).
        try tmux.keys("Down", "Down", "End")
        try tmux.type(" from the app")
        try await tmux.waitFor("the typing in the editor", seconds: Self.wait) {
            $0.contains("shared line from the app")
        }
        // Another process changes the same line before the app's autosave (8 s after the
        // last key) has stored the typing: the app is stopped meanwhile, so a loaded machine
        // cannot let the autosave slip in first. Its save then finds the head moved and merges.
        let pid = try #require(try tmux.appPID())
        kill(pid, SIGSTOP)
        defer { kill(pid, SIGCONT) }
        let before = try tmux.cli("show", "Shared")
        try #require(
            before == "line one\nshared line\nline three",
            "the autosave stored the typing before the app could be stopped; the test did not run")
        try tmux.cli("edit", "Shared", "--body", "line one\nshared line from the CLI\nline three")
        kill(pid, SIGCONT)
        try await tmux.waitFor("the merge kept both and said so", seconds: Self.wait) {
            $0.contains("both versions are kept") || ($0.contains("from the app") && $0.contains("from the CLI"))
        }
        // The list row shows ⚠ for the note.
        try tmux.keys("Escape")
        try await tmux.waitFor("⚠ on the note's row", seconds: Self.wait) { screen in
            screen.split(separator: "\n").contains {
                $0.contains("Shared") && $0.contains("⚠") && !$0.contains("│ Shared")
            }
        }
        let conflicts = try await waitForCLI(tmux, ["conflicts"], "conflicts lists the note") {
            $0.contains("Shared")
        }
        #expect(!conflicts.contains("no conflicts"))
        // Both texts are in the note, nothing typed or written elsewhere lost.
        let shown = try tmux.cli("show", "Shared")
        #expect(shown.contains("shared line from the app"), "\(shown)")
        #expect(shown.contains("shared line from the CLI"), "\(shown)")
        #expect(shown.contains("<<<<<<<"), "\(shown)")
        try tmux.type("q")
    }
}
