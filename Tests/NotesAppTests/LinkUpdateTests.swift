import Foundation
import NotesApp
import NotesCore
import TerminalUI
import Testing

/// Retitling a note in the editor while other notes link to its old title: on leaving the
/// editor (or `^S`) the status bar asks "Update N links to “Old” → “New”? y/n"; `y` rewrites
/// the links (as `rename --update-links`), `n` leaves them.
@Suite struct LinkUpdateTests {
    static let size = Size(width: 100, height: 20)

    func statusLine(_ state: AppState) -> String {
        let screen = view(state, Self.size)
        let y = Self.size.height - 1
        var line = ""
        for x in 0..<screen.size.width where !screen[x, y].isContinuation { line += screen[x, y].grapheme }
        return line
    }

    func hubAndSpokes() -> (ModelStore, hub: UUID, spoke: UUID, other: UUID) { ModelStore.hubAndSpokes() }

    func body(_ store: ModelStore, _ id: UUID) -> String? { store.notes.first { $0.id == id }?.body }

    @Test func leavingTheEditorWithANewTitleAsksAndYUpdatesTheLinks() throws {
        var (store, hub, spoke, other) = hubAndSpokes()
        var state = store.app(size: Self.size)
        #expect(state.selectedID == hub)
        store.send("<Enter><End><BS><BS><BS>Centre", to: &state)
        #expect(state.editor.loaded?.text == "Centre\nthe centre")
        // Esc saves first, then asks how many notes link to the old title, in that order.
        let effects = update(&state, .key(.escape))
        #expect(effects.count == 2)
        #expect(
            effects.first.map { if case .saveNote(id: hub, title: "Centre", _, _) = $0 { true } else { false } } == true
        )
        #expect(effects.last == .countTitleLinks(noteID: hub, oldTitle: "Hub", newTitle: "Centre"))
        store.settle(&state, effects)
        #expect(state.linkUpdate == LinkUpdatePrompt(noteID: hub, oldTitle: "Hub", newTitle: "Centre", count: 2))
        #expect(statusLine(state).contains("Update 2 links to “Hub” → “Centre”? y/n"))
        #expect(update(&state, .key("y")) == [.updateTitleLinks(noteID: hub, oldTitle: "Hub")])
        #expect(state.linkUpdate == nil)
        store.settle(&state, [.updateTitleLinks(noteID: hub, oldTitle: "Hub")])
        #expect(body(store, spoke) == "go to [[Centre]] now")
        #expect(body(store, other) == "see [[Centre]]")
        #expect(state.message?.text == "Updated links in 2 notes")
        #expect(!statusLine(state).contains("y/n"))
        // Asked once per change: opening it again and leaving without a new title asks nothing.
        store.send("<Enter>", to: &state)
        #expect(!update(&state, .key(.escape)).contains { if case .countTitleLinks = $0 { true } else { false } })
    }

    @Test func nLeavesTheLinksAsTheyAre() throws {
        var (store, hub, spoke, _) = hubAndSpokes()
        var state = store.app(size: Self.size)
        store.send("<Enter><End><BS><BS><BS>Centre<Esc>", to: &state)
        #expect(state.linkUpdate?.count == 2)
        let selected = state.selectedID
        store.send("n", to: &state)
        #expect(state.linkUpdate == nil && state.selectedID == selected)
        #expect(body(store, spoke) == "go to [[Hub]] now")
        #expect(state.message?.text == "Links to “Hub” left as they are")
        #expect(store.notes.first { $0.id == hub }?.title == "Centre", "the new title itself is saved")
    }

    @Test func ctrlSAsksInTheEditorAndAnotherKeyLeavesTheLinksAndIsTyped() throws {
        var (store, hub, spoke, _) = hubAndSpokes()
        var state = store.app(size: Self.size)
        store.send("<Enter><End><BS><BS><BS>Centre<C-s>", to: &state)
        #expect(state.focus == .editor)
        #expect(state.linkUpdate?.noteID == hub)
        store.send("!", to: &state)
        #expect(state.linkUpdate == nil)
        #expect(state.editor.loaded?.text == "Centre!\nthe centre")
        #expect(body(store, spoke) == "go to [[Hub]] now")
        // The title changed again: leaving asks about the links to Hub no more (it was answered),
        // and a title nothing links to asks nothing.
        store.send("<Esc>", to: &state)
        #expect(state.linkUpdate == nil)
    }

    @Test func noQuestionWithoutLinksForACaseChangeOrAtAutosave() throws {
        var (store, hub, _, _) = hubAndSpokes()
        var state = store.app(size: Self.size)
        // Only the case changes: links still lead here.
        store.send("<Enter><Home><Del>h<Esc>", to: &state)
        #expect(store.notes.first { $0.id == hub }?.title == "hub")
        #expect(state.linkUpdate == nil)
        // An autosave of a new title asks nothing; leaving does.
        store.send("<Enter><End><BS><BS><BS>Centr", to: &state)
        let typing = update(&state, .key("e"))
        guard case .scheduleTimer(let timer, _) = typing.last else {
            Issue.record("typing schedules no autosave: \(typing)")
            return
        }
        let autosave = update(&state, .timerFired(timer))
        #expect(autosave.contains { if case .saveNote = $0 { true } else { false } })
        #expect(!autosave.contains { if case .countTitleLinks = $0 { true } else { false } })
        store.settle(&state, autosave)
        #expect(state.linkUpdate == nil)
        store.send("<Esc>", to: &state)
        #expect(state.linkUpdate?.oldTitle == "hub")
        store.send("n", to: &state)
        // A count of none asks nothing.
        #expect(update(&state, .titleLinksCounted(noteID: hub, oldTitle: "Centre", newTitle: "Core", count: 0)) == [])
        #expect(state.linkUpdate == nil)
    }
}

extension ModelStore {
    /// Spoke and Other link to Hub; Hub (the newest) is selected.
    static func hubAndSpokes() -> (ModelStore, hub: UUID, spoke: UUID, other: UUID) {
        var store = ModelStore()
        let spoke = store.add(title: "Spoke", body: "go to [[Hub]] now")
        store.clock += 10
        let other = store.add(title: "Other", body: "see [[hub]]", modifiedAt: store.clock)
        store.clock += 10
        let hub = store.add(title: "Hub", body: "the centre", modifiedAt: store.clock)
        return (store, hub, spoke, other)
    }
}
