import CloudFolder
import Foundation
import NotesCore
import NotesStore
import NotesTestSupport
import Testing

@testable import NotesSync

/// A chunk damaged in the folder (SYNC-FORMAT rule 15) never costs a device its id, and a device
/// holding the content repairs it (issue 21 item 6).
@Suite("Damaged chunks")
struct DamagedChunkTests {
    @Test(
        "attaching content whose chunk is damaged keeps the device id and repairs the chunk for every reader",
        arguments: FolderKind.allCases)
    func sameContentOverADamagedChunk(_ kind: FolderKind) async throws {
        let (folder, io, a, b) = try await TestFolder.memoryPair(kind)
        let note = try a.store.create(title: "from a", body: "see attached\n")
        let (attachment, content) = try AttachmentSyncTests.attach(a, note.id, name: "a.bin", bytes: 300_000, seed: 41)
        await a.sync()
        let chunk = try #require(io.allPaths().first { $0.contains("/private/assets/") && io.contents($0) != nil })
        var bytes = try #require(io.contents(chunk))
        bytes[bytes.count / 2] ^= 0xff
        io.plantFile(chunk, bytes)
        // Another device attaches the same content: the same chunk name, where the damaged file sits.
        let c = try TestDevice("c", folder: folder)
        let id = await c.engine.report().device
        let other = try c.store.create(title: "from c", body: "the same file\n")
        _ = try AttachmentSyncTests.attach(c, other.id, name: "same.bin", bytes: 300_000, seed: 41)
        let summary = await c.sync()
        #expect(summary.pending == 0, "\(String(describing: summary.error))")
        #expect(await c.engine.report().device == id, "c took a new device id")
        #expect(await c.engine.warnings.allSatisfy { !$0.contains("OwnLogTaken") && !$0.contains("copy of device") })
        // The repaired chunk lets a reader that was waiting for it apply a's note.
        await b.sync()
        #expect(try b.store.note(note.id)?.attachments == [attachment])
        #expect(try AttachmentSyncTests.content(b, attachment) == content)
    }

    @Test(
        "sync --repair writes a damaged or missing chunk again from the device that holds the content",
        arguments: [true, false])
    func repairRewritesTheChunk(damaged: Bool) async throws {
        let (_, io, a, b) = try await TestFolder.memoryPair()
        let note = try a.store.create(title: "from a", body: "see attached\n")
        let (attachment, content) = try AttachmentSyncTests.attach(a, note.id, name: "a.bin", bytes: 300_000, seed: 42)
        await a.sync()
        let chunk = try #require(io.allPaths().first { $0.contains("/private/assets/") && io.contents($0) != nil })
        if damaged {
            var bytes = try #require(io.contents(chunk))
            bytes[0] ^= 0xff
            io.plantFile(chunk, bytes)
        } else {
            try io.remove(chunk)
        }
        await b.sync()
        #expect(try b.store.note(note.id)?.attachments != [attachment], "b applied a note whose chunk is bad")
        #expect(try await a.engine.repair().chunksRewritten == 1)
        await b.sync()
        #expect(try AttachmentSyncTests.content(b, attachment) == content)
        // Nothing left to repair.
        #expect(try await a.engine.repair().chunksRewritten == 0)
    }
}
