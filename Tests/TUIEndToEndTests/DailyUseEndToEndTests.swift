import Foundation
import Testing

/// Daily use in the real binary in tmux (issue 10): a note held back by the size limit the
/// config sets is named in the status bar (the executable's wiring of config and sync). The
/// flows that need only the loop are stepped in-process (NotesRuntimeTests, `DailyFlowTests`).
/// Every wait has a deadline of 20 s or more: the CI machine is loaded.
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

}
