import Foundation
import NotesApp
import NotesCore
import TerminalUI
import Testing

/// Retitling a note and quitting at once (`^Q` in the editor, or Esc then `q`, even before the
/// links are counted) asks the same question before the app exits: the text is saved first,
/// `y` updates the links and then quits, `n` quits leaving them.
@Suite struct LinkUpdateQuitTests {
    static let size = Size(width: 100, height: 20)
    static let ctrlQ = Action.input(.key(.character("q"), modifiers: .control))

    func hubAndSpokes() -> (ModelStore, hub: UUID, spoke: UUID, other: UUID) { ModelStore.hubAndSpokes() }

    func body(_ store: ModelStore, _ id: UUID) -> String? { store.notes.first { $0.id == id }?.body }
    func title(_ store: ModelStore, _ id: UUID) -> String? { store.notes.first { $0.id == id }?.title }

    /// Runs `effects` and what their answers ask for, as `ModelStore.settle` does, and says
    /// whether `.quit` was asked for on the way.
    func settleQuits(_ store: inout ModelStore, _ state: inout AppState, _ effects: [Effect]) -> Bool {
        var queue = effects
        var quits = false
        while !queue.isEmpty {
            let effect = queue.removeFirst()
            if effect == .quit { quits = true }
            for action in store.answer(effect) { queue += update(&state, action) }
        }
        return quits
    }

    func key(_ notation: String, _ store: inout ModelStore, _ state: inout AppState) -> Bool {
        var quits = false
        for event in InputEvent.keys(notation)! {
            if settleQuits(&store, &state, update(&state, .input(event))) { quits = true }
        }
        return quits
    }

    @Test func ctrlQAfterARetitleSavesAsksAndYUpdatesTheLinksThenQuits() {
        var (store, hub, spoke, other) = hubAndSpokes()
        var state = store.app(size: Self.size)
        store.send("<Enter><End><BS><BS><BS>Centre", to: &state)
        // The text is saved first, then the links are counted; nothing quits yet.
        let effects = update(&state, Self.ctrlQ)
        #expect(effects.count == 2)
        #expect(
            effects.first.map { if case .saveNote(id: hub, title: "Centre", _, _) = $0 { true } else { false } } == true
        )
        #expect(effects.last == .countTitleLinks(noteID: hub, oldTitle: "Hub", newTitle: "Centre"))
        #expect(!settleQuits(&store, &state, effects))
        #expect(title(store, hub) == "Centre", "the text is saved before the question")
        #expect(state.quitting == .afterLinks)
        #expect(state.linkUpdate == LinkUpdatePrompt(noteID: hub, oldTitle: "Hub", newTitle: "Centre", count: 2))
        // While asked before quitting, other keys neither answer nor type.
        #expect(!key("x", &store, &state))
        #expect(state.linkUpdate != nil && state.editor.loaded?.text == "Centre\nthe centre")
        let yes = update(&state, .key("y"))
        #expect(yes.first == .updateTitleLinks(noteID: hub, oldTitle: "Hub"))
        #expect(!yes.contains(.quit), "quits once the links are updated, not before")
        #expect(state.quitting == .afterLinkUpdate)
        #expect(settleQuits(&store, &state, yes))
        #expect(body(store, spoke) == "go to [[Centre]] now")
        #expect(body(store, other) == "see [[Centre]]")
    }

    @Test func nQuitsLeavingTheLinks() {
        var (store, hub, spoke, _) = hubAndSpokes()
        var state = store.app(size: Self.size)
        #expect(!key("<Enter><End><BS><BS><BS>Centre<C-q>", &store, &state))
        #expect(state.linkUpdate?.count == 2)
        #expect(update(&state, .key("n")) == [.quit])
        #expect(body(store, spoke) == "go to [[Hub]] now")
        #expect(title(store, hub) == "Centre")
    }

    /// Esc then `q` at once: the count asked for by Esc is not answered yet when `q` comes.
    @Test func qBeforeTheCountOfEscIsAnsweredStillAsks() {
        var (store, hub, spoke, _) = hubAndSpokes()
        var state = store.app(size: Self.size)
        store.send("<Enter><End><BS><BS><BS>Centre", to: &state)
        let leave = update(&state, .key(.escape))
        #expect(leave.last == .countTitleLinks(noteID: hub, oldTitle: "Hub", newTitle: "Centre"))
        let quit = update(&state, .key("q"))
        #expect(!quit.contains(.quit), "waits for the count")
        #expect(state.quitting == .afterLinks)
        #expect(!settleQuits(&store, &state, leave + quit))
        #expect(state.linkUpdate?.oldTitle == "Hub")
        #expect(key("y", &store, &state))
        #expect(body(store, spoke) == "go to [[Centre]] now")
    }

    /// Asked already (after Esc), `q` in the list does not leave the question unanswered: it
    /// stays, now before quitting.
    @Test func qWhileAskedKeepsTheQuestionAndQuitsOnTheAnswer() {
        var (store, _, spoke, _) = hubAndSpokes()
        var state = store.app(size: Self.size)
        store.send("<Enter><End><BS><BS><BS>Centre<Esc>", to: &state)
        #expect(state.linkUpdate?.count == 2)
        #expect(!key("q", &store, &state))
        #expect(state.linkUpdate?.count == 2 && state.quitting == .afterLinks)
        #expect(key("<Esc>", &store, &state))
        #expect(body(store, spoke) == "go to [[Hub]] now")
    }

    @Test func noLinksToTheOldTitleQuitsOnceCounted() {
        var (store, _, _, other) = hubAndSpokes()
        var state = store.app(size: Self.size)
        store.send("<Down>", to: &state)
        #expect(state.selectedID == other)
        store.send("<Enter><End>s", to: &state)
        let effects = update(&state, Self.ctrlQ)
        #expect(effects.contains { if case .countTitleLinks = $0 { true } else { false } })
        #expect(!effects.contains(.quit))
        #expect(settleQuits(&store, &state, effects))
        #expect(title(store, other) == "Others" && state.linkUpdate == nil)
    }

    @Test func aSecondQuitOrAFailedCountQuitsWithoutWaiting() {
        var (store, _, spoke, _) = hubAndSpokes()
        var state = store.app(size: Self.size)
        #expect(!key("<Enter><End><BS><BS><BS>Centre<C-q>", &store, &state))
        #expect(state.linkUpdate != nil)
        #expect(update(&state, Self.ctrlQ) == [.quit])
        #expect(body(store, spoke) == "go to [[Hub]] now")

        var (store2, _, _, _) = hubAndSpokes()
        var failing = store2.app(size: Self.size)
        store2.send("<Enter><End><BS><BS><BS>Centre", to: &failing)
        let effects = update(&failing, Self.ctrlQ)
        // The save is answered; the count fails.
        for action in store2.answer(effects[0]) { #expect(!update(&failing, action).contains(.quit)) }
        #expect(update(&failing, .effectFailed("database is locked")).contains(.quit))
    }

    @Test func aFailedSaveWhileQuittingKeepsTheAppOpen() {
        var (store, hub, _, _) = hubAndSpokes()
        var state = store.app(size: Self.size)
        store.send("<Enter><End><BS><BS><BS>Centre", to: &state)
        _ = update(&state, Self.ctrlQ)
        #expect(!update(&state, .saveFailed(hub, message: "disk full")).contains(.quit))
        #expect(state.quitting == .confirmWithoutSaving)
        #expect(state.editor.loaded?.text == "Centre\nthe centre")
    }
}
