import Foundation
import NotesApp
import NotesCore
import TerminalUI
import Testing

/// Notebooks, tags, links and the day's note in the app.
@Suite struct OrganiseTests {
    static let size = Size(width: 100, height: 20)

    func lines(_ screen: Buffer) -> [String] {
        (0..<screen.size.height).map { y in
            var line = ""
            for x in 0..<screen.size.width where !screen[x, y].isContinuation { line += screen[x, y].grapheme }
            return line
        }
    }

    @Test func theNotebookPickerFiltersTheListAndTheSearchLineNamesTheNotebook() throws {
        var state = AppState.fixture(size: Self.size)
        #expect(send("N", to: &state) == [.loadNotebooks])
        let items = [
            PickerItem(label: "notes", value: "notes", count: 3),
            PickerItem(label: "Work Log", value: "work-log", count: 2),
        ]
        #expect(update(&state, .pickerLoaded(.notebook, items)) == [])
        #expect(state.picker != nil)
        #expect(state.picker?.items.map(\.label) == ["All notebooks", "notes", "Work Log"])
        #expect(state.picker?.items.first?.count == 5)
        let picker = lines(view(state, Self.size))
        #expect(picker.contains { $0.contains("Notebooks") })
        #expect(picker.contains { $0.contains("Work Log") && $0.contains("2") })
        let effects = send("jj<Enter>", to: &state)
        #expect(state.focus == .list && state.picker == nil)
        #expect(state.searchText == "in:work-log")
        #expect(effects.contains { if case .search(query: "in:work-log", _) = $0 { true } else { false } })
        #expect(state.notebookFilter == "work-log")
        #expect(lines(view(state, Self.size))[0].hasSuffix("▸ Work Log "))
        // Opening it again starts on the notebook shown; "All notebooks" shows every note.
        _ = send("N", to: &state)
        _ = update(&state, .pickerLoaded(.notebook, items))
        #expect(state.picker?.selection == 2)
        _ = send("g<Enter>", to: &state)
        #expect(state.searchText.isEmpty && state.notebookFilter == nil)
        // Esc closes the picker without changing anything.
        _ = send("N", to: &state)
        _ = update(&state, .pickerLoaded(.notebook, items))
        _ = send("j<Esc>", to: &state)
        #expect(state.focus == .list && state.searchText.isEmpty)
    }

    @Test func theTagPickerFiltersByTagAndSaysWhenThereAreNone() {
        var state = AppState.fixture(size: Self.size)
        #expect(send("#", to: &state) == [.loadTags])
        _ = update(&state, .pickerLoaded(.tag, []))
        #expect(state.focus == .list && state.message?.text == "No tags yet")
        _ = update(
            &state,
            .pickerLoaded(
                .tag,
                [
                    PickerItem(label: "home", value: "home", count: 1),
                    PickerItem(label: "work", value: "work", count: 4),
                ]))
        #expect(lines(view(state, Self.size)).contains { $0.contains("Tags") })
        _ = send("j<Enter>", to: &state)
        #expect(state.searchText == "tag:work")
    }

    @Test func thePreviewShowsTheNotebookAndTheNotesLinkingHere() throws {
        var state = AppState.fixture(size: Self.size)
        _ = state.requestPreview()
        let content = NoteContent(
            id: noteID(1), title: "Groceries", body: "milk\n", modifiedAt: testNow.addingTimeInterval(-120),
            notebook: "Home Life", backlinks: ["Weekly plan", "Recipes"])
        _ = update(&state, .previewLoaded(noteID(1), content))
        let screen = lines(view(state, Self.size))
        #expect(
            screen[1].contains("Groceries") && screen[1].trimmingCharacters(in: .whitespaces).hasSuffix("Home Life"))
        #expect(screen[Self.size.height - 2].contains("← Weekly plan · Recipes"))
    }

    @Test func linksAreFollowedFromThePreviewAndFromTheEditorCursor() throws {
        var store = ModelStore()
        let hub = store.add(title: "Hub", body: "the centre")
        store.clock += 10
        let spoke = store.add(title: "Spoke", body: "go to [[hub]] now")
        var state = store.app(size: Self.size)
        #expect(state.selectedID == spoke)
        store.settle(&state, state.requestPreview())
        store.send("L", to: &state)
        #expect(state.focus == .editor && state.editor.noteID == hub)
        // Back to the list, open the spoke, put the cursor in the link and follow it.
        store.send("<Esc>", to: &state)
        #expect(state.selectedID == hub, "the followed note is selected in the list")
        store.send("k", to: &state)
        #expect(state.selectedID == spoke)
        store.send("<Enter><Down><C-]>", to: &state)
        #expect(state.editor.noteID == spoke && state.message?.text == "No link under the cursor")
        store.send("<End><Left><Left><Left><Left><Left><C-]>", to: &state)
        #expect(state.editor.noteID == hub)
        // A link to no note says so.
        _ = update(&state, .effectFailed("no note titled “Nowhere”"))
        #expect(state.message?.severity == .error)
    }

    @Test func tOpensTheDaysNote() {
        var state = AppState.fixture(size: Self.size)
        #expect(send("t", to: &state) == [.openToday])
        let effects = update(&state, .openNote(noteID(4)))
        #expect(state.focus == .editor && state.editor.noteID == noteID(4))
        #expect(effects.contains(.loadNote(noteID(4))))
        #expect(effects.contains { if case .locateInList(id: noteID(4), _, _) = $0 { true } else { false } })
    }
}
