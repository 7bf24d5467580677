import Foundation
import NotesApp
import NotesCore
import NotesStore
import TerminalUI

/// Runs the `Effect`s `update` returns, against the store, and answers each with the `Action`
/// its documentation names, posted to the inbox (ARCHITECTURE §1: the imperative shell).
///
/// Store work never runs on the loop's thread, so input and painting never wait for SQLite:
/// reads go to one lane of `RuntimeOptions.queues`, searches to another where only the latest
/// request runs, and writes to a third, which keeps them in the order `update` asked for them. The exception is
/// `$EDITOR`, which needs the terminal and so runs on the loop's thread while the TUI is suspended.
///
/// Every effect is handled in the one exhaustive `switch` of `run(_:)`.
final class EffectRunner {
    let store: NoteStore
    let inbox: Inbox
    let backend: TerminalBackend
    let options: RuntimeOptions

    private let queues: any WorkQueues
    private let listGeneration = Generation()
    private let locateGeneration = Generation()
    private let searchGeneration = Generation()
    private let trashGeneration = Generation()
    private let viewsGeneration = Generation()
    /// Writes that failed so far; `quit` compares it before and after waiting for writes.
    let failedWrites = Counter()

    /// The device names as sync last knew them, read where a load needs them (sync learns new
    /// ones): on the lane of the load, never on the loop's thread, since reading them decodes
    /// sync's saved state.
    private var deviceLabels: @Sendable () -> DeviceLabels {
        let source = options.deviceLabels
        return { source?() ?? DeviceLabels() }
    }

    init(store: NoteStore, inbox: Inbox, backend: TerminalBackend, options: RuntimeOptions) {
        self.store = store
        self.inbox = inbox
        self.backend = backend
        self.options = options
        self.queues = options.queues
    }

    /// Starts `effect`; its answer arrives in the inbox. `quit` is the loop's to handle.
    func run(_ effect: Effect) {
        switch effect {
        case .loadList(let offset, let limit):
            latest(listGeneration, on: .reads) { store in
                .rowsLoaded(try Self.listWindow(store, offset: offset, limit: limit))
            }
        case .locateInList(let id, let row, let limit):
            latest(locateGeneration, on: .reads) { store in try Self.locate(store, id: id, row: row, limit: limit) }
        case .search(let query, let limit):
            latest(searchGeneration, on: .searches) { store in
                .searchResults(
                    query: query, rows: try store.search(query, limit: limit).hits.map(NoteRow.init), limit: limit)
            }
        case .loadTrash(let limit):
            latest(trashGeneration, on: .reads) { store in
                let rows = try store.list(ListRequest(section: .trash, limit: limit)).map(NoteRow.init)
                return .trashLoaded(rows: rows, total: try store.count(.trash))
            }
        case .loadConflicts(let limit):
            read { store in .conflictsLoaded(try store.conflictedNotes().prefix(limit).map(NoteRow.init(note:))) }
        case .loadNote(let id):
            read { store in
                guard let note = try store.note(id) else { return .noteGone(id) }
                var content = NoteContent(note)
                content.readOnlyOwner = try store.readOnlyOwner(note.zone)
                return .noteLoaded(content)
            }
        case .loadPreview(let id):
            let labels = deviceLabels
            read { store in
                guard let note = try store.note(id) else { return .previewLoaded(id, nil) }
                var content = NoteContent(note)
                content.tasks = TaskItem.all(in: note.body)
                // Marker lines name devices as people know them (display only; the editor
                // loads the note as stored). The names are read only for a body with markers.
                if DeviceLabels.hasMarkers(content.body) { content.body = labels().relabelingMarkers(in: content.body) }
                content.markdownIndex = MarkdownIndex(content.body)
                // The default notebook goes unnamed: the title line stays the title alone.
                content.notebook = note.zone == Note.defaultZone ? nil : try Self.notebookLabel(store, note.zone)
                content.readOnlyOwner = try store.readOnlyOwner(note.zone)
                content.backlinks = try store.backlinks(of: id).prefix(50).map(\.title)
                return .previewLoaded(id, content)
            }
        case .loadNotebooks:
            read { store in
                let notebooks = try store.notebooks().map {
                    PickerItem(label: $0.name, value: $0.zone, count: $0.count, detail: $0.sharing?.summary)
                }
                return .pickerLoaded(.notebook, notebooks + (try Self.savedViews(store)))
            }
        case .loadTags:
            read { store in
                .pickerLoaded(
                    .tag, try store.tagCounts().map { PickerItem(label: $0.tag, value: $0.tag, count: $0.count) })
            }
        case .openToday:
            let now = options.now
            write { store in .openNote(try store.dailyNote(date: now(), timeZone: .current).note.id) }
        case .followLink(let target, let folder, let from):
            read { store in
                guard let id = try store.resolveLink(target, folder: folder, from: from) else {
                    throw RuntimeError("no note titled “\(target)”")
                }
                return .openNote(id)
            }
        case .countTitleLinks(let id, let oldTitle, let newTitle):
            // On the writes queue: after the save of the new title asked for before it.
            write { store in
                .titleLinksCounted(
                    noteID: id, oldTitle: oldTitle, newTitle: newTitle,
                    count: try store.notesLinking(to: id, byOldTitle: oldTitle))
            }
        case .updateTitleLinks(let id, let oldTitle):
            write { store in
                .titleLinksUpdated(noteID: id, count: try store.updateLinks(to: id, fromOldTitle: oldTitle))
            }
        case .createNote:
            write { store in .noteCreated(try store.create(title: "", body: "").id) }
        case .saveNote(let id, let title, let body, let baseRevision):
            saveNote(id: id, title: title, body: body, baseRevision: baseRevision)
        case .scheduleTimer(let timer, let delay):
            let inbox = inbox
            // Never cancelled: `update` ignores a timer that a newer one replaced.
            _ = options.timers.schedule(after: delay) { inbox.post(.timerFired(timer)) }
        case .toggleFavorite(let id):
            write { store in
                guard let note = try store.note(id) else { throw RuntimeError("the note was deleted") }
                _ = try store.setFavorite(id, !note.isFavorite)
                return .storeChanged([id])
            }
        case .countViewChanges(let shownQuery):
            latest(viewsGeneration, on: .reads) { store in
                .viewChangesCounted(
                    try store.viewChangeCounts(shownQuery: shownQuery).map {
                        ViewNotice(name: $0.name, query: $0.query, count: $0.count)
                    })
            }
        case .setTask(let id, let line, let done):
            write { store in
                try store.update(id) { note in
                    guard let body = TaskItem.setting(line: line, done: done, in: note.body) else {
                        throw RuntimeError(
                            "line \(line) is no longer \(done ? "an open" : "a done") task (the note changed); nothing was changed"
                        )
                    }
                    note.body = body
                }
                return .storeChanged([id])
            }
        case .trash(let id):
            write { store in
                _ = try store.trash(id)
                return .storeChanged([id])
            }
        case .undoTrash(let id):
            write { store in
                _ = try store.restore(id)
                return .storeChanged([id])
            }
        case .purge(let id):
            write { store in
                guard try store.purgeFromTrash(id) else {
                    throw RuntimeError("the note is no longer in the trash (restored elsewhere); nothing was deleted")
                }
                return .storeChanged([id])
            }
        case .openExternalEditor(let id):
            openExternalEditor(id)
        case .openAttachment(_, let name, let sha256):
            read { store in
                try AttachmentOpener.open(
                    store, name: name, sha256: sha256, environment: ProcessInfo.processInfo.environment)
                return .attachmentOpened(name)
            }
        case .loadHistory(let id):
            let labels = deviceLabels
            read { store in
                let labels = labels()
                return .historyLoaded(id, try store.history(id).map { HistoryEntry(revision: $0, labels: labels) })
            }
        case .restoreRevision(let noteID, let revision):
            write { store in
                try Self.restore(store, noteID: noteID, revision: revision)
                return .revisionRestored(noteID)
            }
        case .loadConflict(let id):
            let labels = deviceLabels
            read { store in .conflictLoaded(try Self.conflictVersions(store, id, labels: labels())) }
        case .resolveConflict(let id, let resolution):
            write { store in
                try Self.resolve(store, id, resolution)
                return .conflictResolved(id)
            }
        case .setClipboard(let text):
            backend.setClipboard(text)
        case .discardIfEmpty(let id):
            write { store in
                if let note = try store.note(id), note.title.isEmpty, note.body.isEmpty { try store.purge(id) }
                return .storeChanged([id])
            }
        case .syncNow:
            if let syncNow = options.sync.syncNow {
                syncNow()
            } else {
                inbox.post(.effectFailed("sync is not set up: notes stay on this device (local only)"))
            }
        case .unlock(let passphrase):
            // Deriving the key takes about half a second: never on the loop.
            let (unlock, inbox) = (options.sync.unlock, inbox)
            queues.async(.reads) {
                // `unlock` answers nil when it unlocked; without one there is nothing to unlock with.
                let error = unlock.map { $0(passphrase) } ?? "this cloud folder cannot be unlocked here"
                inbox.post(.unlockFinished(error: error))
            }
        case .quit:
            break
        }
    }

    /// Blocks until every write asked for so far is done (before quitting).
    func waitForWrites() {
        queues.wait(for: .writes)
    }

    // MARK: - Queues

    private func read(_ work: @escaping @Sendable (NoteStore) throws -> Action) {
        let (store, inbox) = (store, inbox)
        queues.async(.reads) { inbox.post(Self.answer { try work(store) }) }
    }

    private func write(_ work: @escaping @Sendable (NoteStore) throws -> Action) {
        let (store, inbox, failed) = (store, inbox, failedWrites)
        queues.async(.writes) {
            let action = Self.answer { try work(store) }
            if case .effectFailed = action { failed.increment() }
            inbox.post(action)
        }
    }

    /// Runs `work` unless a newer request of the same kind came in before it started.
    private func latest(
        _ generation: Generation, on lane: WorkLane, _ work: @escaping @Sendable (NoteStore) throws -> Action
    ) {
        let (store, inbox) = (store, inbox)
        let mine = generation.next()
        queues.async(lane) {
            guard generation.isCurrent(mine) else { return }
            inbox.post(Self.answer { try work(store) })
        }
    }

    /// The action `work` returns, or `effectFailed` with its error in words.
    private static func answer(_ work: () throws -> Action) -> Action {
        do {
            return try work()
        } catch {
            return .effectFailed(RuntimeError.describe(error))
        }
    }

    // MARK: - Effects with more to them

    /// Rows `offset..<offset + limit` of FAVORITES followed by NOTES, and the sizes of both.
    static func listWindow(_ store: NoteStore, offset: Int, limit: Int) throws -> ListWindow {
        let favoriteCount = try store.count(.favorites)
        let totalCount = try store.count(.all)
        var rows: [NoteSummary] = []
        if offset < favoriteCount {
            rows += try store.list(
                ListRequest(section: .favorites, offset: offset, limit: min(limit, favoriteCount - offset)))
        }
        if limit > rows.count {
            rows += try store.list(
                ListRequest(section: .others, offset: max(0, offset - favoriteCount), limit: limit - rows.count))
        }
        return ListWindow(
            offset: offset, rows: rows.map(NoteRow.init), favoriteCount: favoriteCount, totalCount: totalCount)
    }

    /// `Effect.saveNote`: on top of `baseRevision` when the note's head is still that revision.
    /// When the head moved (sync or another process changed the note), the edit is written on
    /// its base and the two heads are merged by sync's resolver (`options.resolveHeads`,
    /// `NoteStore.update(_:onBase:resolve:_:)`): neither the typed text nor the other change is
    /// lost, the merge is the one every device makes, and a merge that kept conflict markers
    /// flags the note `conflict`. Without a resolver (tests without sync) nothing is merged:
    /// both versions stay as heads and the note is flagged for the user to pick.
    private func saveNote(id: UUID, title: String, body: String, baseRevision: String?) {
        let (store, inbox, failed) = (store, inbox, failedWrites)
        let resolve = options.resolveHeads ?? { _, _ in (nil, true) }
        queues.async(.writes) {
            do {
                let result: EditOnBase
                do {
                    result = try store.update(id, onBase: baseRevision, resolve: resolve) { note in
                        note.title = title
                        note.body = body
                    }
                } catch let error as StoreError where error.code == .notFound {
                    // Purged while open (the CLI, another device): the text is kept as a new note.
                    let kept = try store.create(title: title, body: body)
                    inbox.post(
                        .noteSaved(
                            SavedNote(
                                id: kept.id, title: kept.title, body: kept.body, headRevision: kept.headRev,
                                modifiedAt: kept.modifiedAt, keptFrom: id)))
                    return
                }
                let saved = result.note
                inbox.post(
                    .noteSaved(
                        SavedNote(
                            id: id, title: saved.title, body: saved.body, headRevision: saved.headRev,
                            modifiedAt: saved.modifiedAt, merged: result.merged, conflict: result.conflict,
                            isTrashed: saved.deletedAt != nil)))
            } catch {
                failed.increment()
                let name = TextWidth.clip(TerminalSafeText.sanitize(title), to: 30, ellipsis: true)
                inbox.post(.saveFailed(id, message: "cannot save “\(name)”: \(RuntimeError.describe(error))"))
            }
        }
    }

    static func restore(_ store: NoteStore, noteID: UUID, revision: String) throws {
        guard let found = try store.history(noteID).first(where: { $0.id == revision }) else {
            throw RuntimeError("that version is no longer in the note's history")
        }
        guard let fields = found.fields else { throw RuntimeError("that version is a deletion; nothing to restore") }
        try store.update(noteID) { note in
            note.title = fields.title
            note.body = fields.body
            note.tags = fields.tags
            if note.deletedAt != nil { note.deletedAt = nil }
        }
    }

    /// Both sides of a conflict: this device's latest side is "mine".
    static func conflictVersions(_ store: NoteStore, _ id: UUID, labels: DeviceLabels = DeviceLabels()) throws
        -> ConflictVersions
    {
        let sides = try store.conflictSides(id)
        guard sides.count > 1 else { throw RuntimeError("this note has no conflict to resolve") }
        let mine = sides.last { $0.device == store.deviceID } ?? sides[0]
        let theirs = sides.last { $0.id != mine.id } ?? sides[1]
        func side(_ revision: Revision, _ label: String) -> ConflictVersions.Side {
            ConflictVersions.Side(
                label: label, title: revision.fields?.title ?? "(deleted)",
                body: labels.relabelingMarkers(in: revision.fields?.body ?? ""))
        }
        let theirLabel = theirs.device == store.deviceID ? "this device (earlier)" : labels.label(theirs.device)
        return ConflictVersions(noteID: id, mine: side(mine, "this device"), theirs: side(theirs, theirLabel))
    }

    static func resolve(_ store: NoteStore, _ id: UUID, _ resolution: ConflictResolution) throws {
        switch resolution {
        case .keepMine: try store.resolveConflict(id, keep: .mine)
        case .keepTheirs: try store.resolveConflict(id, keep: .theirs)
        case .keepBoth: try store.resolveConflict(id, keep: .both)
        case .edited(let title, let body):
            try store.resolveConflict(id, keep: .mine)
            try store.update(id) { note in
                note.title = title
                note.body = body
            }
        }
    }

    /// `$EDITOR` on the note: the terminal is handed over while it runs, on this (the loop's) thread.
    /// A notebook's name for the preview, with how it is shared for a shared one
    /// ("Trip · shared by Ann (…) · read-only").
    static func notebookLabel(_ store: NoteStore, _ zone: String) throws -> String {
        let name = try store.displayName(ofNotebook: zone)
        guard let sharing = try store.sharing(ofNotebook: zone) else { return name }
        return name + " · " + sharing.summary
    }

    private func openExternalEditor(_ id: UUID) {
        let note: Note
        do {
            guard let found = try store.note(id) else { throw RuntimeError("the note was deleted") }
            // A notebook shared read-only: said before the editor opens, not after the typing.
            try store.requireWritable(found.zone)
            note = found
        } catch {
            inbox.post(.effectFailed(RuntimeError.describe(error)))
            return
        }
        backend.suspend()
        let outcome = Result(catching: { try ExternalEdit.run(note, command: options.editorCommand) })
        backend.resume()
        switch outcome {
        case .success(.unchanged):
            inbox.post(.storeChanged([id]))
        case .success(.edited(let title, let body, let path)):
            do {
                try store.update(id) { note in
                    note.title = title
                    note.body = body
                }
                // Saved: a temp file left behind (0600, in $TMPDIR) loses nothing.
                try? FileManager.default.removeItem(atPath: path)
                inbox.post(.storeChanged([id]))
            } catch {
                inbox.post(
                    .effectFailed("could not save (\(RuntimeError.describe(error))); your text is kept in \(path)"))
            }
        case .failure(let error):
            inbox.post(.effectFailed(RuntimeError.describe(error)))
        }
    }
}

extension NoteContent {
    init(_ note: Note) {
        self.init(
            id: note.id, title: note.title, body: note.body, isFavorite: note.isFavorite, modifiedAt: note.modifiedAt,
            headRevision: note.headRev, syncState: note.syncState, isTrashed: note.deletedAt != nil,
            attachments: note.attachments)
    }
}

extension NoteRow {
    init(note: Note) {
        self.init(
            id: note.id, title: note.title, snippet: Self.firstLine(note.body), modifiedAt: note.modifiedAt,
            isFavorite: note.isFavorite, syncState: note.syncState)
    }

    private static func firstLine(_ body: String) -> String {
        String(body.prefix(240).split(whereSeparator: \.isNewline).first ?? "")
    }
}

extension HistoryEntry {
    init(revision: Revision, labels: DeviceLabels) {
        self.init(
            id: revision.id,
            date: Date(millisecondsSince1970: revision.fields?.modifiedAt ?? revision.hlc.millis),
            device: labels.label(revision.device), title: revision.fields?.title ?? "",
            body: revision.fields.map { labels.relabelingMarkers(in: $0.body) })
    }
}
