import Foundation
import NotesApp
import NotesCore
import TerminalUI
import Testing

/// The preview pane: the selected note's whole body, wrapped, asked for once per note.
@Suite struct PreviewTests {
    static let size = Size(width: 100, height: 20)
    /// The standard theme's match style.
    static let highlight = Style().foreground(.yellow).bold().underline()
    static let body = """
        Buy milk from the corner shop on the way home, and eggs too if the farm stand is still open after six.
        Second line.
        Third line: bread.
        """

    func content(_ n: Int, _ title: String, _ body: String, ago: TimeInterval) -> NoteContent {
        NoteContent(id: noteID(n), title: title, body: body, modifiedAt: testNow.addingTimeInterval(-ago))
    }

    /// The preview pane's lines (right of the list at 100 columns), trailing spaces trimmed.
    func paneLines(_ screen: Buffer, from x: Int) -> [String] {
        (1..<screen.size.height - 1).map { y in
            var line = ""
            for column in x..<screen.size.width where !screen[column, y].isContinuation {
                line += screen[column, y].grapheme
            }
            return String(line.reversed().drop(while: { $0 == " " }).reversed())
        }
    }

    /// A link added to another note (the CLI, sync) changes this note's backlinks line but not
    /// its version: a store change asks for the preview again (issue 22, item 15).
    @Test func aStoreChangeReloadsThePreviewForItsBacklinks() {
        var state = AppState.fixture(size: Self.size)
        _ = state.requestPreview()
        _ = update(&state, .previewLoaded(noteID(1), content(1, "Groceries", Self.body, ago: 120)))
        #expect(state.requestPreview() == [])
        _ = update(&state, .storeChanged([]))
        #expect(state.requestPreview() == [.loadPreview(noteID(1))])
        var linked = content(1, "Groceries", Self.body, ago: 120)
        linked.backlinks = ["Menu"]
        _ = update(&state, .previewLoaded(noteID(1), linked))
        #expect(state.requestPreview() == [])
        #expect(text(view(state, Self.size)).lines.contains { $0.contains("← Menu") })
    }

    @Test func theSelectedNoteIsAskedForOnceAndItsBodyShowsWrapped() throws {
        var state = AppState.fixture(size: Self.size)
        #expect(state.requestPreview() == [.loadPreview(noteID(1))])
        #expect(state.requestPreview() == [], "asked once while the answer is on its way")
        _ = update(&state, .previewLoaded(noteID(1), content(1, "Groceries", Self.body, ago: 120)))
        #expect(state.requestPreview() == [])
        let screen = view(state, Self.size)
        let separator = try #require((0..<100).first { screen[$0, 2].grapheme == "│" })
        let lines = paneLines(screen, from: separator + 2)
        let width = 100 - separator - 2
        #expect(lines[0] == "Groceries")
        // The first body line is wider than the pane: it wraps onto a second row.
        #expect(Self.body.split(separator: "\n")[0].count > width)
        #expect(lines[1].hasPrefix("Buy milk from the corner shop"))
        #expect(lines[2].hasSuffix("open after six."), "\(lines)")
        #expect(lines[3] == "Second line.")
        #expect(lines[4] == "Third line: bread.")
        #expect(!lines.contains("Enter: open"))
    }

    @Test func movingTheSelectionAsksForTheNextNoteAndALateAnswerIsDropped() {
        var state = AppState.fixture(size: Self.size)
        _ = state.requestPreview()
        _ = send("j", to: &state)
        #expect(state.requestPreview() == [.loadPreview(noteID(2))])
        _ = update(&state, .previewLoaded(noteID(1), content(1, "Groceries", Self.body, ago: 120)))
        #expect(state.preview == nil, "the answer for a note no longer selected is not shown")
        let screen = view(state, Self.size)
        #expect(!String(describing: text(screen)).contains("Buy milk"))
    }

    @Test func aSearchPreviewStartsAtTheFirstMatchAndHighlightsIt() throws {
        var state = AppState.fixture(size: Self.size)
        _ = send("/zebra", to: &state)
        var found = row(3, "Meeting notes", ago: 3 * 86_400)
        found.snippetMatches = []
        _ = update(&state, .searchResults(query: "zebra", rows: [found], limit: 100))
        #expect(state.selectedRow?.id == noteID(3))
        state.focus = .list
        #expect(state.requestPreview() == [.loadPreview(noteID(3))])
        let body = (1...40).map { "line \($0)" }.joined(separator: "\n") + "\nthe Zebra crossing\nafter"
        _ = update(&state, .previewLoaded(noteID(3), content(3, "Meeting notes", body, ago: 3 * 86_400)))
        let screen = view(state, Self.size)
        let separator = try #require((0..<100).first { screen[$0, 2].grapheme == "│" })
        let lines = paneLines(screen, from: separator + 2)
        #expect(lines[1] == "the Zebra crossing", "\(lines)")
        #expect(lines[2] == "after")
        let x = separator + 2 + 4
        #expect(styles(screen, y: 2, x: x, count: 5).allSatisfy { $0 == Self.highlight })
        #expect(screen[x - 1, 2].style != Self.highlight)
        #expect(screen[x + 5, 2].style != Self.highlight)
    }
}
