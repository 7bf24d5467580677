import Foundation
import NotesCore

/// The editor's text outlives its note (issue 22, item 3): a note purged while it is open (the
/// CLI's `purge`, another device) leaves the editor with its text, and the next save keeps
/// that text as a new note, said in the status bar; `^R` and quitting keep it too.
extension AppState {
    /// `Action.noteGone`: the note open in the editor is no longer in the store.
    mutating func noteGone(_ id: UUID) -> [Effect] {
        switch editor {
        case .loading(let opening) where opening.noteID == id:
            // Deleted before it could open: nothing was typed into it.
            editor = .closed
            focus = .list
            return show("The note was deleted", severity: .error)
        case .loaded(let open) where open.noteID == id:
            break
        case .closed, .loading, .loaded:
            return []
        }
        let unsaved = editor.withLoaded { open in
            open.isGone = true
            open.isTrashed = false
            open.baseRevision = nil
            return open.hasUnsavedEdits
        }
        if unsaved == true { return saveEditor() }
        return show(
            "This note was deleted for good elsewhere: what you type is kept as a new note (^R keeps it now)",
            severity: .warning)
    }

    /// `^R` on a note deleted for good: its text is saved as a new note now, typed into or not.
    mutating func keepAsNewNote() -> [Effect] {
        guard editor.readLoaded({ $0.isGone && $0.savingText == nil }) == true else { return [] }
        editor.withLoaded { open in
            // The store has none of this text any more: it is all unsaved.
            open.storedText = ""
            open.cleanChangeCount = -1
        }
        return saveEditor()
    }

    /// The editor follows a save that kept its text as a new note: it edits that note now,
    /// the list selects it, and the status bar says what happened.
    mutating func keptAsNewNote(_ saved: SavedNote) -> [Effect] {
        guard let gone = saved.keptFrom, editor.readLoaded(\.noteID) == gone else { return [] }
        editor.withLoaded { open in
            open.noteID = saved.id
            open.isGone = false
            open.isTrashed = false
            open.isNew = false
        }
        // The list selects the note the editor edits, as it does a new note.
        selectedID = saved.id
        undoableTrashes.removeAll { $0 == gone }
        let title = Self.shortTitle(saved.title)
        return show(
            "The note was deleted for good elsewhere: your text is kept as a new note “\(title)”", severity: .warning)
    }
}
