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

    /// The app on Plan and Other, which link to Hub, with Hub open in the editor retitled
    /// "Centre" (not saved yet).
    static func hubRetitledInTheEditor() async throws -> TmuxSession {
        let tmux = try TmuxSession()
        try tmux.cli("add", "Plan", "--body", "see [[Hub]] first")
        try tmux.cli("add", "Other", "--body", "also [Hub](Hub.md)")
        try tmux.cli("add", "Hub", "--body", "the centre of things")
        try tmux.start()
        try await tmux.waitFor("Plan", seconds: Self.wait)
        // Hub is the newest, selected: open it and retitle it.
        try tmux.keys("Enter")
        try await tmux.waitFor("Hub open in the editor", seconds: Self.wait) {
            $0.contains("the centre of things") && $0.contains("Esc back")
        }
        try tmux.keys("End", "BSpace", "BSpace", "BSpace")
        try tmux.type("Centre")
        return tmux
    }

    /// Retitling a note in the editor: leaving it asks whether to update the links to the old
    /// title; `y` rewrites them in the other notes (read back through the CLI), `n` leaves them.
    @Test func retitleInTheEditorAndUpdateTheLinks() async throws {
        let tmux = try await Self.hubRetitledInTheEditor()
        try tmux.keys("Escape")
        try await tmux.waitFor("the question about links", seconds: Self.wait) {
            $0.contains("Update 2 links to “Hub” → “Centre”? y/n")
        }
        try tmux.type("y")
        // The message stays 6 s; on a loaded machine a screen poll can come later than that, so
        // the list showing the rewritten link counts too (the CLI checks below read the notes).
        try await tmux.waitFor("“Updated links in 2 notes”, or the link rewritten in the list", seconds: Self.wait) {
            $0.contains("Updated links in 2 notes") || $0.contains("see [[Centre]] first")
        }
        try await tmux.waitForCLI(["show", "Plan"], "Plan links to the new title", seconds: Self.wait) {
            $0.contains("see [[Centre]] first")
        }
        try await tmux.waitForCLI(["show", "Other"], "Other's Markdown link too", seconds: Self.wait) {
            $0.contains("also [Hub](Centre.md)")
        }
        // Again, answering n: the links stay.
        try tmux.keys("Enter")
        try await tmux.waitFor("Centre open in the editor", seconds: Self.wait) {
            $0.contains("the centre of things") && $0.contains("Esc back")
        }
        try tmux.keys("Home", "End", "BSpace", "BSpace", "BSpace", "BSpace", "BSpace", "BSpace")
        try tmux.type("Core")
        try tmux.keys("Escape")
        try await tmux.waitFor("the question again", seconds: Self.wait) {
            $0.contains("Update 2 links to “Centre” → “Core”? y/n")
        }
        try tmux.type("n")
        try await tmux.waitFor("Links to “Centre” left as they are", seconds: Self.wait)
        try await tmux.waitForCLI(["list"], "the note is saved as Core", seconds: Self.wait) { $0.contains("Core") }
        #expect(try tmux.cli("show", "Plan").contains("see [[Centre]] first"))
        try tmux.type("q")
    }

    /// Retitling a note and quitting at once from the editor (`^Q`): the app asks about the
    /// links before it exits; `y` updates them and then quits (the CLI reads them back), `n`
    /// quits leaving them. The new title is saved either way.
    @Test func retitleThenQuitAsksAboutTheLinksBeforeExiting() async throws {
        for answer in ["y", "n"] {
            let tmux = try await Self.hubRetitledInTheEditor()
            try tmux.keys("C-q")
            try await tmux.waitFor("the question before quitting", seconds: Self.wait) {
                $0.contains("Update 2 links to “Hub” → “Centre”? y/n") && !$0.contains("exit=")
            }
            try tmux.type(answer)
            try await tmux.waitFor("the app exited", seconds: Self.wait) { $0.contains("exit=0") }
            let plan = try tmux.cli("show", "Plan")
            let other = try tmux.cli("show", "Other")
            if answer == "y" {
                #expect(plan.contains("see [[Centre]] first"), "\(plan)")
                #expect(other.contains("also [Hub](Centre.md)"), "\(other)")
            } else {
                #expect(plan.contains("see [[Hub]] first"), "\(plan)")
                #expect(other.contains("also [Hub](Hub.md)"), "\(other)")
            }
            #expect(try tmux.cli("list").contains("Centre"), "the new title is saved (\(answer))")
        }
    }
}
