import Foundation
import NotesApp
import NotesCore
import TerminalUI

/// The runtime's part played in memory, for tests of `update` over a whole store: answers
/// every `Effect` from a list of notes in the store's orders (FAVORITES then NOTES, newest
/// modified first, then by id; a search in tiers: every term in the title, some, none,
/// newest first in each), as `EffectRunner` does against `NoteStore`.
struct ModelStore {
    struct Note: Equatable {
        var id: UUID
        var title: String
        var body: String
        /// Milliseconds, as the store keeps them (equal times are ordered by id).
        var modifiedAt: Int
        var isFavorite = false
        var trashed = false
        /// When it went to the trash (the store's clock, ms): the Trash view's order.
        var trashedAt = 0
    }

    private(set) var notes: [Note] = []
    /// The clock, in milliseconds: each write is stamped with it.
    var clock = 1_000_000
    private var nextNumber = 1
    private var cachedListed: [Note]?

    init(notes: [Note] = []) {
        self.notes = notes
        nextNumber = notes.count + 1
    }

    /// Ids in creation order: note n is `noteID(n)` of the fixtures.
    mutating func add(title: String, body: String = "", favorite: Bool = false, modifiedAt: Int? = nil) -> UUID {
        let id = noteID(nextNumber)
        nextNumber += 1
        notes.append(Note(id: id, title: title, body: body, modifiedAt: modifiedAt ?? clock, isFavorite: favorite))
        cachedListed = nil
        return id
    }

    mutating func change(_ id: UUID, _ body: (inout Note) -> Void) {
        guard let index = notes.firstIndex(where: { $0.id == id }) else { return }
        body(&notes[index])
        cachedListed = nil
    }

    mutating func remove(_ id: UUID) {
        notes.removeAll { $0.id == id }
        cachedListed = nil
    }

    static func newestFirst(_ a: Note, _ b: Note) -> Bool {
        a.modifiedAt != b.modifiedAt ? a.modifiedAt > b.modifiedAt : a.id.lowercasedString < b.id.lowercasedString
    }

    /// What the whole list shows: FAVORITES, then NOTES.
    mutating func listed() -> [Note] {
        if let cachedListed { return cachedListed }
        let shown = notes.filter { !$0.trashed }.sorted(by: Self.newestFirst)
        let result = shown.filter(\.isFavorite) + shown.filter { !$0.isFavorite }
        cachedListed = result
        return result
    }

    var favoriteCount: Int { notes.count(where: { !$0.trashed && $0.isFavorite }) }

    /// Every result of `query`, ranked as the store ranks them.
    func searched(_ query: String) -> [Note] {
        let terms = query.lowercased().split(separator: " ").map(String.init)
        guard !terms.isEmpty else { return [] }
        var tiers: [[Note]] = [[], [], []]
        for note in notes where !note.trashed {
            let title = note.title.lowercased()
            let body = note.body.lowercased()
            guard terms.allSatisfy({ title.contains($0) || body.contains($0) }) else { continue }
            let inTitle = terms.count(where: { title.contains($0) })
            tiers[inTitle == terms.count ? 0 : inTitle > 0 ? 1 : 2].append(note)
        }
        return tiers.flatMap { $0.sorted(by: Self.newestFirst) }
    }

    func row(_ note: Note) -> NoteRow {
        NoteRow(
            id: note.id, title: note.title, snippet: note.body,
            modifiedAt: Date(timeIntervalSince1970: Double(note.modifiedAt) / 1000), isFavorite: note.isFavorite,
            deletedAt: note.trashed ? Date(timeIntervalSince1970: Double(note.trashedAt) / 1000) : nil)
    }

    /// The trash as the store lists it: most recently trashed first, then by id.
    func trashed() -> [Note] {
        notes.filter(\.trashed).sorted {
            $0.trashedAt != $1.trashedAt ? $0.trashedAt > $1.trashedAt : $0.id.lowercasedString < $1.id.lowercasedString
        }
    }

    /// Moves a note to the trash, as another process would.
    mutating func trash(_ id: UUID) {
        clock += 1
        let now = clock
        change(id) {
            $0.trashed = true
            $0.trashedAt = now
        }
    }

    mutating func window(offset: Int, limit: Int) -> ListWindow {
        let all = listed()
        let rows = all.indices.contains(offset) ? all[offset..<min(all.count, offset + limit)].map(row) : []
        return ListWindow(offset: offset, rows: rows, favoriteCount: favoriteCount, totalCount: all.count)
    }

    /// Notes outside the trash whose body holds `[[title]]` (case-insensitively).
    func linking(_ title: String) -> [UUID] {
        notes.filter { !$0.trashed && $0.body.range(of: "[[" + title + "]]", options: .caseInsensitive) != nil }
            .map(\.id)
    }

    /// The answers to `effect`, as the runtime posts them (writes answer `storeChanged`).
    mutating func answer(_ effect: Effect) -> [Action] {
        switch effect {
        case .loadList(let offset, let limit):
            return [.rowsLoaded(window(offset: offset, limit: limit))]
        case .locateInList(let id, let row, let limit):
            let index = listed().firstIndex { $0.id == id }
            let offset = ListWindow.offset(around: index ?? row, limit: limit)
            return [.listLocated(id: id, row: index, window: window(offset: offset, limit: limit))]
        case .search(let query, let limit):
            return [.searchResults(query: query, rows: searched(query).prefix(limit).map(row), limit: limit)]
        case .loadNote(let id):
            guard let note = notes.first(where: { $0.id == id }) else { return [.noteGone(id)] }
            return [
                .noteLoaded(
                    NoteContent(
                        id: id, title: note.title, body: note.body, isFavorite: note.isFavorite,
                        modifiedAt: Date(timeIntervalSince1970: Double(note.modifiedAt) / 1000), headRevision: "r1",
                        isTrashed: note.trashed))
            ]
        case .loadTrash(let limit):
            let all = trashed()
            return [.trashLoaded(rows: all.prefix(limit).map(row), total: all.count)]
        case .purge(let id):
            guard notes.contains(where: { $0.id == id && $0.trashed }) else {
                return [.effectFailed("the note is no longer in the trash (restored elsewhere); nothing was deleted")]
            }
            remove(id)
            return [.storeChanged([id])]
        case .loadPreview(let id):
            return [
                .previewLoaded(
                    id,
                    notes.first(where: { $0.id == id }).map { note in
                        NoteContent(
                            id: id, title: note.title, body: note.body, isFavorite: note.isFavorite,
                            modifiedAt: Date(timeIntervalSince1970: Double(note.modifiedAt) / 1000), headRevision: "r1",
                            tasks: TaskItem.all(in: note.body))
                    })
            ]
        case .createNote:
            clock += 1
            return [.noteCreated(add(title: ""))]
        case .saveNote(let id, let title, let body, _):
            clock += 1
            let now = clock
            guard notes.contains(where: { $0.id == id }) else {
                // Purged while open: the runtime keeps the text as a new note.
                let kept = add(title: title, body: body, modifiedAt: now)
                return [
                    .noteSaved(
                        SavedNote(
                            id: kept, title: title, body: body, headRevision: "r\(clock)",
                            modifiedAt: Date(timeIntervalSince1970: Double(clock) / 1000), keptFrom: id))
                ]
            }
            change(id) {
                $0.title = title
                $0.body = body
                $0.modifiedAt = now
            }
            return [
                .noteSaved(
                    SavedNote(
                        id: id, title: title, body: body, headRevision: "r\(clock)",
                        modifiedAt: Date(timeIntervalSince1970: Double(clock) / 1000),
                        isTrashed: notes.first { $0.id == id }?.trashed ?? false))
            ]
        case .toggleFavorite(let id):
            change(id) { $0.isFavorite.toggle() }
            return [.storeChanged([id])]
        case .countViewChanges:
            // The model has no saved searches: nothing is marked to notify.
            return [.viewChangesCounted([])]
        case .setTask(let id, let line, let done):
            guard let note = notes.first(where: { $0.id == id }),
                let body = TaskItem.setting(line: line, done: done, in: note.body)
            else { return [.effectFailed("line \(line) is no longer a task in the other state")] }
            clock += 1
            let now = clock
            change(id) {
                $0.body = body
                $0.modifiedAt = now
            }
            return [.storeChanged([id])]
        case .trash(let id):
            trash(id)
            return [.storeChanged([id])]
        case .undoTrash(let id):
            change(id) { $0.trashed = false }
            return [.storeChanged([id])]
        case .discardIfEmpty(let id):
            // As the runtime does: purged only while it is still empty.
            guard let note = notes.first(where: { $0.id == id }), note.title.isEmpty, note.body.isEmpty else {
                return []
            }
            notes.removeAll { $0.id == id }
            return [.storeChanged([id])]
        case .followLink(let target, _, _):
            // By title, case-insensitively, among notes outside the trash (the store folds more).
            guard let note = notes.first(where: { !$0.trashed && $0.title.lowercased() == target.lowercased() }) else {
                return [.effectFailed("no note titled “\(target)”")]
            }
            return [.openNote(note.id)]
        case .countTitleLinks(let id, let oldTitle, let newTitle):
            return [
                .titleLinksCounted(
                    noteID: id, oldTitle: oldTitle, newTitle: newTitle, count: linking(oldTitle).count)
            ]
        case .updateTitleLinks(let id, let oldTitle):
            // Plain `[[Old]]` links only, case-insensitively (the store reads every link form).
            let title = notes.first { $0.id == id }?.title ?? oldTitle
            let sources = linking(oldTitle)
            for source in sources {
                clock += 1
                let now = clock
                change(source) {
                    $0.body = $0.body.replacingOccurrences(
                        of: "[[" + oldTitle + "]]", with: "[[" + title + "]]", options: .caseInsensitive)
                    $0.modifiedAt = now
                }
            }
            return [.titleLinksUpdated(noteID: id, count: sources.count)]
        case .scheduleTimer, .syncNow, .quit, .setClipboard, .loadConflicts, .openExternalEditor, .loadHistory,
            .restoreRevision,
            .loadConflict, .resolveConflict, .loadNotebooks, .loadTags, .openToday, .openAttachment, .unlock:
            return []
        }
    }

    /// Runs `effects` and everything their answers ask for, in order, until nothing is left.
    mutating func settle(_ state: inout AppState, _ effects: [Effect]) {
        var queue = effects
        var steps = 0
        while !queue.isEmpty {
            steps += 1
            precondition(steps < 10_000, "update and the store keep asking each other: \(queue.prefix(3))")
            let effect = queue.removeFirst()
            for action in answer(effect) { queue += update(&state, action) }
        }
    }

    /// Sends keys in `InputEvent.keys` notation, settling after each.
    mutating func send(_ notation: String, to state: inout AppState) {
        guard let events = InputEvent.keys(notation) else { fatalError("bad key notation \(notation)") }
        for event in events { settle(&state, update(&state, .input(event))) }
    }

    /// An app on this store, its list loaded as at start.
    mutating func app(size: Size = Size(width: 60, height: 15)) -> AppState {
        var state = AppState(now: Date(timeIntervalSince1970: Double(clock) / 1000), size: size)
        settle(&state, update(&state, .resize(size)))
        return state
    }
}
