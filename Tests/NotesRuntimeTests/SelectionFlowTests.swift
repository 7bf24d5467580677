import Foundation
import NotesCore
import NotesStore
import Testing

/// The selection is a note, not a row (ARCHITECTURE §6), stepped in-process (formerly tmux
/// end-to-end tests): the editor pane shows the selected note's title on its first line.
@Suite struct SelectionFlowTests {
    /// `count` notes titled `title(i)` (i from 1, note 1 the newest), favorites where `favorite(i)`.
    private static func populate(
        _ store: NoteStore, count: Int, title: (Int) -> String, favorite: (Int) -> Bool = { _ in false }
    ) throws {
        let base = Date(timeIntervalSince1970: 1_700_000_000)
        let notes = (1...count).map { i in
            let date = base.addingTimeInterval(Double(-i * 60))
            return Note(
                id: UUID(uuidString: String(format: "00000000-0000-4000-8000-%012d", i)) ?? UUID(), title: title(i),
                body: "body \(i)", isFavorite: favorite(i), createdAt: date, modifiedAt: date)
        }
        _ = try store.importNotes(notes)
    }

    @Test func fTwiceOnTheLastOf2000NotesFavoritesThenUnfavoritesThatNoteOnly() throws {
        let app = try SteppedRuntime { try Self.populate($0, count: 2000, title: { String(format: "Note %04d", $0) }) }
        app.expectSelected("Note 0001")
        app.press("G")
        app.expectSelected("Note 2000")
        app.press("f")
        // It moved to FAVORITES at the top; the selection went with it.
        app.expectScreen("Note 2000 in FAVORITES") { $0.contains("FAVORITES") && $0.contains("★ Note 2000") }
        app.expectSelected("Note 2000")
        app.press("f")
        app.expectScreen("FAVORITES gone") { !$0.contains("FAVORITES") }
        app.expectSelected("Note 2000")
        #expect(try app.titles(.favorites).isEmpty)
        // From the top favorite: f f leaves it a favorite and every other note as it was.
        app.press("f")
        app.expectScreen("Note 2000 in FAVORITES") { $0.contains("★ Note 2000") }
        app.press("gf")
        app.expectScreen("FAVORITES gone") { !$0.contains("FAVORITES") }
        app.press("f")
        app.expectScreen("Note 2000 in FAVORITES") { $0.contains("★ Note 2000") }
        app.expectSelected("Note 2000")
        #expect(try app.titles(.favorites) == ["Note 2000"])
    }

    @Test func holdingJAndJumpingToTheEndOfSearchResultsReachTheRightResult() throws {
        let app = try SteppedRuntime { store in
            try Self.populate(
                store, count: 300, title: { String(format: "the note %03d", $0) }, favorite: { $0 % 10 == 0 })
        }
        // The newest favorite is selected at start; it stays selected in the results (the 10th).
        app.expectSelected("the note 010")
        app.press("/the")
        app.expectScreen("the results") { $0.contains("/ the") && $0.contains("the note 001") }
        app.press("<Enter>")
        // Held j: 40 repeats at once, past the first page of results.
        app.burst(Array(repeating: .char("j"), count: 40))
        app.expectSelected("the note 050")
        app.press("G")
        app.expectSelected("the note 300")
        app.press("g")
        app.expectSelected("the note 001")
        app.press("<End>")
        app.expectSelected("the note 300")
        app.press("g")
        app.expectSelected("the note 001")
        app.burst(Array(repeating: .key(.pageDown), count: 12))
        app.expectSelected("the note 300")
    }

    @Test func aNewNoteIsSelected() throws {
        let app = try SteppedRuntime { try Self.populate($0, count: 5, title: { "Old \($0)" }) }
        app.expectSelected("Old 1")
        for title in ["First note", "Second note"] {
            app.press("n")
            app.press(title)
            app.expectScreen(title)
            app.press("<Esc>")
            app.expectScreen("the list's key hints") { $0.contains("q quit") }
            app.expectSelected(title)
        }
    }

    @Test func aFavoriteMadeInSearchShowsInTheWholeListAtOnce() throws {
        let app = try SteppedRuntime { try Self.populate($0, count: 60, title: { $0 == 45 ? "alpha" : "Note \($0)" }) }
        app.expectSelected("Note 1")
        app.press("/alpha")
        app.expectScreen("the one result") { $0.contains("alpha") && !$0.contains("Note 1") }
        app.press("<Enter>")
        app.expectSelected("alpha")
        app.press("f")
        app.expectScreen("the star") { $0.contains("★ alpha") }
        app.press("<Esc>")
        // At once: no clock moved, no poll for other processes ran.
        app.expectScreen("alpha in FAVORITES and selected") {
            $0.contains("FAVORITES") && $0.contains("★ alpha") && $0.contains("Note 1") && app.paneTitle == "alpha"
        }
    }
}
