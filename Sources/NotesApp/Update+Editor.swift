import Foundation
import NotesCore
import TerminalUI

extension AppState {
    /// Opens note `id` in the editor pane (loading it) and focuses the pane; the note open
    /// before is saved first if it has edits.
    mutating func openEditor(_ id: UUID, isNew: Bool = false) -> [Effect] {
        if editor.noteID == id {
            focus = .editor
            return []
        }
        let save = discardIfEmpty() ?? (saveEditor() + askAboutTitleLinks())
        editor = .loading(OpeningNote(noteID: id, isNew: isNew))
        focus = .editor
        return save + [.loadNote(id)]
    }

    /// Opens a note `n` just created: left empty, leaving the editor discards it.
    mutating func openNewNote(_ id: UUID) -> [Effect] {
        openEditor(id, isNew: true)
    }

    /// `Action.noteLoaded`: the note loading in the editor gets its text (and what was typed
    /// meanwhile); the loaded one follows a change made elsewhere.
    mutating func noteLoaded(_ content: NoteContent) -> [Effect] {
        switch editor {
        case .loading(let opening) where opening.noteID == content.id:
            let text = content.editorText
            editor = .loaded(EditorState(opening, content: content, text: text, viewport: Layout(size).editorText.size))
            let notice = content.isTrashed ? show(trashedMessage, severity: .warning) : []
            let readOnly = openReadOnlyIfNeeded(content, text: text)
            return notice + readOnly + replay(opening.pendingInput)
        case .loaded(let open) where open.noteID == content.id:
            return reloaded(content, open: open)
        case .closed, .loading, .loaded:
            return []
        }
    }

    /// The loaded note as the store has it now: unsaved edits are saved over their own base
    /// (and merged); else the text follows the store's.
    private mutating func reloaded(_ content: NoteContent, open: EditorState) -> [Effect] {
        let text = content.editorText
        // The store's word on the trash is the latest: the notice follows it.
        let trashedNow = content.isTrashed && !open.isTrashed
        editor.withLoaded { $0.isTrashed = content.isTrashed }
        // A role changed by a sync (read-only now, or writable again) holds from the next key.
        editor.withLoaded { open in
            if let owner = content.readOnlyOwner {
                open.readOnly = .shared(owner: owner)
            } else if case .shared = open.readOnly {
                open.readOnly = nil
            }
        }
        let notice = trashedNow ? show(trashedMessage, severity: .warning) : []
        if content.headRevision == open.baseRevision && open.baseRevision != nil { return notice }
        if open.hasUnsavedEdits || open.savingText != nil {
            // Never overwrite what the user typed: it is saved over its own base and merged.
            return (open.savingText == nil ? saveEditor() : []) + notice
        }
        if text.utf8.elementsEqual(open.storedText.utf8) {
            // Only other fields changed (the trash, a favorite): the text and cursor stay.
            editor.withLoaded { $0.baseRevision = content.headRevision }
            return notice
        }
        editor.withLoaded { open in
            open.textEditor.replaceAll(with: text)
            open.storedText = text
            open.cleanChangeCount = open.textEditor.changeCount
            open.baseRevision = content.headRevision
            // Retitled elsewhere: links are that change's business, not this editor's.
            open.linkTitle = content.title
        }
        return notice.isEmpty ? show("Reloaded: the note changed outside this editor") : notice
    }

    /// Said once when the open note turns out to be in the trash; `trashedNotice` stays after.
    var trashedMessage: String { "This note was moved to the trash elsewhere: ^R restores it with your text" }

    /// `^R` in the editor while its note is in the trash: the text is saved, then the note
    /// comes out of the trash (writes run in order), and the editor stays on it. A note purged
    /// meanwhile comes back as a new note with the text (`keepAsNewNote`).
    mutating func restoreOpenNote() -> [Effect] {
        guard case .loaded(let open) = editor else { return [] }
        if open.isGone { return keepAsNewNote() }
        guard open.isTrashed else { return [] }
        let title = Self.shortTitle(NoteContent.split(open.text).title)
        // Back in the list, it is the selected note again (found by id once the store has it).
        selectedID = open.noteID
        return saveEditor() + [.undoTrash(open.noteID)] + show("Restored “\(title)” from the trash")
    }

    /// Saves the editor's text when it differs from the store's: at once, not debounced.
    /// With a save already running, the answer to that one saves again (`noteSaved`), unless
    /// `force` (a signal: there is no time to wait).
    mutating func saveEditor(force: Bool = false) -> [Effect] {
        guard case .loaded(var open) = editor, open.hasUnsavedEdits else { return [] }
        guard open.savingText == nil || force else { return [] }
        let text = open.text
        // Saved or sent now: the next change starts the maximum wait again.
        open.saveDeadline = .none
        if text == open.storedText {
            open.cleanChangeCount = open.textEditor.changeCount
            editor = .loaded(open)
            return []
        }
        open.savingText = text
        if !text.isEmpty { open.savedWithContent = true }
        editor = .loaded(open)
        let parts = NoteContent.split(text)
        return [.saveNote(id: open.noteID, title: parts.title, body: parts.body, baseRevision: open.baseRevision)]
    }

    mutating func noteSaved(_ saved: SavedNote) -> [Effect] {
        guard case .loaded(let before) = editor, before.noteID == saved.id || before.noteID == saved.keptFrom,
            let sent = before.savingText
        else { return quitting == .afterSave ? [.quit] : [] }
        let current = before.text
        let kept = keptAsNewNote(saved)
        guard case .loaded(let reopened) = editor else { return kept + (quitting == .afterSave ? [.quit] : []) }
        let reload = reopened.reloadAfterSave
        let trashedNow = saved.isTrashed && !reopened.isTrashed
        let stored = NoteContent(
            id: saved.id, title: saved.title, body: saved.body, modifiedAt: saved.modifiedAt,
            headRevision: saved.headRevision
        ).editorText
        let typedSince = current != sent
        // The list shows the saved title and time in the same frame, not at the next poll.
        var effects = quitting == .afterSave ? [] : reloadList()
        editor.withLoaded { open in
            open.savingText = nil
            open.reloadAfterSave = false
            if !typedSince {
                // Unmerged, the store holds what was sent ("Title\n" is stored as a title and an
                // empty body): the editor keeps its text and cursor.
                if saved.merged && stored != sent { open.textEditor.replaceAll(with: stored) }
                open.cleanChangeCount = open.textEditor.changeCount
            }
            // After a merge with edits typed meanwhile, the next save still starts from the old
            // base, so the merge sees both changes again instead of taking the new text as a revert.
            if !(saved.merged && typedSince) { open.baseRevision = saved.headRevision }
            open.storedText = saved.merged ? stored : sent
            open.isTrashed = saved.isTrashed
        }
        if saved.conflict {
            effects += show(
                "This note changed elsewhere too: both versions are kept in it, marked ⚠ (c resolves)",
                severity: .warning)
        } else if saved.merged {
            effects += show("This note changed on another device: your edits were kept and merged", severity: .warning)
        }
        if trashedNow { effects += show(trashedMessage, severity: .warning) }
        effects += kept
        if reload && !typedSince && quitting != .afterSave { effects.append(.loadNote(saved.id)) }
        if quitting == .afterSave {
            let again = saveEditor()
            return effects + (again.isEmpty ? [.quit] : again)
        }
        if case .loaded(let open) = editor, open.saveDeadline == .overdue {
            // The maximum wait passed while this save ran: what was typed since goes at once.
            editor.withLoaded { $0.saveDeadline = .none }
            if typedSince { effects += saveEditor() }
        }
        return effects
    }

    mutating func saveFailed(_ id: UUID, message text: String) -> [Effect] {
        editor.withLoaded { open in
            guard open.noteID == id else { return }
            open.savingText = nil
            // The next change starts the maximum wait again.
            if open.saveDeadline == .overdue { open.saveDeadline = .none }
        }
        if quitting == .afterSave || quitting == .afterLinks {
            quitting = .confirmWithoutSaving
            return show("Not saved: \(text). q: quit without saving", severity: .error)
        }
        return show("Not saved: \(text)", severity: .error)
    }

    mutating func editorKey(_ key: InputEvent.Key, _ modifiers: InputEvent.Modifiers) -> [Effect] {
        if holdWhileLoading(.key(key, modifiers: modifiers)) { return [] }
        if editor.readLoaded(\.isReadOnly) == true, !Self.isReadOnlySafe(key, modifiers) {
            return show(readOnlyMessage(), severity: .warning)
        }
        switch (key, modifiers) {
        case (.escape, _):
            // The first Esc ends a selection; the next goes back to the list.
            if editor.readLoaded(\.textEditor.anchor) != nil {
                editor.withLoaded { $0.textEditor.clearSelection() }
                return []
            }
            focus = .list
            if let discard = discardIfEmpty() { return discard }
            guard case .loaded(let open) = editor, open.isTrashed else { return saveEditor() + askAboutTitleLinks() }
            // Kept, not lost: the text is saved into the trashed note, which the Trash view shows.
            let title = Self.shortTitle(NoteContent.split(open.text).title)
            return saveEditor()
                + show("“\(title)” is in the trash with your text: T shows the trash", severity: .warning)
        case (.character("s"), .control):
            return saveEditor() + askAboutTitleLinks()
        case (.character("r"), .control):
            return restoreOpenNote()
        case (.character("]"), .control):
            return followLinkUnderCursor()
        case (.character("k"), .control):
            if editor.readLoaded(\.textEditor.selectedText) != nil { return cut() }
            var killed = (text: "", continues: false)
            let effects = editText { killed = $0.killLine() }
            guard !killed.text.isEmpty else { return effects }
            clipboard = killed.continues ? clipboard + killed.text : killed.text
            return effects + [.setClipboard(clipboard)]
        case (.character("w"), .control) where editor.readLoaded(\.textEditor.selectedText) != nil,
            (.character("x"), .control):
            return cut()
        case (.character("w"), .alt), (.character("6"), .alt):
            guard let text = editor.readLoaded(\.textEditor.selectedText) else { return [] }
            clipboard = text
            editor.withLoaded { $0.textEditor.clearSelection() }
            return [.setClipboard(text)] + show("Copied \(Self.describe(text))")
        case (.character("u"), .control):
            guard !clipboard.isEmpty else { return [] }
            let text = clipboard
            return editText { $0.insert(text) }
        default:
            return editText { $0.apply(key, modifiers) }
        }
    }

    /// Cuts the selection to the clipboard (nothing when nothing is selected).
    private mutating func cut() -> [Effect] {
        var cut: String?
        let effects = editText { cut = $0.cutSelection() }
        guard let cut else { return effects }
        clipboard = cut
        return effects + [.setClipboard(cut)]
    }

    /// "3 lines" or "12 characters", for the status bar.
    static func describe(_ text: String) -> String {
        let breaks = text.utf8.reduce(0) { $0 + ($1 == 0x0A ? 1 : 0) }
        if breaks > 0 { return "\(breaks + (text.hasSuffix("\n") ? 0 : 1)) lines" }
        let count = text.count
        return count == 1 ? "1 character" : "\(count) characters"
    }

    /// Leaving a new note that is still empty and was never saved with text in it: it is
    /// deleted instead of kept as an empty note, and the pane closes (leaving it by Esc, by
    /// opening another note, or by quitting).
    mutating func discardIfEmpty() -> [Effect]? {
        let id: UUID
        switch editor {
        case .loading(let opening) where opening.isNew: id = opening.noteID
        case .loaded(let open) where open.isNew && !open.savedWithContent && open.text.isEmpty: id = open.noteID
        case .closed, .loading, .loaded: return nil
        }
        editor = .closed
        // The editor has the keys only while it holds a note (quitting from it closes it here).
        if focus == .editor { focus = .list }
        return [.discardIfEmpty(id)]
    }

    /// Applies `change` to the open editor in place (no copy of a long text); when the text
    /// changed, (re)starts the autosave debounce (only the newest timer saves) and, after a
    /// save, the maximum wait (`Update+Autosave.swift`).
    mutating func editText<R>(_ change: (inout TextEditor<SafeGlyphs>) -> R) -> [Effect] {
        let changed = editor.withLoaded { open in
            let before = open.textEditor.changeCount
            _ = change(&open.textEditor)
            return open.textEditor.changeCount != before
        }
        return changed == true ? scheduleAutosave() : []
    }
}
