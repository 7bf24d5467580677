import Foundation
import NotesCore
import TerminalUI

/// Retitling a note in the editor offers to update the links to its old title, as `rename
/// --update-links` does in the CLI: asked on leaving the editor, on `^S` or on quitting (`q`,
/// `^Q`: the text is saved first, `y` updates the links and quits, `n` quits), not at every
/// autosave, which saves the title as it is typed, and not on a signal or `^C`, which cannot
/// wait for an answer.
extension AppState {
    /// When the editor's title no longer names what links to the note by (`linkTitle`), asks the
    /// store how many notes link to the old title; asked once per change. Nothing for a note in
    /// the trash, an untitled one, or a change of case or accents only (links still lead there).
    mutating func askAboutTitleLinks() -> [Effect] {
        guard case .loaded(let open) = editor, !open.isTrashed, let old = open.linkTitle else { return [] }
        let new = NoteContent.split(open.text).title
        editor.withLoaded { $0.linkTitle = new }
        guard !old.trimmingCharacters(in: .whitespaces).isEmpty, !new.trimmingCharacters(in: .whitespaces).isEmpty,
            TextFolding.fold(old) != TextFolding.fold(new)
        else { return [] }
        linkCountsPending += 1
        return [.countTitleLinks(noteID: open.noteID, oldTitle: old, newTitle: new)]
    }

    /// `Action.titleLinksCounted`: with links to the old title, the status bar asks; without,
    /// a quit that waited for the count goes on.
    mutating func titleLinksCounted(noteID: UUID, oldTitle: String, newTitle: String, count: Int) -> [Effect] {
        linkCountsPending = max(0, linkCountsPending - 1)
        guard count > 0 else { return quitting == .afterLinks ? quitUnlessAsked() : [] }
        linkUpdate = LinkUpdatePrompt(noteID: noteID, oldTitle: oldTitle, newTitle: newTitle, count: count)
        return []
    }

    /// A key while the status bar asks: `y` updates the links, `n` or Esc leaves them; any
    /// other key leaves them too and then does what it does, except one that quits: the
    /// question stays and the app quits once it is answered. While quitting only `y`, `n` and
    /// Esc answer.
    mutating func linkUpdateKey(_ key: InputEvent.Key, _ modifiers: InputEvent.Modifiers) -> [Effect] {
        guard let asked = linkUpdate else { return [] }
        let beforeQuit = quitting == .afterLinks
        // Where `q` quits (the list and the help); elsewhere it is the view's own key.
        let quitKeyQuits = if case .help = focus { true } else { focus == .list }
        switch (key, modifiers) {
        case (.character("y"), []), (.character("Y"), _):
            linkUpdate = nil
            let update = Effect.updateTitleLinks(noteID: asked.noteID, oldTitle: asked.oldTitle)
            guard beforeQuit else { return [update] }
            quitting = .afterLinkUpdate
            return [update] + show("Updating links before quitting…")
        case (.character("n"), []), (.character("N"), _), (.escape, _):
            linkUpdate = nil
            let kept = show("Links to “\(Self.shortTitle(asked.oldTitle))” left as they are")
            return beforeQuit ? quitUnlessAsked() : kept
        case (.character("q"), []) where quitKeyQuits:
            return beforeQuit ? [] : quit()
        default:
            guard !beforeQuit else { return [] }
            linkUpdate = nil
            return show("Links to “\(Self.shortTitle(asked.oldTitle))” left as they are") + self.key(key, modifiers)
        }
    }

    /// Quitting after the links: quits unless a count is still coming or a question is asked.
    private mutating func quitUnlessAsked() -> [Effect] {
        linkUpdate == nil && linkCountsPending == 0 ? finishQuit() : []
    }

    /// `Action.titleLinksUpdated`: the linking notes changed; what is on screen is reloaded,
    /// or the quit that waited for them goes on.
    mutating func titleLinksUpdated(count: Int) -> [Effect] {
        if quitting == .afterLinkUpdate { return finishQuit() }
        return storeChanged([]) + show("Updated links in \(count) note\(count == 1 ? "" : "s")")
    }
}
