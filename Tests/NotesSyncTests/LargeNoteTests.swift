import CloudFolder
import Foundation
import NotesCore
import NotesStore
import NotesSync
import Testing

/// Large notes (SYNC-FORMAT "Bodies", the 1 MB record limit): handled in linear time, and a
/// note once over the limit syncs again once it is back under it.
@Suite("Large notes")
struct LargeNoteTests {
    /// `lines` lines of `width` bytes each (newline included).
    static func body(lines: Int, width: Int) -> String {
        var text = ""
        text.reserveCapacity(lines * width)
        let pad = String(repeating: "x", count: max(0, width - 8))
        for i in 0..<lines {
            let number = String(i % 1_000_000)
            text += String(repeating: "0", count: 6 - number.count) + number + " " + pad + "\n"
        }
        return text
    }

    @Test("a pending 10 MB note of 100k lines: a sync takes seconds, not minutes (it was quadratic in lines)")
    func tenMegabytesPending() async throws {
        let (folder, _) = TestFolder.memory()
        let a = try TestDevice("a", folder: folder)
        let note = try a.store.create(title: "big", body: Self.body(lines: 100_000, width: 100))
        let clock = ContinuousClock()
        let start = clock.now
        let summary = await a.engine.syncNow()
        let elapsed = clock.now - start
        // Quadratic, this took over two minutes; linear, a few seconds in a debug build on a loaded machine.
        #expect(elapsed < .seconds(60), "one sync with a 10 MB note pending took \(elapsed)")
        #expect(summary.sent.failed.map(\.recordID) == [note.id])
        #expect(summary.pending == 1)
    }

    @Test("a 100k-line string parses in linear time")
    func parseManyEscapes() throws {
        let text = Self.body(lines: 100_000, width: 100)
        let bytes = JSONValue.object(["body": .string(text)]).canonicalBytes
        let clock = ContinuousClock()
        let start = clock.now
        let parsed = try JSONValue(parsing: Data(bytes))
        let elapsed = clock.now - start
        #expect(parsed["body"]?.stringValue?.utf8.count == text.utf8.count)
        #expect(elapsed < .seconds(60), "parsing a 10 MB string of 100k lines took \(elapsed)")
    }

    @Test("a note once over 1 MB syncs again after it is shrunk; the receiver waits for no parent")
    func shrunkNoteSyncs() async throws {
        let (folder, _, a, b) = try await TestFolder.memoryPair()
        let note = try a.store.create(title: "grows", body: "small\n")
        await a.sync()
        await b.sync()
        _ = try a.store.update(note.id) { $0.body = Self.body(lines: 20_000, width: 100) }
        let held = await a.sync()
        #expect(held.sent.failed.map(\.recordID) == [note.id])
        #expect(held.pending == 1)
        // b edits the published version meanwhile: a merges it with the big one (still held).
        _ = try b.store.update(note.id) { $0.title = "renamed on b" }
        await b.sync()
        a.clock.advance(by: 1000)
        await a.sync()
        #expect(try a.store.pendingCount() > 0)
        _ = try a.store.update(note.id) { $0.body = "small again\n" }
        let sent = await a.sync()
        #expect(sent.sent.failed.isEmpty)
        #expect(sent.pending == 0)
        #expect(try a.store.pendingCount() == 0)
        let received = await b.sync()
        #expect(received.fetched.buffered == 0)
        #expect(try b.bufferedCount() == 0)
        let onB = try #require(try b.store.note(note.id))
        #expect(onB.body == "small again\n")
        #expect(onB.title == "renamed on b")
        try await quiesce([a, b])
        // A device that joins later gets the same note, with nothing waiting for a parent.
        let c = try TestDevice("c", folder: folder)
        await c.sync()
        #expect(try c.store.note(note.id)?.body == "small again\n")
        #expect(try c.bufferedCount() == 0)
    }

    @Test("a note still over 1 MB stays held, with its later revisions, and says so once")
    func stillOverStaysHeld() async throws {
        let (_, _, a, b) = try await TestFolder.memoryPair()
        let note = try a.store.create(title: "big", body: Self.body(lines: 12_000, width: 100))
        _ = try a.store.update(note.id) { $0.body += "more\n" }
        let summary = await a.sync()
        #expect(summary.sent.failed.map(\.recordID) == [note.id])
        let warnings = await a.engine.warnings.filter { $0.contains(note.id.lowercasedString) }
        #expect(warnings.count == 1, "\(warnings)")
        await b.sync()
        #expect(try b.store.note(note.id) == nil)
        #expect(try b.bufferedCount() == 0)
    }

    @Test("the status (what the app's status bar shows) counts a held note and says why, until it goes out")
    func statusNamesTheHeldReason() async throws {
        let (folder, _) = TestFolder.memory()
        let a = try TestDevice("a", folder: folder)
        let note = try a.store.create(title: "big", body: Self.body(lines: 12_000, width: 100))
        _ = try a.store.create(title: "small", body: "goes out")
        _ = await a.engine.syncNow()
        var status = await a.engine.status
        #expect(status.heldCount == 1)
        #expect(status.heldReason == "over the 1 MB limit")
        #expect(status.pendingCount == 1)
        _ = try a.store.update(note.id) { $0.body = "small again\n" }
        _ = await a.engine.syncNow()
        status = await a.engine.status
        #expect(status.heldCount == 0)
        #expect(status.heldReason == nil)
        #expect(status.pendingCount == 0)
    }
}

extension TestDevice {
    func bufferedCount() throws -> Int { try store.bufferedRevisionCount() }
}
