import Foundation
import NotesCore
import NotesFiles
import NotesStore
import NotesSync
import Testing

/// Two saves of one file close together, the second leaving the stat the first left (same size,
/// same mtime, same inode: a file system whose clock did not tick between them), keep both
/// versions: the first in the note's history, the second its text, read at the next tick rather
/// than at the periodic sweep. Stepped ticks and an injected clock: no wall-clock sleeps.
@Suite struct SameStatSaveTests {
    /// With inotify (the second save is an event) and without it (the keeper polls, and hashes
    /// a racily clean file again at each tick).
    @Test(arguments: [true, false])
    func aSecondSaveWithTheSameStatReachesTheStoreAtTheNextTick(watchEvents: Bool) throws {
        let fixture = try MirrorFixture("same-stat")
        defer { fixture.remove() }
        let (folder, store) = (fixture.folder, fixture.store)
        let note = try store.create(title: "Draft", body: "first draft")
        // The mirror's clock: half a second after the saves' mtime, within the racy window.
        let mtime: Int64 = 1_900_000_000_000_000_000
        let keeper = try fixture.keeper(watchEvents: watchEvents) { mtime + 500_000_000 }
        let file = folder + "/notes/Draft.md"
        let tick = Duration.milliseconds(250)
        _ = keeper.tick(elapsed: .zero)
        let written = try String(contentsOfFile: file, encoding: .utf8)
        #expect(written.hasSuffix("\n\nfirst draft\n"))

        /// Saves `body` in place (the same inode) and sets the mtime every save gets here.
        func save(_ body: String) throws {
            let text = written.replacingOccurrences(of: "first draft", with: body)
            let handle = try #require(FileHandle(forWritingAtPath: file))
            try handle.truncate(atOffset: 0)
            try handle.write(contentsOf: Data(text.utf8))
            try handle.close()
            try FileManager.default.setAttributes(
                [.modificationDate: Date(timeIntervalSince1970: Double(mtime / 1_000_000_000))], ofItemAtPath: file)
        }
        try save("saved by one")
        let first = try #require(FileStat.of(file))
        _ = keeper.tick(elapsed: tick)
        #expect(try store.note(note.id)?.body == "saved by one")
        // A quiet tick: the store's own commit is seen, nothing else moves.
        _ = keeper.tick(elapsed: tick)

        try save("saved by two")  // the same length: the same stat
        #expect(FileStat.of(file) == first)
        _ = keeper.tick(elapsed: tick)
        #expect(try store.note(note.id)?.body == "saved by two", "a save with an unchanged stat waits for the sweep")
        let bodies = try store.history(note.id).compactMap { $0.fields?.body }
        #expect(bodies.contains("saved by one") && bodies.contains("saved by two"), "\(bodies)")
    }
}
