import Foundation
import Testing

/// The preview's Markdown in a real terminal (issue 26, "the same rendering in the terminal"):
/// a heading drawn bold without its `#`, a task's box as a glyph, and `r` showing the raw text.
@Suite(.serialized, .enabled(if: TmuxSession.isAvailable, "tmux is not installed; the TUI end-to-end tests need it"))
struct PreviewEndToEndTests {
    /// The preview pane's side of each row (after the list and its `│`).
    private func pane(_ screen: String) -> [String] {
        screen.split(separator: "\n", omittingEmptySubsequences: false).map { line in
            line.range(of: "│ ").map { String(line[$0.upperBound...]) } ?? ""
        }
    }

    @Test func thePreviewRendersMarkdownAndRShowsTheRawText() async throws {
        let tmux = try TmuxSession()
        try tmux.cli("add", "Launch plan", "--body", "# Launch day\n\n- [ ] book the hall\n\nSee **the list**.")
        try tmux.start(width: 100, height: 30)
        try await tmux.waitFor("the rendered heading and task box") {
            let pane = pane($0)
            return pane.contains("Launch day") && pane.contains("☐ book the hall") && pane.contains("See the list.")
        }
        // The heading is bold and underlined: its row's SGR sequences before its text say 1 and 4.
        let painted = try tmux.screen(escapes: true)
        let rows = painted.split(separator: "\n").filter { $0.contains("│") }
        let side = try #require(
            rows.lazy.compactMap { $0.components(separatedBy: "│").last }.first { $0.contains("Launch day") },
            "\(painted.debugDescription)")
        let sgr = side.components(separatedBy: "Launch day")[0].components(separatedBy: "\u{1B}[").last ?? ""
        #expect(sgr == "1;4m", "the heading's attributes: \(side.debugDescription)")
        try tmux.type("r")
        try await tmux.waitFor("the raw text") {
            let pane = pane($0)
            return pane.contains("# Launch day") && pane.contains("- [ ] book the hall")
                && pane.contains("See **the list**.")
        }
        try tmux.type("r")
        try await tmux.waitFor("the rendered text again") { pane($0).contains("Launch day") }
        try tmux.type("q")
    }
}
