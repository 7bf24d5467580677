import Foundation
import NotesApp
import NotesCore
import NotesStore
import NotesTestSupport
import TerminalUI
import Testing

@testable import NotesRuntime

/// Effects run against a real store; each answer is the Action `Effect`'s documentation names.
@Suite struct EffectRunnerTests {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("cloudnotes-effects-\(UUID())")
    let store: NoteStore
    let inbox: Inbox
    let runner: EffectRunner
    let timers = TestClock()

    init() throws {
        // A clock a second further on at every read: notes made one after another never tie.
        let ticks = Ticks()
        store = try NoteStore(directory: directory, clock: { ticks.next() })
        inbox = Inbox(wake: {})
        var options = RuntimeOptions(handlesSignals: false)
        options.timers = ClockTimers(timers)
        runner = EffectRunner(
            store: store, inbox: inbox, backend: TestBackend(size: Size(width: 80, height: 24)), options: options)
    }

    /// Runs `effect` and waits (with a deadline) for its answer.
    private func answer(to effect: Effect) -> Action? { runner.answer(to: effect, in: inbox) }

    @Test func theListWindowCountsFavoritesThenNotes() throws {
        let fav = try store.create(title: "Fav", body: "", isFavorite: true)
        let a = try store.create(title: "A", body: "")
        let b = try store.create(title: "B", body: "")
        guard case .rowsLoaded(let window) = answer(to: .loadList(offset: 0, limit: 10)) else {
            Issue.record("no rows")
            return
        }
        #expect(window.rows.map(\.id) == [fav.id, b.id, a.id])
        #expect(window.favoriteCount == 1 && window.totalCount == 3)
        guard case .rowsLoaded(let tail) = answer(to: .loadList(offset: 2, limit: 10)) else {
            Issue.record("loadList did not answer rowsLoaded")
            return
        }
        #expect(tail.offset == 2 && tail.rows.map(\.id) == [a.id])
    }

    /// `Effect.locateInList` finds a note's row in the store's order, wherever it is, ties in
    /// `modifiedAt` included (they are ordered by id), and says when it is not listed.
    @Test func locateFindsEveryNotesRowAndAWindowAroundIt() throws {
        let fixed = try NoteStore(
            directory: directory.appendingPathComponent("ties"),
            clock: { Date(timeIntervalSince1970: 1_700_000_000) })
        for store in [store, fixed] {
            var ids: [UUID] = []
            var templates: [UUID] = []
            for i in 0..<45 {
                ids.append(try store.create(title: "N\(i)", body: "", isFavorite: i % 6 == 0).id)
                // Templates among them, starred or not, are in no list and move no row.
                if i % 20 == 3 {
                    templates.append(
                        try store.create(title: "T\(i)", body: "", isFavorite: i == 3, zone: NoteTemplate.zone).id)
                }
            }
            let all = try EffectRunner.listWindow(store, offset: 0, limit: 100).rows.map(\.id)
            #expect(all.count == 45)
            for (index, id) in all.enumerated() {
                #expect(try EffectRunner.listIndex(store, of: id) == index)
            }
            for id in templates { #expect(try EffectRunner.listIndex(store, of: id) == nil) }
            _ = try store.trash(ids[7])
            guard
                case .listLocated(let id, let row, let window) = try EffectRunner.locate(
                    store, id: ids[7], row: 30, limit: 9)
            else { return }
            #expect(id == ids[7] && row == nil)
            #expect(window.offset == 27 && window.rows.count == 9)
        }
    }

    @Test func searchAnswersWithHighlightRanges() throws {
        try store.create(title: "Groceries", body: "milk")
        guard case .searchResults(let query, let rows, _) = answer(to: .search(query: "groc", limit: 10)) else {
            Issue.record("no results")
            return
        }
        #expect(query == "groc")
        #expect(rows.map(\.title) == ["Groceries"])
        #expect(rows.first?.titleMatches == [0..<4])
    }

    @Test func createThenSaveStoresTheEditorText() throws {
        guard case .noteCreated(let id) = answer(to: .createNote) else {
            Issue.record("no note created")
            return
        }
        let head = try store.note(id)?.headRev
        let saved = answer(to: .saveNote(id: id, title: "Shopping", body: "bread\n", baseRevision: head))
        guard case .noteSaved(let note) = saved else {
            Issue.record("not saved: \(String(describing: saved))")
            return
        }
        #expect(!note.merged)
        #expect(try store.note(id)?.title == "Shopping")
        #expect(try store.note(id)?.body == "bread\n")
    }

    @Test func aSaveOverAnotherChangeWithoutAResolverKeepsBothFlagged() throws {
        let note = try store.create(title: "List", body: "one\ntwo\nthree\n")
        let base = note.headRev
        // Another process edits the last line meanwhile.
        try store.update(note.id) { $0.body = "one\ntwo\nTHREE\n" }
        let saved = answer(to: .saveNote(id: note.id, title: "List", body: "ONE\ntwo\nthree\n", baseRevision: base))
        guard case .noteSaved(let result) = saved else {
            Issue.record("not saved: \(String(describing: saved))")
            return
        }
        // Without sync's resolver nothing is merged: both versions stay, flagged for the user.
        #expect(result.merged)
        #expect(result.body == "ONE\ntwo\nthree\n")
        #expect(try store.note(note.id)?.syncState == .conflict)
        #expect(
            Set(try store.conflictSides(note.id).compactMap(\.fields?.body)) == [
                "ONE\ntwo\nthree\n", "one\ntwo\nTHREE\n",
            ])
    }

    @Test func aSaveTheStoreRefusesFailsWithAMessageAndCounts() throws {
        let note = try store.create(title: "Lost", body: "text")
        let answer = answer(to: .saveNote(id: note.id, title: "Lost", body: "a\u{0}b", baseRevision: note.headRev))
        guard case .saveFailed(let id, let message) = answer else {
            Issue.record("expected saveFailed, got \(String(describing: answer))")
            return
        }
        #expect(id == note.id)
        #expect(message.contains("cannot save “Lost”"))
        #expect(runner.failedWrites.value == 1)
    }

    @Test func favoriteTrashAndUndo() throws {
        let note = try store.create(title: "N", body: "")
        #expect(answer(to: .toggleFavorite(note.id)) == .storeChanged([note.id]))
        #expect(try store.note(note.id)?.isFavorite == true)
        #expect(answer(to: .trash(note.id)) == .storeChanged([note.id]))
        #expect(try store.note(note.id)?.deletedAt != nil)
        #expect(answer(to: .undoTrash(note.id)) == .storeChanged([note.id]))
        #expect(try store.note(note.id)?.deletedAt == nil)
    }

    @Test func historyAndRestoringAnOlderVersion() throws {
        let note = try store.create(title: "V", body: "first")
        try store.update(note.id) { $0.body = "second" }
        guard case .historyLoaded(let id, let entries) = answer(to: .loadHistory(note.id)) else {
            Issue.record("no history")
            return
        }
        #expect(id == note.id)
        #expect(entries.map(\.body) == ["second", "first"])
        #expect(answer(to: .restoreRevision(noteID: note.id, revision: entries[1].id)) == .revisionRestored(note.id))
        #expect(try store.note(note.id)?.body == "first")
    }

    @Test func aTimerFiresOnceWhenItsTimeHasCome() throws {
        runner.run(.scheduleTimer(.autosave(generation: 3), after: .milliseconds(1500)))
        #expect(eventuallyBlocking { timers.sleepers == 1 })
        timers.advance(by: .milliseconds(1499))
        #expect(timers.sleepers == 1)
        #expect(inbox.drain().isEmpty)
        timers.advance(by: .milliseconds(1))
        var fired: [Action] = []
        #expect(
            eventuallyBlocking {
                fired += inbox.drain()
                return !fired.isEmpty
            })
        #expect(fired == [.timerFired(.autosave(generation: 3))])
        timers.advance(by: .seconds(10))
        #expect(inbox.drain().isEmpty)
    }

    @Test func syncNowWithoutSyncSaysSo() throws {
        guard case .effectFailed(let message) = answer(to: .syncNow) else {
            Issue.record("no answer")
            return
        }
        #expect(message.contains("local only"))
    }

    @Test func loadingAMissingNoteSaysItIsGone() throws {
        let missing = UUID()
        #expect(answer(to: .loadNote(missing)) == .noteGone(missing))
    }
}

/// A test clock: each read is one second after the previous one.
private final class Ticks: @unchecked Sendable {
    private let lock = NSLock()
    private var now = Date(timeIntervalSince1970: 1_700_000_000)

    func next() -> Date {
        lock.lock()
        defer { lock.unlock() }
        now += 1
        return now
    }
}
