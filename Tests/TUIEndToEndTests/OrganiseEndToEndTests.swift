import Foundation
import Testing

/// Organising in the real binary in tmux (issue 15): the notebook picker filters the list and
/// the search line names the notebook, the preview lists the notes linking here, `L` follows
/// a link and `t` opens the day's note. Every wait has a deadline of 20 s (a loaded machine).
@Suite(.serialized, .enabled(if: TmuxSession.isAvailable, "tmux is not installed; the TUI end-to-end tests need it"))
struct OrganiseEndToEndTests {
    static let wait: Double = 20

    @Test func pickANotebookFollowALinkAndOpenToday() async throws {
        let tmux = try TmuxSession()
        try tmux.cli("notebook", "create", "Work Log")
        try tmux.cli("add", "Other", "--body", "elsewhere")
        try tmux.cli("add", "Hub", "--body", "the centre of things")
        try tmux.cli("add", "Plan", "--notebook", "Work Log", "--body", "see [[Hub]] first")
        try tmux.start()
        try await tmux.waitFor("Other", seconds: Self.wait)
        // Plan, Hub, Other (newest first): Hub's preview lists the note that links to it.
        try tmux.type("j")
        try await tmux.waitFor("Hub's backlinks in its preview", seconds: Self.wait) { $0.contains("← Plan") }
        try tmux.type("N")
        try await tmux.waitFor("the notebook picker", seconds: Self.wait) {
            $0.contains("Notebooks") && $0.contains("All notebooks") && $0.contains("Work Log")
        }
        // All notebooks, notes, Work Log: the third.
        try tmux.type("jj")
        try tmux.keys("Enter")
        try await tmux.waitFor("the list filtered to Work Log, named on the search line", seconds: Self.wait) {
            $0.contains("▸ Work Log") && $0.contains("Plan") && !$0.contains("Other")
        }
        try await tmux.waitFor("the preview of Plan", seconds: Self.wait) { $0.contains("see [[Hub]] first") }
        try tmux.type("L")
        try await tmux.waitFor("Hub open in the editor", seconds: Self.wait) {
            $0.contains("the centre of things") && $0.contains("Esc back")
        }
        try tmux.keys("Escape")
        // (Esc then a key at once would read as Alt+key.)
        try await tmux.waitFor("back in the list", seconds: Self.wait) { $0.contains("n new") }
        try tmux.type("t")
        try await tmux.waitFor("the day's note open in the editor", seconds: Self.wait) { screen in
            screen.range(of: #"20[0-9]{2}-[0-9]{2}-[0-9]{2}"#, options: .regularExpression) != nil
                && screen.contains("Esc back")
        }
        try tmux.keys("Escape")
        try tmux.type("q")
    }
}
