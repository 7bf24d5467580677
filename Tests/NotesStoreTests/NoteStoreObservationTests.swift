import Foundation
import GRDB
import NotesCore
import Testing

@testable import NotesStore

@Suite struct NoteStoreObservationTests {
    @Test func aListObservationDeliversEachWrite() async throws {
        let t = try TestStore()
        let seen = Recorder<[NoteSummary]>()
        let cancellable = t.store.observeList(ListRequest(section: .all)) { seen.record($0) }
        defer { cancellable.cancel() }
        #expect(await seen.first { $0.isEmpty } != nil)

        let note = try t.store.create(title: "First", body: "")
        #expect(await seen.first { $0.map(\.title) == ["First"] } != nil)
        t.advance(1)
        _ = try t.store.update(note.id) { $0.title = "Renamed" }
        #expect(await seen.first { $0.map(\.title) == ["Renamed"] } != nil)
        _ = try t.store.trash(note.id)
        let afterTrash = seen.count
        #expect(await seen.first(after: afterTrash - 1) { $0.isEmpty } != nil)
    }

    @Test func aBurstOfWritesEndsWithTheFinalListDelivered() async throws {
        let t = try TestStore()
        let seen = Recorder<[NoteSummary]>()
        let cancellable = t.store.observeList(ListRequest(section: .all, limit: 500)) { seen.record($0) }
        defer { cancellable.cancel() }
        for i in 0..<60 { try t.store.create(title: "n\(i)", body: "") }
        let last = await seen.first { $0.count == 60 }
        #expect(last != nil)
        // Values arrive in order: nothing older follows the final list.
        #expect(await seen.first(after: seen.count - 1, timeout: .milliseconds(200)) { $0.count < 60 } == nil)
    }

    @Test func noteChangesAreSignalledByEveryWriteBeforeItReturnsAndNeverAtStart() throws {
        let t = try TestStore()
        let counter = Counter()
        let cancellable = t.store.observeNoteChanges { _ = counter.increment() }
        defer { cancellable.cancel() }
        // No signal of its own at start: a late one would reload what the caller just loaded
        // and show another process's note before the caller's check found it.
        #expect(counter.value == 0, "no signal at start")
        let note = try t.store.create(title: "a", body: "")
        #expect(counter.value == 1, "a create is signalled before it returns")
        _ = try t.store.setFavorite(note.id, true)
        #expect(counter.value == 2, "a favorite is signalled")
        try t.store.purge(note.id)
        #expect(counter.value == 3, "a purge is signalled")
        _ = try t.store.list(ListRequest(section: .all, limit: 10))
        #expect(counter.value == 3, "a read is not")
        cancellable.cancel()
        try t.store.create(title: "b", body: "")
        #expect(counter.value == 3, "nothing after cancel")
    }

    @Test func countsFollowFavoritesAndTheTrash() async throws {
        let t = try TestStore()
        let seen = Recorder<[ListSection: Int]>()
        let cancellable = t.store.observeCounts { seen.record($0) }
        defer { cancellable.cancel() }
        #expect(await seen.first { $0 == [.all: 0, .favorites: 0, .others: 0, .trash: 0] } != nil)
        let a = try t.store.create(title: "a", body: "", isFavorite: true)
        try t.store.create(title: "b", body: "")
        #expect(await seen.first { $0 == [.all: 2, .favorites: 1, .others: 1, .trash: 0] } != nil)
        _ = try t.store.trash(a.id)
        #expect(await seen.first { $0 == [.all: 1, .favorites: 0, .others: 1, .trash: 1] } != nil)
    }
}

final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    var value: Int { lock.withLock { count } }
    func increment() -> Int {
        lock.withLock {
            count += 1
            return count
        }
    }
}
