import Foundation
import NotesCore
import TerminalUI

extension AppState {
    /// Opens note `id` in the editor pane (loading it) and focuses the pane; the note open
    /// before is saved first if it has edits.
    mutating func openEditor(_ id: UUID) -> [Effect] {
        focus = .editor
        if editor?.noteID == id { return [] }
        let save = discardIfEmpty() ?? (saveEditor() + askAboutTitleLinks())
        editor = EditorState(noteID: id)
        return save + [.loadNote(id)]
    }

    /// Opens a note `n` just created: left empty, leaving the editor discards it.
    mutating func openNewNote(_ id: UUID) -> [Effect] {
        let effects = openEditor(id)
        if editor?.noteID == id { editor?.isNew = true }
        return effects
    }

    mutating func noteLoaded(_ content: NoteContent) -> [Effect] {
        guard let open = editor, open.noteID == content.id else { return [] }
        let text = content.editorText
        // The store's word on the trash is the latest: the notice follows it.
        let trashedNow = content.isTrashed && !open.isTrashed
        editor?.isTrashed = content.isTrashed
        let notice = trashedNow ? show(trashedMessage, severity: .warning) : []
        guard open.isLoaded else {
            editor?.editor = TextEditor(text, measure: SafeGlyphs(), viewport: Layout(size).editorText.size)
            editor?.storedText = text
            editor?.baseRevision = content.headRevision
            editor?.linkTitle = content.title
            let readOnly = openReadOnlyIfHuge(text)
            return notice + readOnly + replayPendingInput()
        }
        if content.headRevision == open.baseRevision && open.baseRevision != nil { return notice }
        if open.hasUnsavedEdits || open.savingText != nil {
            // Never overwrite what the user typed: it is saved over its own base and merged.
            return (open.savingText == nil ? saveEditor() : []) + notice
        }
        if text.utf8.elementsEqual(open.storedText.utf8) {
            // Only other fields changed (the trash, a favorite): the text and cursor stay.
            editor?.baseRevision = content.headRevision
            return notice
        }
        editor?.editor?.replaceAll(with: text)
        editor?.storedText = text
        if let count = editor?.editor?.changeCount { editor?.cleanChangeCount = count }
        editor?.baseRevision = content.headRevision
        // Retitled elsewhere: links are that change's business, not this editor's.
        editor?.linkTitle = content.title
        return notice.isEmpty ? show("Reloaded: the note changed outside this editor") : notice
    }

    /// Said once when the open note turns out to be in the trash; `trashedNotice` stays after.
    var trashedMessage: String { "This note was moved to the trash elsewhere: ^R restores it with your text" }

    /// `^R` in the editor while its note is in the trash: the text is saved, then the note
    /// comes out of the trash (writes run in order), and the editor stays on it. A note purged
    /// meanwhile comes back as a new note with the text (`keepAsNewNote`).
    mutating func restoreOpenNote() -> [Effect] {
        if editor?.isGone == true { return keepAsNewNote() }
        guard let open = editor, open.isTrashed, open.isLoaded else { return [] }
        let title = Self.shortTitle(NoteContent.split(open.text ?? "").title)
        // Back in the list, it is the selected note again (found by id once the store has it).
        selectedID = open.noteID
        return saveEditor() + [.undoTrash(open.noteID)] + show("Restored “\(title)” from the trash")
    }

    /// Saves the editor's text when it differs from the store's: at once, not debounced.
    /// With a save already running, the answer to that one saves again (`noteSaved`), unless
    /// `force` (a signal: there is no time to wait).
    mutating func saveEditor(force: Bool = false) -> [Effect] {
        guard var open = editor, let textEditor = open.editor, open.hasUnsavedEdits else { return [] }
        guard open.savingText == nil || force else { return [] }
        let text = textEditor.text
        // Saved or sent now: the next change starts the maximum wait again.
        open.saveDeadline = .none
        if text == open.storedText {
            open.cleanChangeCount = textEditor.changeCount
            editor = open
            return []
        }
        open.savingText = text
        if !text.isEmpty { open.savedWithContent = true }
        editor = open
        let parts = NoteContent.split(text)
        return [.saveNote(id: open.noteID, title: parts.title, body: parts.body, baseRevision: open.baseRevision)]
    }

    mutating func noteSaved(_ saved: SavedNote) -> [Effect] {
        guard var open = editor, open.noteID == saved.id || open.noteID == saved.keptFrom,
            let sent = open.savingText, let current = open.text
        else { return quitting == .afterSave ? [.quit] : [] }
        let kept = keptAsNewNote(saved)
        guard let reopened = editor else { return kept + (quitting == .afterSave ? [.quit] : []) }
        open = reopened
        editor?.savingText = nil
        let reload = open.reloadAfterSave
        editor?.reloadAfterSave = false
        let stored = NoteContent(
            id: saved.id, title: saved.title, body: saved.body, modifiedAt: saved.modifiedAt,
            headRevision: saved.headRevision
        ).editorText
        let typedSince = current != sent
        // The list shows the saved title and time in the same frame, not at the next poll.
        var effects = quitting == .afterSave ? [] : reloadList()
        if !typedSince {
            // Unmerged, the store holds what was sent ("Title\n" is stored as a title and an
            // empty body): the editor keeps its text and cursor.
            if saved.merged && stored != sent { editor?.editor?.replaceAll(with: stored) }
            if let count = editor?.editor?.changeCount { editor?.cleanChangeCount = count }
        }
        // After a merge with edits typed meanwhile, the next save still starts from the old
        // base, so the merge sees both changes again instead of taking the new text as a revert.
        if !(saved.merged && typedSince) { editor?.baseRevision = saved.headRevision }
        editor?.storedText = saved.merged ? stored : sent
        let trashedNow = saved.isTrashed && !open.isTrashed
        editor?.isTrashed = saved.isTrashed
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
        if editor?.saveDeadline == .overdue {
            // The maximum wait passed while this save ran: what was typed since goes at once.
            editor?.saveDeadline = .none
            if typedSince { effects += saveEditor() }
        }
        return effects
    }

    mutating func saveFailed(_ id: UUID, message text: String) -> [Effect] {
        if editor?.noteID == id {
            editor?.savingText = nil
            // The next change starts the maximum wait again.
            if editor?.saveDeadline == .overdue { editor?.saveDeadline = .none }
        }
        if quitting == .afterSave || quitting == .afterLinks {
            quitting = .confirmWithoutSaving
            return show("Not saved: \(text). q: quit without saving", severity: .error)
        }
        return show("Not saved: \(text)", severity: .error)
    }

    mutating func editorKey(_ key: InputEvent.Key, _ modifiers: InputEvent.Modifiers) -> [Effect] {
        if holdWhileLoading(.key(key, modifiers: modifiers)) { return [] }
        if editor?.isReadOnly == true, !Self.isReadOnlySafe(key, modifiers) {
            return show(readOnlyMessage(), severity: .warning)
        }
        switch (key, modifiers) {
        case (.escape, _):
            // The first Esc ends a selection; the next goes back to the list.
            if editor?.editor?.anchor != nil {
                editor?.editor?.clearSelection()
                return []
            }
            focus = .list
            if let discard = discardIfEmpty() { return discard }
            guard let open = editor, open.isTrashed else { return saveEditor() + askAboutTitleLinks() }
            // Kept, not lost: the text is saved into the trashed note, which the Trash view shows.
            let title = Self.shortTitle(NoteContent.split(open.text ?? "").title)
            return saveEditor()
                + show("“\(title)” is in the trash with your text: T shows the trash", severity: .warning)
        case (.character("s"), .control):
            return saveEditor() + askAboutTitleLinks()
        case (.character("r"), .control):
            return restoreOpenNote()
        case (.character("]"), .control):
            return followLinkUnderCursor()
        case (.character("k"), .control):
            if editor?.editor?.selectedText != nil { return cut() }
            var killed = (text: "", continues: false)
            let effects = editText { killed = $0.killLine() }
            guard !killed.text.isEmpty else { return effects }
            clipboard = killed.continues ? clipboard + killed.text : killed.text
            return effects + [.setClipboard(clipboard)]
        case (.character("w"), .control) where editor?.editor?.selectedText != nil, (.character("x"), .control):
            return cut()
        case (.character("w"), .alt), (.character("6"), .alt):
            guard let text = editor?.editor?.selectedText else { return [] }
            clipboard = text
            editor?.editor?.clearSelection()
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
        guard let open = editor, open.isNew, !open.savedWithContent, open.text ?? "" == "" else { return nil }
        editor = nil
        return [.discardIfEmpty(open.noteID)]
    }

    /// Applies `change` to the open editor in place (no copy of a long text); when the text
    /// changed, (re)starts the autosave debounce (only the newest timer saves) and, after a
    /// save, the maximum wait (`Update+Autosave.swift`).
    mutating func editText<R>(_ change: (inout TextEditor<SafeGlyphs>) -> R) -> [Effect] {
        // Taken out of the state while it changes, so the text is never copied (one owner).
        guard var open = editor, var text = open.editor else { return [] }
        editor = nil
        open.editor = nil
        let before = text.changeCount
        _ = change(&text)
        let changed = text.changeCount != before
        open.editor = text
        editor = open
        return changed ? scheduleAutosave() : []
    }
}
