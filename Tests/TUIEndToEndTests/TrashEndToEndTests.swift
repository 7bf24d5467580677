import Foundation
import Testing

/// The trash in the real binary in tmux: the Trash view (`T`) restores and deletes forever
/// after a question, and a note trashed by the CLI while the app edits it keeps its text.
/// Every wait has a deadline of 20 s or more: the CI machine is loaded.
@Suite(.serialized, .enabled(if: TmuxSession.isAvailable, "tmux is not installed; the TUI end-to-end tests need it"))
struct TrashEndToEndTests {
    static let wait: Double = 20

    /// The title on the editor pane's first line (100 columns: the pane starts at column 41).
    private func paneTitle(_ screen: String) -> String {
        let lines = screen.split(separator: "\n", omittingEmptySubsequences: false)
        guard lines.count > 1 else { return "" }
        return String(lines[1].dropFirst(41)).trimmingCharacters(in: .whitespaces)
    }

    private func waitForSelected(
        _ tmux: TmuxSession, _ title: String, sourceLocation: SourceLocation = #_sourceLocation
    ) async throws {
        try await tmux.waitFor("“\(title)” selected", seconds: Self.wait, sourceLocation: sourceLocation) {
            self.paneTitle($0) == title
        }
    }

    /// Polls `cloudnotes <arguments>` until `done` says yes (`TmuxSession.waitForCLI`).
    @discardableResult
    private func waitForCLI(
        _ tmux: TmuxSession, _ arguments: [String], _ what: String, sourceLocation: SourceLocation = #_sourceLocation,
        _ done: (String) -> Bool
    ) async throws -> String {
        try await tmux.waitForCLI(arguments, what, seconds: Self.wait, sourceLocation: sourceLocation, done)
    }

    /// `list` rows (indented lines under the section header).
    private func listed(_ output: String) -> [String] {
        output.split(separator: "\n").filter { $0.hasPrefix("  ") }.map { String($0) }
    }

    @Test func dThenTheTrashViewRestoresOneNoteAndDeletesAnotherForeverOnlyAfterY() async throws {
        let tmux = try TmuxSession()
        try tmux.cli("add", "Keep me", "--body", "first")
        try tmux.cli("add", "Purge me", "--body", "second")
        try tmux.cli("add", "Other", "--body", "third")
        try tmux.start()
        try await waitForSelected(tmux, "Other")
        // The oldest note, last in the list, to the trash.
        try tmux.type("G")
        try await waitForSelected(tmux, "Keep me")
        try tmux.type("d")
        try await tmux.waitFor("the trash line", seconds: Self.wait) {
            $0.contains("Moved “Keep me” to the trash") && !$0.contains("Keep me  first")
        }
        try tmux.type("T")
        try await tmux.waitFor("the Trash view", seconds: Self.wait) {
            $0.contains("TRASH · 1 note") && $0.contains("Keep me") && $0.contains("r restore")
        }
        try tmux.type("r")
        try await tmux.waitFor("the note restored", seconds: Self.wait) {
            $0.contains("Restored “Keep me” to the notes") && $0.contains("The trash is empty")
        }
        try tmux.keys("Escape")
        try await tmux.waitFor("the list", seconds: Self.wait) { $0.contains("q quit") || $0.contains("/ search") }
        // Back in the list, the restored note is the selected one.
        try await waitForSelected(tmux, "Keep me")
        try await waitForCLI(tmux, ["list", "--trash"], "the trash is empty") { listed($0).isEmpty }

        try tmux.type("k")
        try await waitForSelected(tmux, "Purge me")
        try tmux.type("d")
        try await tmux.waitFor("the trash line", seconds: Self.wait) { $0.contains("Moved “Purge me” to the trash") }
        try tmux.type("T")
        try await tmux.waitFor("the Trash view", seconds: Self.wait) {
            $0.contains("TRASH · 1 note") && $0.contains("Purge me")
        }
        try tmux.type("X")
        try await tmux.waitFor("Delete forever “Purge me”? y/n", seconds: Self.wait)
        // Anything but y keeps it.
        try tmux.type("n")
        try await tmux.waitFor("Nothing deleted", seconds: Self.wait)
        #expect(listed(try tmux.cli("list", "--trash")).contains { $0.contains("Purge me") })
        try tmux.type("X")
        try await tmux.waitFor("Delete forever “Purge me”? y/n", seconds: Self.wait)
        try tmux.type("y")
        try await tmux.waitFor("the note deleted", seconds: Self.wait) {
            $0.contains("Deleted “Purge me” forever") && $0.contains("The trash is empty")
        }
        try tmux.keys("Escape")
        try await tmux.waitFor("the list", seconds: Self.wait) { $0.contains("/ search") && !$0.contains("TRASH") }
        try tmux.type("q")

        // The CLI agrees: the first is back (not in the trash), the second is gone for good.
        let notes = try await waitForCLI(tmux, ["list"], "Keep me listed, Purge me gone") {
            let rows = self.listed($0)
            return rows.contains { $0.contains("Keep me") } && !rows.contains { $0.contains("Purge me") }
        }
        #expect(listed(notes).count == 2)
        #expect(listed(try tmux.cli("list", "--trash")).isEmpty)
        #expect(try tmux.cli("show", "Keep me") == "first")
        #expect(throws: TmuxSession.CLIFailure.self) { try tmux.cli("show", "Purge me") }
    }

    @Test func aNoteTrashedByTheCLIWhileOpenInTheEditorIsRestoredWithTheTypedText() async throws {
        let tmux = try TmuxSession()
        try tmux.cli("add", "Draft", "--body", "first line")
        try tmux.start()
        try await tmux.waitFor("Draft", seconds: Self.wait)
        try tmux.keys("Enter")
        try await tmux.waitFor("the editor's hints", seconds: Self.wait) { $0.contains("Esc back") }
        try tmux.keys("Down", "End")
        try tmux.type(" typed in the app")
        try await waitForCLI(tmux, ["show", "Draft"], "the typing autosaved") { $0 == "first line typed in the app" }
        // Another process moves it to the trash while the editor has it open.
        try tmux.cli("rm", "Draft")
        try await tmux.waitFor("the editor saying the note is in the trash", seconds: Self.wait) {
            $0.contains("moved to the trash elsewhere")
        }
        // Typing goes on: nothing typed is lost.
        try tmux.type(" and after")
        try await tmux.waitFor("and after", seconds: Self.wait)
        try tmux.keys("C-r")
        try await tmux.waitFor("Restored “Draft” from the trash", seconds: Self.wait)
        try await waitForCLI(tmux, ["show", "Draft"], "the text saved") {
            $0 == "first line typed in the app and after"
        }
        try await waitForCLI(tmux, ["list", "--trash"], "the note out of the trash") { listed($0).isEmpty }
        #expect(listed(try tmux.cli("list")).contains { $0.contains("Draft") })
        try tmux.keys("Escape")
        try await tmux.waitFor("the list", seconds: Self.wait) { $0.contains("q quit") }
        try tmux.type("q")
    }
}
