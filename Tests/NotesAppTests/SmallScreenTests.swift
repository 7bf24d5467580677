import Foundation
import NotesApp
import NotesCore
import TerminalUI
import Testing

/// Below 60x15 the screen draws what fits; no size, down to nothing at all, may crash it.
@Suite struct SmallScreenTests {
    static func states() -> [(String, AppState)] {
        var help = AppState.fixture()
        _ = send("?", to: &help)
        var editing = AppState.editing(
            NoteContent(
                id: noteID(1), title: "会議 👩‍💻", body: "a\u{1B}[2J long line of text that wraps 中文\nb",
                modifiedAt: testNow, headRevision: "r1"))
        _ = send("<C-End>", to: &editing)
        var resolver = AppState.fixture()
        _ = send("jjc", to: &resolver)
        let side = ConflictVersions.Side(label: "this device", title: "T", body: "x 中文 y")
        _ = update(
            &resolver, .conflictLoaded(ConflictVersions(noteID: noteID(3), mine: side, theirs: side, base: side)))
        var resolverEditing = resolver
        _ = send("e", to: &resolverEditing)
        var history = AppState.fixture()
        _ = send("h", to: &history)
        _ = update(
            &history,
            .historyLoaded(noteID(1), [HistoryEntry(id: "r1", date: testNow, device: "d", title: "T", body: "中文")]))
        return [
            ("list", AppState.fixture()), ("help", help), ("editor", editing), ("resolver", resolver),
            ("resolver editing", resolverEditing), ("history", history),
        ]
    }

    @Test func everySizeFromNothingUpDrawsWithinTheBuffer() {
        for (name, start) in Self.states() {
            for width in 0...34 {
                for height in 0...12 {
                    var state = start
                    let size = Size(width: width, height: height)
                    _ = update(&state, .resize(size))
                    let screen = view(state, size)
                    #expect(screen.size == size, "\(name) at \(width)x\(height)")
                    // Keys still work after the resize.
                    _ = update(&state, .key(.down))
                    _ = view(state, size)
                }
            }
        }
    }
}
