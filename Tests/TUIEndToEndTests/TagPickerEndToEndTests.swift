import Foundation
import Testing

/// The tag picker in the real binary in tmux (issue 15): `#` lists every tag with its count,
/// `Enter` filters the list to the chosen tag through the search (`tag:name`), and the picker
/// opened again starts on that tag. Every wait has a deadline of 20 s (a loaded machine).
@Suite(.serialized, .enabled(if: TmuxSession.isAvailable, "tmux is not installed; the TUI end-to-end tests need it"))
struct TagPickerEndToEndTests {
    static let wait: Double = 20

    @Test func pickATagToFilterTheList() async throws {
        let tmux = try TmuxSession()
        try tmux.cli("add", "Alpha report", "--tag", "work", "--body", "quarterly")
        try tmux.cli("add", "Beta groceries", "--tag", "home", "--body", "oat milk")
        try tmux.cli("add", "Gamma review", "--tag", "work", "--tag", "home", "--body", "code")
        try tmux.start()
        try await tmux.waitFor("the list", seconds: Self.wait) {
            $0.contains("Alpha report") && $0.contains("Beta groceries") && $0.contains("Gamma review")
        }
        try tmux.type("#")
        // Tags by name with how many notes carry each: home 2, work 2.
        try await tmux.waitFor("the tag picker with counts", seconds: Self.wait) { screen in
            let lines = screen.split(separator: "\n")
            return screen.contains("Tags")
                && lines.contains { $0.contains("home") && $0.contains("2") }
                && lines.contains { $0.contains("work") && $0.contains("2") }
        }
        try tmux.type("j")
        try tmux.keys("Enter")
        try await Self.waitForList(tmux, "tag:work", showing: ["Alpha report", "Gamma review"], not: "Beta groceries")
        // Opened again, the picker starts on the tag the list is filtered by; Esc puts it away.
        try tmux.type("#")
        try await tmux.waitFor("the picker again", seconds: Self.wait) { $0.contains("Tags") }
        try tmux.type("k")
        try tmux.keys("Enter")
        try await Self.waitForList(tmux, "tag:home", showing: ["Beta groceries", "Gamma review"], not: "Alpha report")
        try tmux.type("q")
    }

    /// Waits for the list filtered by `query` (shown on the search line): `shown` listed, `hidden` not.
    static func waitForList(_ tmux: TmuxSession, _ query: String, showing shown: [String], not hidden: String)
        async throws
    {
        try await tmux.waitFor("the list filtered to \(query)", seconds: Self.wait) { screen in
            screen.contains(query) && shown.allSatisfy(screen.contains) && !screen.contains(hidden)
        }
    }
}
