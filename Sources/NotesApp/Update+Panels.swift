import Foundation
import NotesCore
import TerminalUI

/// The history view and the conflict resolver.
extension AppState {
    mutating func openHistory(_ row: NoteRow) -> [Effect] {
        focus = .history(HistoryState(noteID: row.id, title: row.title))
        return [.loadHistory(row.id)]
    }

    mutating func historyLoaded(_ id: UUID, _ entries: [HistoryEntry]) -> [Effect] {
        guard case .history(var view) = focus, view.noteID == id else { return [] }
        view.entries = entries
        view.selection = 0
        focus = .history(view)
        return []
    }

    mutating func historyKey(_ key: InputEvent.Key) -> [Effect] {
        guard case .history(var view) = focus else { return [] }
        let count = view.entries?.count ?? 0
        switch key {
        case .character("j"), .down: view.selection = min(view.selection + 1, max(0, count - 1))
        case .character("k"), .up: view.selection = max(view.selection - 1, 0)
        case .character("g"), .home: view.selection = 0
        case .character("G"), .end: view.selection = max(0, count - 1)
        case .escape, .character("q"), .character("h"):
            focus = .list
            return []
        case .enter, .character("r"):
            // The newest entry is the current text; a deletion cannot be restored as text.
            guard let entry = view.selectedEntry, view.selection > 0, entry.body != nil else { return [] }
            let save = editor.noteID == view.noteID ? saveEditor() : []
            return save + [.restoreRevision(noteID: view.noteID, revision: entry.id)]
        default:
            break
        }
        focus = .history(view)
        return []
    }

    mutating func revisionRestored(_ id: UUID) -> [Effect] {
        var when = ""
        if case .history(let view) = focus {
            when = view.selectedEntry.map { RelativeTime.long($0.date, now: now) } ?? ""
            focus = .list
        }
        var effects = reloadList()
        if editor.noteID == id { effects.append(.loadNote(id)) }
        return effects + show(when.isEmpty ? "Restored" : "Restored the version from \(when)")
    }

    mutating func openResolver(_ id: UUID, title: String, remaining: [NoteRow] = []) -> [Effect] {
        var view = ResolverState(noteID: id, title: title)
        view.remaining = remaining
        focus = .resolver(view)
        // Unsaved text of this note is stored first, so the resolver shows what is really there.
        let save = editor.noteID == id ? saveEditor() : []
        return save + [.loadConflict(id)]
    }

    mutating func conflictsLoaded(_ rows: [NoteRow]) -> [Effect] {
        guard let first = rows.first else { return show("No conflicts") }
        return openResolver(first.id, title: first.title, remaining: Array(rows.dropFirst()))
    }

    mutating func conflictLoaded(_ versions: ConflictVersions) -> [Effect] {
        guard case .resolver(var view) = focus, view.noteID == versions.noteID else { return [] }
        view.versions = versions
        view.scroll = 0
        focus = .resolver(view)
        return []
    }

    mutating func resolverKey(_ key: InputEvent.Key, _ modifiers: InputEvent.Modifiers) -> [Effect] {
        // Asked before `view` is bound: a copy of it kept while `resolverEditKey` edits in place
        // would copy the text at every key.
        let editing = if case .resolver(let view) = focus { view.isEditing } else { false }
        if editing { return resolverEditKey(key, modifiers) }
        guard case .resolver(var view) = focus else { return [] }
        guard let versions = view.versions, !view.resolving else {
            if key == .escape || key == .character("q") { closeResolver() }
            return []
        }
        var resolution: ConflictResolution?
        switch key {
        case .character("m"): resolution = .keepMine
        case .character("t"): resolution = .keepTheirs
        case .character("b"): resolution = .keepBoth
        case .character("e"):
            view.editing = TextEditor(
                ResolverState.editText(versions), measure: SafeGlyphs(), viewport: ResolverState.editViewport(size))
            focus = .resolver(view)
            return []
        case .character("j"), .down: view.scroll += 1
        case .character("k"), .up: view.scroll = max(0, view.scroll - 1)
        case .pageDown: view.scroll += max(1, Layout(size).middle.height - 3)
        case .pageUp: view.scroll = max(0, view.scroll - max(1, Layout(size).middle.height - 3))
        case .character("n"):
            return resolveNext(after: view)
        case .escape, .character("q"):
            closeResolver()
            return []
        default:
            return []
        }
        guard let resolution else {
            focus = .resolver(view)
            return []
        }
        view.resolving = true
        focus = .resolver(view)
        return [.resolveConflict(view.noteID, resolution)]
    }

    /// Keys while editing the merged text: Ctrl-S resolves with it, Esc goes back to the choice.
    mutating func resolverEditKey(_ key: InputEvent.Key, _ modifiers: InputEvent.Modifiers) -> [Effect] {
        withResolver { view in
            guard let text = view.editing?.text else { return [] }
            switch (key, modifiers) {
            case (.escape, _):
                view.editing = nil
            case (.character("s"), .control):
                view.resolving = true
                view.editing = nil
                let parts = NoteContent.split(text)
                return [.resolveConflict(view.noteID, .edited(title: parts.title, body: parts.body))]
            default:
                view.editing?.apply(key, modifiers)
            }
            return []
        } ?? []
    }

    /// Applies `change` to the open resolver in place: taken out of the focus while it changes,
    /// so the text being edited is never copied. Nil when the resolver is not open.
    @discardableResult
    mutating func withResolver<R>(_ change: (inout ResolverState) -> R) -> R? {
        guard case .resolver(var view) = focus else { return nil }
        focus = .list
        let result = change(&view)
        focus = .resolver(view)
        return result
    }

    mutating func conflictResolved(_ id: UUID) -> [Effect] {
        guard case .resolver(let view) = focus, view.noteID == id else { return reloadList() }
        var effects = reloadList()
        if editor.noteID == id { effects.append(.loadNote(id)) }
        let title = TextWidth.clip(TerminalSafeText.sanitize(view.title), to: 30, ellipsis: true)
        effects += show("Resolved “\(title)”")
        return effects + resolveNext(after: view)
    }

    /// Opens the next conflict of the walk, or closes the resolver after the last.
    mutating func resolveNext(after view: ResolverState) -> [Effect] {
        guard let next = view.remaining.first else {
            closeResolver()
            return []
        }
        return openResolver(next.id, title: next.title, remaining: Array(view.remaining.dropFirst()))
    }

    mutating func closeResolver() {
        if case .resolver = focus { focus = .list }
    }
}
