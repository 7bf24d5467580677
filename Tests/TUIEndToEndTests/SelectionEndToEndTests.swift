import Foundation
import Testing

/// The selection is a note, not a row (ARCHITECTURE §6), seen by a person at the terminal:
/// the editor pane shows the selected note's title on its first line.
@Suite(.serialized, .enabled(if: TmuxSession.isAvailable, "tmux is not installed; the TUI end-to-end tests need it"))
struct SelectionEndToEndTests {
    /// Imports `count` notes titled `title(i)` (i from 1, note 1 the newest), favorites where `favorite(i)`.
    private func populate(
        _ tmux: TmuxSession, count: Int, title: (Int) -> String, favorite: (Int) -> Bool = { _ in false }
    ) throws {
        let base = Date(timeIntervalSince1970: 1_700_000_000)
        let formatter = ISO8601DateFormatter()
        var lines: [String] = []
        for i in 1...count {
            let date = formatter.string(from: base.addingTimeInterval(Double(-i * 60)))
            let id = String(format: "00000000-0000-4000-8000-%012d", i)
            lines.append(
                #"{"id":"\#(id)","title":"\#(title(i))","body":"body \#(i)","isFavorite":\#(favorite(i)),"createdAt":"\#(date)","modifiedAt":"\#(date)"}"#
            )
        }
        let file = tmux.home.appendingPathComponent("notes.jsonl")
        try lines.joined(separator: "\n").write(to: file, atomically: true, encoding: .utf8)
        try tmux.cli("import", file.path)
    }

    /// The title on the editor pane's first line (100 columns: the pane starts at column 41).
    private func paneTitle(_ screen: String) -> String {
        let lines = screen.split(separator: "\n", omittingEmptySubsequences: false)
        guard lines.count > 1 else { return "" }
        return String(lines[1].dropFirst(41)).trimmingCharacters(in: .whitespaces)
    }

    private func waitForSelected(
        _ tmux: TmuxSession, _ title: String, seconds: Double = 10, sourceLocation: SourceLocation = #_sourceLocation
    ) async throws {
        try await tmux.waitFor("“\(title)” selected", seconds: seconds, sourceLocation: sourceLocation) {
            self.paneTitle($0) == title
        }
    }

    private func favorites(_ tmux: TmuxSession) throws -> String {
        try tmux.cli("list", "--favorites")
    }

    @Test func fTwiceOnTheLastOf2000NotesFavoritesThenUnfavoritesThatNoteOnly() async throws {
        let tmux = try TmuxSession()
        try populate(tmux, count: 2000, title: { String(format: "Note %04d", $0) })
        try tmux.start()
        try await waitForSelected(tmux, "Note 0001")
        try tmux.type("G")
        try await waitForSelected(tmux, "Note 2000")
        try tmux.type("f")
        // It moved to FAVORITES at the top; the selection went with it.
        try await tmux.waitFor("Note 2000 in FAVORITES") { $0.contains("FAVORITES") && $0.contains("★ Note 2000") }
        try await waitForSelected(tmux, "Note 2000")
        try tmux.type("f")
        try await tmux.waitFor("FAVORITES gone") { !$0.contains("FAVORITES") }
        try await waitForSelected(tmux, "Note 2000")
        let none = try favorites(tmux)
        #expect(!none.contains("Note"), "f f left favorites:\n\(none)")
        // From the top favorite: f f leaves it a favorite and every other note as it was.
        try tmux.type("f")
        try await tmux.waitFor("Note 2000 in FAVORITES") { $0.contains("★ Note 2000") }
        try tmux.type("g")
        try tmux.type("f")
        try await tmux.waitFor("FAVORITES gone") { !$0.contains("FAVORITES") }
        try tmux.type("f")
        try await tmux.waitFor("Note 2000 in FAVORITES") { $0.contains("★ Note 2000") }
        try await waitForSelected(tmux, "Note 2000")
        let after = try favorites(tmux)
        #expect(after.contains("Note 2000") && !after.contains("Note 1999") && !after.contains("Note 0001"), "\(after)")
        try tmux.type("q")
    }

    @Test func holdingJAndJumpingToTheEndOfSearchResultsReachTheRightResult() async throws {
        let tmux = try TmuxSession()
        try populate(tmux, count: 300, title: { String(format: "the note %03d", $0) }, favorite: { $0 % 10 == 0 })
        try tmux.start()
        // The newest favorite is selected at start; it stays selected in the results (the 10th).
        try await waitForSelected(tmux, "the note 010")
        try tmux.type("/the")
        try await tmux.waitFor("the results") { $0.contains("/ the") && $0.contains("the note 001") }
        try tmux.keys("Enter")
        // Held j: 40 repeats sent at once, past the first page of results.
        try tmux.keys(Array(repeating: "j", count: 40))
        try await waitForSelected(tmux, "the note 050")
        try tmux.type("G")
        try await waitForSelected(tmux, "the note 300")
        try tmux.type("g")
        try await waitForSelected(tmux, "the note 001")
        try tmux.keys("End")
        try await waitForSelected(tmux, "the note 300")
        try tmux.type("g")
        try await waitForSelected(tmux, "the note 001")
        try tmux.keys(Array(repeating: "PageDown", count: 12))
        try await waitForSelected(tmux, "the note 300")
        try tmux.type("q")
    }

    @Test func aNewNoteIsSelected() async throws {
        let tmux = try TmuxSession()
        try populate(tmux, count: 5, title: { "Old \($0)" })
        try tmux.start()
        try await waitForSelected(tmux, "Old 1")
        try tmux.type("n")
        try tmux.type("First note")
        try await tmux.waitFor("First note")
        try tmux.keys("Escape")
        try await tmux.waitFor("the list's key hints") { $0.contains("q quit") }
        try await waitForSelected(tmux, "First note")
        try tmux.type("n")
        try tmux.type("Second note")
        try await tmux.waitFor("Second note")
        try tmux.keys("Escape")
        try await tmux.waitFor("the list's key hints") { $0.contains("q quit") }
        try await waitForSelected(tmux, "Second note")
        try tmux.type("q")
    }

    @Test func aFavoriteMadeInSearchShowsInTheWholeListAtOnce() async throws {
        let tmux = try TmuxSession()
        try populate(tmux, count: 60, title: { $0 == 45 ? "alpha" : "Note \($0)" })
        try tmux.start()
        try await waitForSelected(tmux, "Note 1")
        try tmux.type("/alpha")
        try await tmux.waitFor("the one result") { $0.contains("alpha") && !$0.contains("Note 1") }
        try tmux.keys("Enter")
        try await waitForSelected(tmux, "alpha")
        try tmux.type("f")
        try await tmux.waitFor("the star") { $0.contains("★ alpha") }
        try tmux.keys("Escape")
        // At once, not at the next poll: a second is far longer than a frame.
        try await tmux.waitFor("alpha in FAVORITES and selected", seconds: 1) {
            $0.contains("FAVORITES") && $0.contains("★ alpha") && $0.contains("Note 1") && self.paneTitle($0) == "alpha"
        }
        try tmux.type("q")
    }
}
