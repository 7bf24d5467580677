import Foundation
import NotesApp
import NotesCore
import TerminalUI
import Testing

/// The Trash view (`T`) over a model store: restore, delete forever after a question, and the
/// selection by id (ARCHITECTURE §6) inside the trash.
@Suite struct TrashViewTests {
    /// Four notes, "Alpha" newest; "Beta" then "Gamma" trashed (Gamma most recently).
    func trashedStore() -> (ModelStore, [UUID]) {
        var store = ModelStore()
        let ids = ["Delta", "Gamma", "Beta", "Alpha"].map { title -> UUID in
            store.clock += 10
            return store.add(title: title, body: "\(title.lowercased()) text")
        }
        store.trash(ids[2])
        store.trash(ids[1])
        return (store, ids)
    }

    func trashTitles(_ state: AppState) -> [String] { state.trash?.rows?.map(\.title) ?? [] }

    @Test func tShowsTheTrashMostRecentlyTrashedFirstAndEscGoesBack() {
        var (store, _) = trashedStore()
        var state = store.app()
        store.send("T", to: &state)
        #expect(state.trash != nil)
        #expect(trashTitles(state) == ["Gamma", "Beta"])
        #expect(state.trash?.selectedRow?.title == "Gamma")
        store.send("<Esc>", to: &state)
        #expect(state.focus == .list)
        #expect(state.trash == nil)
        #expect(state.selectedRow?.title == "Alpha")
    }

    @Test func rRestoresTheSelectedNoteWhichIsSelectedInTheListAndTheNextTrashedRowIsSelected() {
        var (store, ids) = trashedStore()
        var state = store.app()
        store.send("T", to: &state)
        let effects = send("j", to: &state)
        #expect(effects.isEmpty)
        #expect(state.trash?.selectedRow?.title == "Beta")
        store.settle(&state, send("r", to: &state))
        #expect(store.notes.first { $0.id == ids[2] }?.trashed == false)
        #expect(trashTitles(state) == ["Gamma"])
        // The row that took its place (here the one before, as Beta was last) is selected.
        #expect(state.trash?.selectedRow?.title == "Gamma")
        #expect(state.message?.text == "Restored “Beta” to the notes")
        store.send("<Esc>", to: &state)
        #expect(state.selectedRow?.title == "Beta")
        #expect(state.rows.map(\.title) == ["Alpha", "Beta", "Delta"])
    }

    @Test func theTrashPreviewRendersMarkdownAsTheListDoesAndRawAfterR() {
        var store = ModelStore()
        _ = store.add(title: "Kept", body: "k")
        let id = store.add(title: "Recipe", body: "# Dough\n- [ ] **flour** and water\n")
        store.trash(id)
        var state = store.app()
        store.send("T", to: &state)
        // The runtime asks for the preview before it paints.
        store.settle(&state, state.requestPreview())
        let rendered = (0..<state.size.height).map { text(row($0, of: view(state, state.size))).lines[0] }
        #expect(rendered.contains { $0.contains("Dough") && !$0.contains("# Dough") }, "\(rendered)")
        #expect(rendered.contains { $0.contains("flour and water") && !$0.contains("**") }, "\(rendered)")
        // `r` in the list switches the preview to raw text: the trash shows the same.
        store.send("<Esc>r", to: &state)
        store.send("T", to: &state)
        store.settle(&state, state.requestPreview())
        let raw = (0..<state.size.height).map { text(row($0, of: view(state, state.size))).lines[0] }
        #expect(raw.contains { $0.contains("- [ ] **flour** and water") }, "\(raw)")
    }

    @Test func enterRestoresToo() {
        var (store, ids) = trashedStore()
        var state = store.app()
        store.send("T<Enter>", to: &state)
        #expect(store.notes.first { $0.id == ids[1] }?.trashed == false)
        #expect(trashTitles(state) == ["Beta"])
    }

    @Test func xAsksAndNothingIsPurgedWithoutY() {
        var (store, ids) = trashedStore()
        var state = store.app()
        store.send("T", to: &state)
        // X asks; n (or any other key) answers no.
        #expect(send("X", to: &state).isEmpty)
        #expect(state.trash?.confirmingPurge?.id == ids[1])
        let bar = text(row(14, of: view(state, state.size))).lines[0]
        #expect(bar.contains("Delete forever “Gamma”? y/n"), "\(bar)")
        store.send("n", to: &state)
        #expect(state.trash?.confirmingPurge == nil)
        #expect(state.message?.text == "Nothing deleted")
        #expect(store.notes.count == 4)
        // Esc says no as well (and does not leave the view).
        store.send("D<Esc>", to: &state)
        #expect(state.trash != nil)
        #expect(store.notes.count == 4)
        // y purges the note asked about, and only it.
        store.send("X", to: &state)
        let purge = send("y", to: &state)
        #expect(purge.first == .purge(ids[1]))
        store.settle(&state, purge)
        #expect(!store.notes.contains { $0.id == ids[1] })
        #expect(store.notes.count == 3)
        #expect(trashTitles(state) == ["Beta"])
        #expect(state.trash?.selectedRow?.title == "Beta")
        #expect(state.message?.text == "Deleted “Gamma” forever")
    }

    @Test func aNoteRestoredElsewhereWhileAskedIsNotPurged() {
        var (store, ids) = trashedStore()
        var state = store.app()
        store.send("TX", to: &state)
        // Restored by another process: the reload drops the question.
        store.change(ids[1]) { $0.trashed = false }
        store.settle(&state, update(&state, .storeChanged([])))
        #expect(state.trash?.confirmingPurge == nil)
        #expect(trashTitles(state) == ["Beta"])
        store.send("y", to: &state)
        #expect(store.notes.count == 4)
        #expect(store.notes.first { $0.id == ids[1] }?.trashed == false)
    }

    @Test func theSelectedTrashedNoteStaysSelectedWhenAnotherIsTrashedElsewhere() {
        var (store, ids) = trashedStore()
        var state = store.app()
        store.send("Tj", to: &state)
        #expect(state.trash?.selectedRow?.title == "Beta")
        // Alpha goes to the trash elsewhere: it comes first, Beta moves down and stays selected.
        store.trash(ids[3])
        store.settle(&state, update(&state, .storeChanged([])))
        #expect(trashTitles(state) == ["Alpha", "Gamma", "Beta"])
        #expect(state.trash?.selectedRow?.title == "Beta")
        #expect(state.trash?.selection == 2)
        // Beta purged elsewhere: the row that took its place is selected.
        store.remove(ids[2])
        store.settle(&state, update(&state, .storeChanged([])))
        #expect(trashTitles(state) == ["Alpha", "Gamma"])
        #expect(state.trash?.selectedRow?.title == "Gamma")
    }

    @Test func theTrashViewSaysWhereYouAreAndWhatTheKeysDo() {
        var (store, _) = trashedStore()
        var state = store.app(size: Size(width: 80, height: 12))
        store.send("T", to: &state)
        let screen = text(view(state, state.size)).lines
        #expect(screen[0].hasPrefix("Trash: r restore · X delete forever · Esc back"))
        #expect(screen[1].hasPrefix("TRASH · 2 notes"))
        #expect(screen[2].contains("Gamma"))
        #expect(screen[3].contains("Beta"))
        #expect(screen[11].hasSuffix("r restore  X delete forever  Esc back "))
        // The selected note's text beside the list.
        #expect(screen[1].contains("Gamma"))
        #expect(screen[2].contains("gamma text"))
    }

    @Test func anEmptyTrashSaysSo() {
        var store = ModelStore()
        _ = store.add(title: "Kept")
        var state = store.app()
        store.send("T", to: &state)
        #expect(text(view(state, state.size)).lines[2].contains("The trash is empty. Esc: back"))
        // Keys that act on a row do nothing.
        #expect(send("rXj", to: &state).isEmpty)
        #expect(state.trash?.confirmingPurge == nil)
    }

    @Test func dThenTThenRBringsTheNoteBackSelected() {
        var store = ModelStore()
        for title in ["One", "Two", "Three"] {
            store.clock += 10
            _ = store.add(title: title)
        }
        var state = store.app()
        store.send("jd", to: &state)
        #expect(state.selectedRow?.title == "One")
        store.send("Tr<Esc>", to: &state)
        #expect(state.rows.map(\.title) == ["Three", "Two", "One"])
        #expect(state.selectedRow?.title == "Two")
    }

    @Test func gGoesToTheLastTrashedNotePastTheLoadedRows() {
        var store = ModelStore()
        for n in 0..<70 {
            let id = store.add(title: String(format: "Old %02d", n))
            store.trash(id)
        }
        var state = store.app()
        store.send("T", to: &state)
        let limit = state.trash?.rows?.count ?? 0
        #expect(limit < 70)
        #expect(state.trash?.totalCount == 70)
        // The first trashed is the last row: G reaches it once the rows arrive.
        store.send("G", to: &state)
        #expect(state.trash?.selectedRow?.title == "Old 00")
        #expect(state.trash?.selection == 69)
        store.send("k", to: &state)
        #expect(state.trash?.selectedRow?.title == "Old 01")
    }

    @Test func purgingANoteStillOpenInTheEditorClosesIt() {
        var store = ModelStore()
        let id = store.add(title: "Open", body: "text")
        var state = store.app()
        store.send("<Enter>", to: &state)
        store.trash(id)
        store.settle(&state, update(&state, .storeChanged([])))
        store.send("<Esc>TXy", to: &state)
        #expect(!store.notes.contains { $0.id == id })
        #expect(state.editor == .closed)
    }
}
