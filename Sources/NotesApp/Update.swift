import Foundation
import NotesCore
import TerminalUI

/// Applies `action` to `state` and returns the work to do; pure, so tests compare both by value.
public func update(_ state: inout AppState, _ action: Action) -> [Effect] {
    switch action {
    case .input(.resize(let size)), .resize(let size):
        return state.resize(size)
    case .input(.key(let key, let modifiers)):
        return state.key(key, modifiers)
    case .input(.paste(let text)):
        return state.paste(text)
    case .input(.mouse(let mouse)):
        return state.mouse(mouse)
    case .rowsLoaded(let window):
        return state.listLoaded(window)
    case .listLocated(let id, let row, let window):
        return state.listLocated(id: id, row: row, window: window)
    case .searchResults(let query, let rows, let limit):
        return state.searchAnswered(query: query, rows: rows, limit: limit)
    case .trashLoaded(let rows, let total):
        return state.trashLoaded(rows: rows, total: total)
    case .conflictsLoaded(let rows):
        return state.conflictsLoaded(rows)
    case .syncStatusChanged(let status):
        state.syncStatus = status
        return []
    case .tick(let now):
        state.now = now
        return []
    case .noteCreated(let id):
        return state.noteCreated(id)
    case .noteLoaded(let content):
        return state.noteLoaded(content)
    case .noteGone(let id):
        return state.noteGone(id)
    case .previewLoaded(let id, let content):
        state.previewLoaded(id, content)
        return []
    case .noteSaved(let saved):
        return state.noteSaved(saved)
    case .saveFailed(let id, let message):
        return state.saveFailed(id, message: message)
    case .timerFired(let timer):
        return state.timerFired(timer)
    case .historyLoaded(let id, let entries):
        return state.historyLoaded(id, entries)
    case .revisionRestored(let id):
        return state.revisionRestored(id)
    case .conflictLoaded(let versions):
        return state.conflictLoaded(versions)
    case .conflictResolved(let id):
        return state.conflictResolved(id)
    case .storeChanged(let ids):
        return state.storeChanged(ids)
    case .settingsChanged(let settings):
        return state.settingsChanged(settings) + state.recountViews(always: true)
    case .viewChangesCounted(let notices):
        return state.viewChangesCounted(notices)
    case .terminate:
        // A signal cannot wait for an answer: the save runs before the quit, in order.
        state.quitting = .afterSave
        return state.saveEditor(force: true) + [.quit]
    case .effectFailed(let message):
        return state.effectFailed(message)
    case .unlockNeeded:
        return state.unlockNeeded()
    case .unlockFinished(let error):
        return state.unlockFinished(error: error)
    case .attachmentOpened(let name):
        return state.show("Opened “\(TerminalSafeText.sanitize(name))”")
    case .pickerLoaded(let kind, let items):
        return state.pickerLoaded(kind, items)
    case .openNote(let id):
        return state.openNote(id)
    case .titleLinksCounted(let id, let oldTitle, let newTitle, let count):
        return state.titleLinksCounted(noteID: id, oldTitle: oldTitle, newTitle: newTitle, count: count)
    case .titleLinksUpdated(_, let count):
        return state.titleLinksUpdated(count: count)
    }
}

extension AppState {
    /// How long an info or error message stays in the status bar.
    static let messageDuration = Duration.seconds(6)
    /// How long `u` can undo a trash.
    static let undoDuration = Duration.seconds(15)

    mutating func resize(_ size: Size) -> [Effect] {
        self.size = size
        let editorViewport = Layout(size).editorText.size
        editor.withLoaded { $0.textEditor.resize(editorViewport) }
        let viewport = ResolverState.editViewport(size)
        withResolver { $0.editing?.resize(viewport) }
        keepSelectionVisible()
        requestedWindow = nil
        if let query = searchResults != nil ? searchText : nil, !query.isEmpty {
            return [.search(query: query, limit: max(searchLimit, fetchLimit))]
        }
        return loadWindowIfNeeded(force: true)
    }

    mutating func key(_ key: InputEvent.Key, _ modifiers: InputEvent.Modifiers) -> [Effect] {
        noteKeyForMessage()
        // Ctrl-C (when the runtime passes it on) and Ctrl-Q quit from anywhere, saving first.
        if (key == .character("c") || key == .character("q")) && modifiers == .control { return quit() }
        if unlock != nil { return unlockKey(key, modifiers) }
        if linkUpdate != nil { return linkUpdateKey(key, modifiers) }
        switch focus {
        case .list: return modifiers.isEmpty || modifiers == .shift ? listKey(key) : []
        case .search:
            if modifiers == .control { return searchControlKey(key) }
            return modifiers.isEmpty || modifiers == .shift ? searchKey(key) : []
        case .editor: return editorKey(key, modifiers)
        case .help: return helpKey(key)
        case .history: return historyKey(key)
        case .resolver: return resolverKey(key, modifiers)
        case .trash: return modifiers.isEmpty || modifiers == .shift ? trashKey(key) : []
        case .picker: return modifiers.isEmpty || modifiers == .shift ? pickerKey(key) : []
        }
    }

    mutating func paste(_ text: String) -> [Effect] {
        if unlock != nil { return unlockPaste(text) }
        switch focus {
        case .search:
            // A search is one line: a pasted line break ends it.
            let line = text.prefix { $0 != "\n" && $0 != "\r" && $0 != "\r\n" }
            return insertInSearch(String(line))
        case .editor:
            if holdWhileLoading(.paste(text)) { return [] }
            if editor.readLoaded(\.isReadOnly) == true { return show(readOnlyMessage(), severity: .warning) }
            return editText { $0.insert(text) }
        case .resolver:
            withResolver { $0.editing?.insert(text) }
            return []
        default:
            return []
        }
    }

    /// Shows `text` in the status bar for `messageDuration` and until the next key after that.
    mutating func show(_ text: String, severity: StatusMessage.Severity = .info) -> [Effect] {
        replaceMessage(StatusMessage(text, severity: severity))
        return [.scheduleTimer(.clearMessage(generation: messageGeneration), after: Self.messageDuration)]
    }

    mutating func timerFired(_ timer: TimerID) -> [Effect] {
        switch timer {
        case .autosave(let generation):
            guard editor.readLoaded(\.autosaveGeneration) == generation else { return [] }
            return saveEditor()
        case .autosaveDeadline(let generation):
            return saveDeadlinePassed(generation)
        case .clearMessage(let generation):
            guard generation == messageGeneration else { break }
            if keyedSinceMessage { message = nil } else { messageAwaitsKey = true }
        case .expireUndo(let generation):
            if generation == undoGeneration, !undoableTrashes.isEmpty {
                undoableTrashes = []
                if messageGeneration == undoMessageGeneration { message = nil }
            }
        }
        return []
    }

    /// Puts `message` in the status bar; a timer of an earlier message no longer clears it.
    mutating func replaceMessage(_ message: StatusMessage) {
        self.message = message
        messageGeneration += 1
        messageAwaitsKey = false
        keyedSinceMessage = false
    }

    /// A key read while a message shows: one whose time is up goes (before the key acts, which
    /// may show another); a newer one goes when its timer fires.
    private mutating func noteKeyForMessage() {
        if messageAwaitsKey {
            message = nil
            messageAwaitsKey = false
        }
        if message != nil { keyedSinceMessage = true }
    }

    /// `q`: saves the open note first and quits when the store says it is saved. A note
    /// retitled in the editor (just now, or with its links still being counted) first gets
    /// the question about the links to its old title (`Update+LinkUpdate.swift`).
    mutating func quit() -> [Effect] {
        switch quitting {
        case .confirmWithoutSaving: return [.quit]
        case .afterLinks:
            // Quit again while asked or counting: the links stay as they are.
            linkUpdate = nil
            linkCountsPending = 0
            return finishQuit()
        case .afterLinkUpdate: return []
        case .no, .afterSave: break
        }
        let discard = discardIfEmpty()
        let save = discard == nil ? saveEditor() : []
        let ask = discard == nil ? askAboutTitleLinks() : []
        if linkUpdate != nil || linkCountsPending > 0 {
            quitting = .afterLinks
            return (discard ?? []) + save + ask
        }
        if let discard { return discard + [.quit] }
        if save.isEmpty && !editor.isSaving { return [.quit] }
        quitting = .afterSave
        return save + show("Saving before quitting…")
    }

    /// The question before quitting is over: quits, once what the editor holds is saved.
    mutating func finishQuit() -> [Effect] {
        quitting = .no
        let save = saveEditor()
        if save.isEmpty && !editor.isSaving { return [.quit] }
        quitting = .afterSave
        return save + show("Saving before quitting…")
    }

    /// `Action.effectFailed`: said in the status bar. A count of links that failed is not
    /// waited for; quitting that waited on the links quits.
    mutating func effectFailed(_ text: String) -> [Effect] {
        linkCountsPending = 0
        let shown = show(text, severity: .error)
        if quitting == .afterLinkUpdate || (quitting == .afterLinks && linkUpdate == nil) { return finishQuit() }
        return shown
    }

    /// Another process, sync or `$EDITOR` changed notes: reload what is on screen.
    mutating func storeChanged(_ ids: [UUID]) -> [Effect] {
        // A link added to another note changes this one's backlinks, not its version.
        previewStale = true
        var effects = reloadList() + recountViews()
        if case .trash(let view) = focus { effects.append(.loadTrash(limit: view.limit)) }
        guard case .loaded(let open) = editor, ids.isEmpty || ids.contains(open.noteID) else { return effects }
        if open.savingText != nil {
            // Maybe the echo of our own save, maybe not: look once the save is answered.
            editor.withLoaded { $0.reloadAfterSave = true }
            return effects
        }
        // The note is read again: when its head moved, unsaved edits are saved on top of the
        // revision they started from and the runtime merges them with the change (noteLoaded,
        // noteSaved); a write that left the head alone (sync marking it sent) saves nothing early.
        return effects + [.loadNote(open.noteID)]
    }
}
