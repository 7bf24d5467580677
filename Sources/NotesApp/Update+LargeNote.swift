import Foundation
import NotesCore
import TerminalUI

/// Huge notes in the editor (issue 22, item 2): keys typed while a note loads wait in the
/// editor and are replayed in order when its text arrives, and a note larger than the editor
/// edits opens read-only, pointing at `$EDITOR` (`e`), which edits any size.
extension AppState {
    /// The largest note the editor edits, in UTF-8 bytes of its text (title line and body).
    /// Above it a save would hold several copies of the text at once (the editor's lines,
    /// the text sent, the store's canonical JSON and search text): `e` edits it in `$EDITOR`.
    public static let editableBytes = 16 << 20

    /// Keeps an input event for the note still loading; true when it was kept.
    mutating func holdWhileLoading(_ event: InputEvent) -> Bool {
        guard focus == .editor, case .loading(var opening) = editor else { return false }
        // Taken out while it grows, so the keys held so far are not copied at each one.
        editor = .closed
        opening.pendingInput.append(event)
        editor = .loading(opening)
        return true
    }

    /// Replays what was typed while the note loaded (`pending`), in order, as if typed now.
    mutating func replay(_ pending: [InputEvent]) -> [Effect] {
        var effects: [Effect] = []
        for event in pending {
            switch event {
            case .key(let key, let modifiers): effects += self.key(key, modifiers)
            case .paste(let text): effects += paste(text)
            default: break
            }
        }
        return effects
    }

    /// Turns read-only on for a note of a notebook shared read-only with this account, or for a
    /// note over `editableBytes`, and says so.
    mutating func openReadOnlyIfNeeded(_ content: NoteContent, text: String) -> [Effect] {
        let bytes = text.utf8.count
        let reason: EditorState.ReadOnly
        if let owner = content.readOnlyOwner {
            reason = .shared(owner: owner)
        } else if bytes > Self.editableBytes {
            reason = .tooLarge(bytes: bytes)
        } else {
            return []
        }
        editor.withLoaded { $0.readOnly = reason }
        return show(readOnlyMessage(), severity: .warning)
    }

    /// Why the open note is read-only, and what to do instead.
    func readOnlyMessage() -> String {
        switch editor.readLoaded(\.readOnly) {
        case .shared(let owner):
            // Who first: the status bar is narrow, and the fingerprint after the name is long.
            return "Read-only, shared by \(owner): ask them for read-write"
        case .tooLarge(let bytes):
            return "Read-only: this note is too large to edit here (\((bytes + (1 << 20) - 1) >> 20) MB, "
                + "over \(Self.editableBytes >> 20) MB): Esc, then e edits it in $EDITOR"
        case nil:
            return "Read-only"
        }
    }

    /// Whether a key only moves, selects or copies (all a read-only note takes).
    static func isReadOnlySafe(_ key: InputEvent.Key, _ modifiers: InputEvent.Modifiers) -> Bool {
        switch (key, modifiers) {
        case (.escape, _), (.character("w"), .alt), (.character("6"), .alt), (.character(" "), .control),
            (.character("@"), .control), (.character("s"), .control):
            return true
        default:
            return TextEditor<SafeGlyphs>.motion(for: key, modifiers.subtracting(.shift)) != nil
        }
    }
}
