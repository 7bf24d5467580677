import Foundation
import NotesApp
import NotesCore
import NotesStore
import NotesTestSupport
import TerminalUI
import Testing

@testable import NotesRuntime

/// The Trash view's effects and the editor's view of the trash, against a real store.
@Suite struct TrashEffectTests {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("cloudnotes-trash-\(UUID())")
    let store: NoteStore
    let inbox = Inbox(wake: {})
    let runner: EffectRunner

    init() throws {
        let ticks = SecondTicks()
        store = try NoteStore(directory: directory, clock: { ticks.next() })
        runner = EffectRunner(
            store: store, inbox: inbox, backend: TestBackend(size: Size(width: 80, height: 24)),
            options: RuntimeOptions(handlesSignals: false))
    }

    private func answer(to effect: Effect) -> Action? { runner.answer(to: effect, in: inbox) }

    @Test func theTrashIsListedMostRecentlyTrashedFirstWithWhenAndHowMany() throws {
        let a = try store.create(title: "A", body: "")
        let b = try store.create(title: "B", body: "")
        _ = try store.create(title: "Kept", body: "")
        let trashedB = try store.trash(b.id)
        _ = try store.trash(a.id)
        guard case .trashLoaded(let rows, let total) = answer(to: .loadTrash(limit: 1)) else {
            Issue.record("no trash")
            return
        }
        #expect(rows.map(\.id) == [a.id])
        #expect(total == 2)
        guard case .trashLoaded(let all, _) = answer(to: .loadTrash(limit: 10)) else {
            Issue.record("loadTrash did not answer trashLoaded")
            return
        }
        #expect(all.map(\.id) == [a.id, b.id])
        #expect(all[1].deletedAt == trashedB.deletedAt)
    }

    @Test func purgeDeletesOnlyANoteStillInTheTrash() throws {
        let trashed = try store.create(title: "Trashed", body: "")
        let restored = try store.create(title: "Restored meanwhile", body: "keep me")
        _ = try store.trash(trashed.id)
        #expect(answer(to: .purge(trashed.id)) == .storeChanged([trashed.id]))
        #expect(try store.note(trashed.id) == nil)
        // Restored by someone else after the question was asked: kept, and the answer says why.
        guard case .effectFailed(let message) = answer(to: .purge(restored.id)) else {
            Issue.record("a note outside the trash was purged")
            return
        }
        #expect(message.contains("no longer in the trash"))
        #expect(try store.note(restored.id)?.body == "keep me")
    }

    @Test func aNoteLoadedOrSavedWhileInTheTrashSaysSo() throws {
        let note = try store.create(title: "Open", body: "text")
        _ = try store.trash(note.id)
        guard case .noteLoaded(let content) = answer(to: .loadNote(note.id)) else {
            Issue.record("not loaded")
            return
        }
        #expect(content.isTrashed)
        let saved = answer(
            to: .saveNote(id: note.id, title: "Open", body: "text and more", baseRevision: content.headRevision))
        guard case .noteSaved(let result) = saved else {
            Issue.record("not saved: \(String(describing: saved))")
            return
        }
        #expect(result.isTrashed)
        #expect(try store.note(note.id)?.body == "text and more")
    }
}

/// A clock a second further on at every read: trash times never tie.
private final class SecondTicks: @unchecked Sendable {
    private let lock = NSLock()
    private var now = Date(timeIntervalSince1970: 1_700_000_000)

    func next() -> Date {
        lock.lock()
        defer { lock.unlock() }
        now += 1
        return now
    }
}
