import Foundation
import NotesCore
import TerminalUI

/// Retitling a note in the editor offers to update the links to its old title, as `rename
/// --update-links` does in the CLI: asked on leaving the editor or on `^S` (not at every
/// autosave, which saves the title as it is typed), never while quitting.
extension AppState {
    /// When the editor's title no longer names what links to the note by (`linkTitle`), asks the
    /// store how many notes link to the old title; asked once per change. Nothing for a note in
    /// the trash, an untitled one, or a change of case or accents only (links still lead there).
    mutating func askAboutTitleLinks() -> [Effect] {
        guard let open = editor, open.isLoaded, !open.isTrashed, let old = open.linkTitle, let text = open.text
        else { return [] }
        let new = NoteContent.split(text).title
        editor!.linkTitle = new
        guard !old.trimmingCharacters(in: .whitespaces).isEmpty, !new.trimmingCharacters(in: .whitespaces).isEmpty,
            TextFolding.fold(old) != TextFolding.fold(new)
        else { return [] }
        return [.countTitleLinks(noteID: open.noteID, oldTitle: old, newTitle: new)]
    }

    /// `Action.titleLinksCounted`: with links to the old title, the status bar asks.
    mutating func titleLinksCounted(noteID: UUID, oldTitle: String, newTitle: String, count: Int) -> [Effect] {
        guard count > 0 else { return [] }
        linkUpdate = LinkUpdatePrompt(noteID: noteID, oldTitle: oldTitle, newTitle: newTitle, count: count)
        return []
    }

    /// A key while the status bar asks: `y` updates the links, `n` or Esc leaves them; any
    /// other key leaves them too and then does what it does.
    mutating func linkUpdateKey(_ key: InputEvent.Key, _ modifiers: InputEvent.Modifiers) -> [Effect] {
        guard let asked = linkUpdate else { return [] }
        linkUpdate = nil
        let kept = show("Links to “\(Self.shortTitle(asked.oldTitle))” left as they are")
        switch (key, modifiers) {
        case (.character("y"), []), (.character("Y"), _):
            return [.updateTitleLinks(noteID: asked.noteID, oldTitle: asked.oldTitle)]
        case (.character("n"), []), (.character("N"), _), (.escape, _):
            return kept
        default:
            return kept + self.key(key, modifiers)
        }
    }

    /// `Action.titleLinksUpdated`: the linking notes changed; what is on screen is reloaded.
    mutating func titleLinksUpdated(count: Int) -> [Effect] {
        storeChanged([]) + show("Updated links in \(count) note\(count == 1 ? "" : "s")")
    }
}
