import Foundation
import Testing

/// The real binary in tmux: what only a real terminal shows (issue 4, end-to-end tests):
/// painting, colours, keys and signals, resizing, `$EDITOR`, the executable's sync. Flows that
/// need only the loop are stepped in-process in NotesRuntimeTests (issue 23).
@Suite(.serialized, .enabled(if: TmuxSession.isAvailable, "tmux is not installed; the TUI end-to-end tests need it"))
struct TUIEndToEndTests {
    /// Lines the wrapper prints after the app exits: its status and the tty's modes.
    private func expectRestored(
        _ tmux: TmuxSession, status: Int32 = 0, sourceLocation: SourceLocation = #_sourceLocation
    ) async throws {
        func lines(_ screen: String) -> [String] {
            screen.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        }
        // The wrapper prints the status, then both modes (as `icanon` or `-icanon`).
        try await tmux.waitFor("exit=\(status) and the tty modes", sourceLocation: sourceLocation) { screen in
            let shown = lines(screen)
            return shown.contains("exit=\(status)") && shown.contains { $0.hasSuffix("icanon") }
                && shown.contains { $0.hasSuffix("echo") }
        }
        let lines = lines(try tmux.screen())
        #expect(lines.contains("icanon"), "the tty is not back in canonical mode", sourceLocation: sourceLocation)
        #expect(lines.contains("echo"), "echo is not back on", sourceLocation: sourceLocation)
    }

    /// Waits until `cloudnotes show` prints text containing `expected` (another process reading the store).
    private func waitForSaved(
        _ tmux: TmuxSession, note: String, _ expected: String, sourceLocation: SourceLocation = #_sourceLocation
    ) async throws {
        let deadline = Date().addingTimeInterval(10)
        var shown = ""
        while true {
            shown = try tmux.cli("show", note)
            if shown.contains(expected) || Date() >= deadline { break }
            try await Task.sleep(for: .milliseconds(100))
        }
        #expect(
            shown.contains(expected), "not saved; `cloudnotes show` printed:\n\(shown)", sourceLocation: sourceLocation)
    }

    @Test func sigtermSavesTheEditorTextBeforeQuitting() async throws {
        let tmux = try TmuxSession()
        try tmux.cli("add", "Draft", "--body", "first line")
        try tmux.start()
        try await tmux.waitFor("Draft")
        try tmux.keys("Enter")
        try tmux.keys("Down", "End")
        try tmux.type(" typed just before the signal")
        try await tmux.waitFor("typed just before the signal")
        let pid = try #require(try tmux.appPID())
        kill(pid, SIGTERM)
        try await expectRestored(tmux, status: 128 + SIGTERM)
        try await waitForSaved(tmux, note: "Draft", "first line typed just before the signal")
    }

    @Test func eSuspendsForTheExternalEditorAndResumesWithItsText() async throws {
        let tmux = try TmuxSession()
        // An "editor" that shows itself on the terminal, waits until the test has seen it there
        // (a loaded machine may take seconds to capture the screen), and appends a line.
        let script = tmux.home.appendingPathComponent("fake-editor")
        let seen = tmux.home.appendingPathComponent("editor-seen")
        try """
        #!/bin/sh
        printf 'FAKE EDITOR ON %s\\n' "$(basename "$1")"
        for _ in $(seq 600); do [ -e '\(seen.path)' ] && break; sleep 0.1; done
        # The file ends with a line break (the app adds one): append a line, as editors do.
        printf 'appended by the editor\\n' >> "$1"
        """.write(to: script, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o700], ofItemAtPath: script.path)
        tmux.extraEnvironment["EDITOR"] = script.path
        try tmux.cli("add", "Draft", "--body", "first line")
        try tmux.start()
        try await tmux.waitFor("Draft")
        try tmux.type("e")
        // The app has given the terminal to the editor: its output is on the screen, not the list.
        try await tmux.waitFor("the editor running") { $0.contains("FAKE EDITOR ON") && !$0.contains("q quit") }
        #expect(FileManager.default.createFile(atPath: seen.path, contents: Data()))
        try await tmux.waitFor("the app back") { $0.contains("q quit") && !$0.contains("FAKE EDITOR") }
        try await waitForSaved(tmux, note: "Draft", "first line\nappended by the editor")
        // Each key waits for the screen it makes: the list's preview already shows the text, so
        // waiting for the text alone let Escape and q reach the app together, as Alt-q.
        try tmux.keys("Enter")
        try await tmux.waitFor("the editor pane") { $0.contains("appended by the editor") && $0.contains("Esc back") }
        try tmux.keys("Escape")
        try await tmux.waitFor("the list") { $0.contains("q quit") && !$0.contains("Esc back") }
        try tmux.type("q")
        try await expectRestored(tmux)
    }

    @Test func theConfigsThemeColoursTheScreenAndNoColorTurnsColoursOff() async throws {
        let colored = try TmuxSession()
        try colored.writeConfig(#"{"theme": {"favorite": "magenta", "selection": "blue"}}"#)
        try colored.cli("add", "Pinned", "--body", "", "--fav")
        try colored.start()
        try await colored.waitFor("Pinned")
        let escaped = try colored.screen(escapes: true)
        // tmux writes one SGR sequence per change: magenta, then the blue bar, then the star.
        #expect(escaped.contains("\u{1B}[35m\u{1B}[44m★"), "no magenta star on a blue bar:\n\(escaped)")
        try colored.type("q")
        try await expectRestored(colored)

        let plain = try TmuxSession()
        plain.extraEnvironment["NO_COLOR"] = "1"
        try plain.writeConfig(#"{"theme": {"favorite": "magenta", "selection": "blue"}}"#)
        try plain.cli("add", "Pinned", "--body", "", "--fav")
        try plain.start()
        try await plain.waitFor("Pinned")
        let monochrome = try plain.screen(escapes: true)
        let colourCodes = try Regex(#"\x1B\[[0-9;]*(3[0-7]|4[0-7]|9[0-7]|38;|48;)"#)
        #expect(monochrome.firstMatch(of: colourCodes) == nil, "colours under NO_COLOR:\n\(monochrome)")
        #expect(monochrome.contains("\u{1B}[0;7m"), "the selection is not in reverse video:\n\(monochrome)")
        try plain.type("q")
        try await expectRestored(plain)
    }

    @Test func escapeSequencesInANoteAreShownNotObeyed() async throws {
        let tmux = try TmuxSession()
        try tmux.cli("add", "Visible", "--body", "before")
        try tmux.cli("add", "Hostile", "--body", "x\u{1B}]0;pwned\u{7}y\u{1B}[2Jz")
        try tmux.start()
        try await tmux.waitFor("both notes") { $0.contains("Visible") && $0.contains("Hostile") }
        try await tmux.waitFor("the escape drawn as ␛") { $0.contains("␛]0;pwned") && $0.contains("␛[2Jz") }
        #expect(!(try tmux.paneTitle()).contains("pwned"))
        // ESC [ 2 J would have cleared the screen: the other note is still drawn.
        #expect(try tmux.screen().contains("Visible"))
        try tmux.type("q")
        try await expectRestored(tmux)
    }

    @Test func withTheDefaultCloudFolderTheAppSyncsWithAnotherDeviceAndSaysSo() async throws {
        let tmux = try TmuxSession()
        try tmux.cli("add", "Written here", "--body", "on the desktop")
        try tmux.start()
        // The embedded default: a cloud folder under XDG_DATA_HOME, synced in the background.
        try await tmux.waitFor("✓ Synced or ✓ Saved") { $0.contains("✓ Synced") || $0.contains("✓ Saved") }
        let laptop = tmux.home.appendingPathComponent("laptop")
        try tmux.cli(dataDirectory: laptop, ["add", "Written on the laptop", "--body", "elsewhere"])
        try tmux.cli(dataDirectory: laptop, ["sync"])
        // Picked up by the folder watcher: no key pressed.
        try await tmux.waitFor("Written on the laptop")
        #expect(try tmux.cli(dataDirectory: laptop, ["show", "Written here"]).contains("on the desktop"))
        // An edit made in the app goes out after the debounce, and the laptop gets it.
        try tmux.type("/")
        try tmux.type("desktop")
        try await tmux.waitFor("one result") { !$0.contains("Written on the laptop") }
        try tmux.keys("Enter")  // the first result
        try tmux.keys("Enter")  // open it
        try await tmux.waitFor("the editor") { $0.contains("Esc back") }
        try tmux.keys("Down", "End")
        try tmux.type(" and edited")
        try tmux.keys("Escape")
        try await tmux.waitFor("the list") { $0.contains("q quit") }
        // Generous: with the test suites of a filter run side by side on two cores, 15 s was
        // seen to run out (a run of the "Files|Folder" filter, before and after this change).
        let deadline = Date().addingTimeInterval(45)
        var shown = ""
        while Date() < deadline {
            try tmux.cli(dataDirectory: laptop, ["sync"])
            shown = try tmux.cli(dataDirectory: laptop, ["show", "Written here"])
            if shown.contains("and edited") { break }
            try await Task.sleep(for: .milliseconds(200))
        }
        #expect(shown.contains("on the desktop and edited"), "the laptop shows:\n\(shown)")
        try await tmux.waitFor("✓ Synced or ✓ Saved") { $0.contains("✓ Synced") || $0.contains("✓ Saved") }
        try tmux.type("q")
        try await expectRestored(tmux)
    }

    @Test func aThemeSetOnAnotherDeviceRepaintsTheRunningAppAndSaysSo() async throws {
        let tmux = try TmuxSession()
        try tmux.cli("add", "Pinned", "--body", "", "--fav")
        try tmux.start()
        try await tmux.waitFor("✓ Synced or ✓ Saved") { $0.contains("✓ Synced") || $0.contains("✓ Saved") }
        let before = try tmux.screen(escapes: true)
        #expect(!before.contains("\u{1B}[35m"), "magenta before the setting:\n\(before)")
        // Another device of the account sets the favourite colour and syncs.
        let laptop = tmux.home.appendingPathComponent("laptop")
        try tmux.cli(dataDirectory: laptop, ["config", "set", "theme.favorite", "magenta"])
        try tmux.cli(dataDirectory: laptop, ["view", "save", "starred", "Pinned"])
        try tmux.cli(dataDirectory: laptop, ["sync"])
        // Picked up by the app's own sync (the folder watcher): no key pressed.
        try await tmux.waitFor("the change said") {
            $0.contains("Settings changed on") && $0.contains("theme.favorite")
        }
        let after = try tmux.screen(escapes: true)
        #expect(after.contains("\u{1B}[35m"), "no magenta after the setting:\n\(after)")
        // The view saved on the laptop is in the notebook picker.
        try tmux.type("N")
        try await tmux.waitFor("the laptop's view in the picker") { $0.contains("view: starred") }
        try tmux.keys("Escape")
        try await tmux.waitFor("the picker closed") { !$0.contains("view: starred") }
        try tmux.type("q")
        try await expectRestored(tmux)
    }

    @Test func theLayoutFollowsAResize() async throws {
        let tmux = try TmuxSession()
        try tmux.cli("add", "A note with a rather long title that needs clipping at sixty columns", "--body", "")
        try tmux.start(width: 100, height: 30)
        try await tmux.waitFor("the note") { $0.contains("A note with a rather long") }
        try tmux.resize(width: 60, height: 15)
        try await tmux.waitFor("a 60x15 screen") { screen in
            let lines = screen.split(separator: "\n", omittingEmptySubsequences: false)
            return lines.count <= 16 && screen.contains("A note with")
                && (screen.contains("Synced") || screen.contains("Saved"))
        }
        try tmux.resize(width: 100, height: 30)
        try await tmux.waitFor("the wide layout again") { $0.contains("A note with a rather long title") }
        try tmux.type("q")
        try await expectRestored(tmux)
    }

    @Test(arguments: ["q", "C-c"])
    func qAndCtrlCQuitAndRestoreTheTerminal(key: String) async throws {
        let tmux = try TmuxSession()
        try tmux.cli("add", "Listed", "--body", "")
        try tmux.start()
        try await tmux.waitFor("the list and ✓ Synced or ✓ Saved") {
            $0.contains("Listed") && ($0.contains("✓ Synced") || $0.contains("✓ Saved"))
        }
        try tmux.keys(key)
        try await expectRestored(tmux)
    }

    @Test func sigtermRestoresTheTerminal() async throws {
        let tmux = try TmuxSession()
        try tmux.cli("add", "Running", "--body", "")
        try tmux.start()
        try await tmux.waitFor("Running")
        let pid = try #require(try tmux.appPID())
        kill(pid, SIGTERM)
        try await expectRestored(tmux, status: 128 + SIGTERM)
    }
}
