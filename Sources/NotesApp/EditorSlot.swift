import Foundation

/// What the editor pane holds: no note, a note being read from the store, or a note being
/// edited. It stays as it is while the list or an overlay has the keys (Esc keeps the note
/// open), so it sits beside `AppState.focus`, not in it.
public enum EditorSlot: Equatable, Sendable {
    case closed
    /// `Effect.loadNote` was sent and its text has not arrived (`Action.noteLoaded`).
    case loading(OpeningNote)
    /// The note's text is in the editor.
    case loaded(EditorState)

    /// The note the pane has open, loading or loaded.
    public var noteID: UUID? {
        switch self {
        case .closed: nil
        case .loading(let opening): opening.noteID
        case .loaded(let open): open.noteID
        }
    }

    /// A save of the loaded note is running (`Effect.saveNote` not answered yet).
    var isSaving: Bool {
        if case .loaded(let open) = self { open.savingText != nil } else { false }
    }

    /// What `read` says of the loaded note (nil while closed or loading). The copy it reads is
    /// gone when this returns, so the text can be changed in place afterwards without a copy.
    func readLoaded<R>(_ read: (EditorState) -> R?) -> R? {
        guard case .loaded(let open) = self else { return nil }
        return read(open)
    }

    /// Applies `change` to the loaded note in place (nil while closed or loading): the note is
    /// taken out of the slot while it changes, so its text is never copied (one owner).
    @discardableResult
    mutating func withLoaded<R>(_ change: (inout EditorState) -> R) -> R? {
        guard case .loaded(var open) = self else { return nil }
        self = .closed
        defer { self = .loaded(open) }
        return change(&open)
    }
}
