import Foundation
import NotesCore
import NotesFiles
import NotesStore
import NotesSync
import NotesTestSupport
import Testing

/// `MirrorWatch` on an injected clock: a store change and a file change each reach the other
/// side at the next tick, and nothing happens while the clock stands still.
@Suite struct MirrorWatchTests {
    @Test func eachSideReachesTheOtherAtTheNextTick() async throws {
        let fixture = try MirrorFixture("watch")
        defer { fixture.remove() }
        let (folder, store) = (fixture.folder, fixture.store)
        let note = try store.create(title: "Watched", body: "first")
        let clock = TestClock()
        let keeper = try fixture.keeper()
        let task = Task { await MirrorWatch(interval: .milliseconds(250)).run(keeper: keeper, clock: clock) { _ in } }
        defer { task.cancel() }
        let file = folder + "/notes/Watched.md"
        func text() -> String { String(decoding: FileManager.default.contents(atPath: file) ?? Data(), as: UTF8.self) }
        // The first pass runs at once, then the loop sleeps on the clock.
        #expect(await settles { clock.sleepers == 1 })
        #expect(text().hasSuffix("\n\nfirst\n"))

        try store.update(note.id) { $0.body = "from the store" }
        #expect(text().hasSuffix("\n\nfirst\n"), "nothing moves while the clock stands still")
        clock.advance(by: 250)
        #expect(await settles { text().hasSuffix("\n\nfrom the store\n") })

        #expect(await settles { clock.sleepers == 1 })
        let edited = text().replacingOccurrences(of: "from the store", with: "from the file")
        try Data(edited.utf8).write(to: URL(fileURLWithPath: file), options: .atomic)
        clock.advance(by: 250)
        #expect(await settles { (try? store.note(note.id))??.body == "from the file" })
    }
}
