import Foundation
import Testing

/// The editor pane of the real binary in tmux: a big bracketed paste, the nano/emacs keys as a
/// terminal sends them, and OSC 52. A new note left empty is stepped in-process (`DailyFlowTests`).
@Suite(.serialized, .enabled(if: TmuxSession.isAvailable, "tmux is not installed; the TUI end-to-end tests need it"))
struct EditorEndToEndTests {
    /// Polls `cloudnotes <arguments>` until `done` says yes (`TmuxSession.waitForCLI`, 15 s here).
    @discardableResult
    private func waitForCLI(
        _ tmux: TmuxSession, _ arguments: [String], _ what: String, seconds: Double = 15,
        sourceLocation: SourceLocation = #_sourceLocation, _ done: (String) -> Bool
    ) async throws -> String {
        try await tmux.waitForCLI(arguments, what, seconds: seconds, sourceLocation: sourceLocation, done)
    }

    @Test func threeThousandPastedLinesArriveAsOneEditAndOneUndoTakesThemBack() async throws {
        let tmux = try TmuxSession()
        try tmux.cli("add", "Paste target", "--body", "start")
        try tmux.start()
        try await tmux.waitFor("Paste target")
        try tmux.keys("Enter")
        try await tmux.waitFor("the editor's hints") { $0.contains("Esc back") }
        try tmux.keys("Down", "End", "Enter")
        let lines = (1...3_000).map { "pasted line \($0) of the paste" }
        let started = Date()
        try tmux.paste(lines.joined(separator: "\n") + "\n")
        // The cursor follows the paste to its end: the last line shows once it has all arrived.
        try await tmux.waitFor("the last pasted line", seconds: 60) { $0.contains("pasted line 3000 of the paste") }
        let elapsed = Date().timeIntervalSince(started)
        print("EditorEndToEndTests: 3,000 pasted lines on screen after \(String(format: "%.2f", elapsed)) s")
        let expected = "start\n" + lines.joined(separator: "\n") + "\n"
        try await waitForCLI(tmux, ["show", "Paste target"], "the paste autosaved") { $0 == expected }
        // One undo takes the whole paste back.
        try tmux.keys("M-u")
        try await tmux.waitFor("the paste undone") { !$0.contains("pasted line") && $0.contains("start") }
        try tmux.keys("Escape")
        // Only the paste is taken back: the Enter typed before it is an edit of its own.
        try await waitForCLI(tmux, ["show", "Paste target"], "the undo saved") { $0 == "start\n" }
        try await tmux.waitFor("the list") { $0.contains("q quit") }
        try tmux.type("q")
    }

    @Test func killWordDeletionAndPasteKeysInARealTerminal() async throws {
        let tmux = try TmuxSession()
        try tmux.cli("add", "Keys", "--body", "alpha beta gamma\nsecond line")
        try tmux.start()
        try await tmux.waitFor("Keys")
        try tmux.keys("Enter")
        try await tmux.waitFor("the editor's hints") { $0.contains("Esc back") }
        // Alt-Backspace then Ctrl-W: two words gone from the end of the line.
        try tmux.keys("Down", "End", "M-BSpace")
        try await tmux.waitFor("alpha beta ") { $0.contains("alpha beta") && !$0.contains("gamma") }
        try tmux.keys("C-w")
        try await tmux.waitFor("alpha only") { $0.contains("alpha") && !$0.contains("beta") }
        // Ctrl-K from the line's start, twice: the line and its break go to the clipboard.
        try tmux.keys("Home", "C-k", "C-k")
        try await tmux.waitFor("the line killed") { !$0.contains("alpha") }
        // Shift-End selects "second line", Ctrl-U pastes the killed text over it.
        try tmux.keys("S-End")
        try tmux.keys("C-u")
        try tmux.keys("Escape")
        try await tmux.waitFor("the list") { $0.contains("q quit") }
        try await waitForCLI(tmux, ["show", "Keys"], "the keys' edits saved") { $0 == "alpha \n" }
        try tmux.type("q")
    }

    @Test func aCopyReachesTheTerminalsClipboardByOSC52() async throws {
        let tmux = try TmuxSession()
        try tmux.cli("add", "Clip", "--body", "copy this text, not this")
        try tmux.start()
        // tmux takes an application's OSC 52 into a paste buffer when set-clipboard is on.
        try tmux.command("set-option", "-g", "set-clipboard", "on")
        try await tmux.waitFor("Clip")
        try tmux.keys("Enter")
        try await tmux.waitFor("the editor's hints") { $0.contains("Esc back") }
        // The mark at the body's start, then three words on: "copy this text" selected and copied.
        try tmux.keys("Down", "C-Space")
        for _ in 0..<3 { try tmux.keys("M-f") }
        try tmux.keys("M-w")
        try await tmux.waitFor("Copied 14 characters")
        #expect(try tmux.command("show-buffer") == "copy this text")
    }

}
