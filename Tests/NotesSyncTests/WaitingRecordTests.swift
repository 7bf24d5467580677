import CloudFolder
import Foundation
import NotesCore
import NotesStore
import NotesTestSupport
import Testing

@testable import NotesSync

/// A record whose chunk is missing or damaged holds only its note, never the rest of its
/// writer's stream (issue 21 item 6, SYNC-FORMAT rule 15).
@Suite("Records waiting for a chunk")
struct WaitingRecordTests {
    /// The first chunk file in the folder, damaged (one byte flipped) or removed.
    static func spoilChunk(_ io: InMemoryFileIO, remove: Bool) throws -> String {
        let chunk = try #require(io.allPaths().first { $0.contains("/private/assets/") && io.contents($0) != nil })
        if remove {
            try io.remove(chunk)
        } else {
            var bytes = try #require(io.contents(chunk))
            bytes[bytes.count / 2] ^= 0xff
            io.plantFile(chunk, bytes)
        }
        return chunk
    }

    @Test(
        "a damaged or missing chunk holds only its note: later changes and later files of its writer arrive",
        arguments: [true, false])
    func laterChangesArrive(remove: Bool) async throws {
        let (_, io, a, b) = try await TestFolder.memoryPair()
        let held = try a.store.create(title: "held", body: "see attached\n")
        let (attachment, content) = try AttachmentSyncTests.attach(a, held.id, name: "a.bin", bytes: 300_000, seed: 7)
        let sameFile = try a.store.create(title: "same file", body: "written with it\n")
        await a.sync()
        _ = try Self.spoilChunk(io, remove: remove)
        let later = try a.store.create(title: "later", body: "written after\n")
        await a.sync()
        await b.sync()
        #expect(try b.store.note(sameFile.id)?.body == "written with it\n", "the rest of the file was not applied")
        #expect(try b.store.note(later.id)?.body == "written after\n", "a later file of the writer was not applied")
        // The note stays at its revision before the attachment: only the revision naming it waits.
        #expect(try b.store.note(held.id)?.attachments.isEmpty == true, "a revision whose chunk is bad was applied")
        #expect(await b.engine.status.attachmentWaitingCount == 1)
        #expect(await b.engine.state.waiting.map(\.record.recordID) == [held.id.lowercasedString])
        let reason = remove ? "has not arrived yet" : "does not match its hash"
        let warnings = await b.engine.warnings
        #expect(
            warnings.contains {
                $0.contains("note \(held.id.lowercasedString) is waiting for attachment a.bin") && $0.contains(reason)
            }, "\(warnings)")
        // Still waiting at the next sync, and still only that note.
        let next = try a.store.create(title: "next", body: "and after that\n")
        await a.sync()
        await b.sync()
        #expect(try b.store.note(next.id)?.body == "and after that\n")
        #expect(try b.store.note(held.id)?.attachments.isEmpty == true)
        // Repaired by its writer: the waiting record applies, content and all.
        #expect(try await a.engine.repair().chunksRewritten == 1)
        await b.sync()
        #expect(try b.store.note(held.id)?.attachments == [attachment])
        #expect(try AttachmentSyncTests.content(b, attachment) == content)
        #expect(await b.engine.state.waiting.isEmpty)
        #expect(await b.engine.status.attachmentWaitingCount == 0)
    }

    @Test(
        "a later revision of a waiting note is never overwritten by the old one, before or after the chunk comes back")
    func laterRevisionWins() async throws {
        let (_, io, a, b) = try await TestFolder.memoryPair()
        let note = try a.store.create(title: "note", body: "first\n")
        await a.sync()
        await b.sync()
        let (attachment, content) = try AttachmentSyncTests.attach(a, note.id, name: "a.bin", bytes: 300_000, seed: 8)
        await a.sync()
        _ = try Self.spoilChunk(io, remove: false)
        await b.sync()
        #expect(try b.store.note(note.id)?.body == "first\n", "b lost the revision it had")
        #expect(try b.store.note(note.id)?.attachments.isEmpty == true)
        // A later revision with the same attachment waits for the same chunk; the note keeps its
        // last good revision meanwhile.
        _ = try a.store.update(note.id) { $0.body = "second\n" }
        await a.sync()
        await b.sync()
        #expect(try b.store.note(note.id)?.body == "first\n")
        #expect(await b.engine.state.waiting.count == 2)
        #expect(try await a.engine.repair().chunksRewritten == 1)
        await b.sync()
        #expect(try b.store.note(note.id)?.body == "second\n", "the older waiting revision took the note's place")
        #expect(try b.store.note(note.id)?.attachments == [attachment])
        #expect(try AttachmentSyncTests.content(b, attachment) == content)
        #expect(await b.engine.state.waiting.isEmpty)
        // Both devices agree and nothing is left to merge.
        await a.sync()
        #expect(try a.store.note(note.id)?.body == "second\n")
    }

    @Test("a later revision that no longer names the damaged content releases the note without waiting for the chunk")
    func laterRevisionWithoutTheContent() async throws {
        let (_, io, a, b) = try await TestFolder.memoryPair()
        let note = try a.store.create(title: "note", body: "first\n")
        _ = try AttachmentSyncTests.attach(a, note.id, name: "a.bin", bytes: 300_000, seed: 9)
        await a.sync()
        _ = try Self.spoilChunk(io, remove: true)
        await b.sync()
        #expect(try b.store.note(note.id)?.attachments.isEmpty == true)
        #expect(await b.engine.state.waiting.count == 1)
        _ = try a.store.detach(note.id, name: "a.bin")
        _ = try a.store.update(note.id) { $0.body = "without it\n" }
        await a.sync()
        await b.sync()
        #expect(try b.store.note(note.id)?.body == "without it\n", "the note stayed held behind its old revision")
        #expect(try b.store.note(note.id)?.attachments.isEmpty == true)
        #expect(await b.engine.state.waiting.isEmpty)
        #expect(await b.engine.status.attachmentWaitingCount == 0)
    }

    @Test(
        "the device that wrote a damaged or missing chunk learns it (status, the app's status) until sync --repair",
        arguments: [true, false])
    func writerLearns(remove: Bool) async throws {
        let (_, io, a, b) = try await TestFolder.memoryPair()
        let note = try a.store.create(title: "held", body: "see attached\n")
        let (attachment, _) = try AttachmentSyncTests.attach(a, note.id, name: "a.bin", bytes: 300_000, seed: 11)
        await a.sync()
        let chunk = try Self.spoilChunk(io, remove: remove)
        let name = String(chunk.split(separator: "/").last ?? "")
        #expect(await a.engine.report().damagedChunks.isEmpty, "nobody waits for it yet")
        await b.sync()
        // `status` looks at once; the app's sync looks every ten minutes.
        let report = await a.engine.report()
        #expect(report.damagedChunks.map(\.name) == [name])
        #expect(report.damagedChunks.first?.repairable == true)
        let message = try #require(report.damagedChunks.first?.message)
        #expect(message.contains(remove ? "is missing" : "is damaged"), "\(message)")
        #expect(message.contains("cloudnotes sync --repair"), "\(message)")
        a.clock.advance(by: SyncEngine.damageCheckInterval + 1)
        await a.sync()
        #expect(await a.engine.status.damagedChunkCount == 1)
        #expect(await a.engine.warnings.contains(message))
        // b's own status names the note and the fix.
        let waiting = await b.engine.report().waiting
        #expect(waiting.map(\.record.recordID) == [note.id.lowercasedString])
        #expect(try await a.engine.repair().chunksRewritten == 1)
        await a.sync()
        #expect(await a.engine.status.damagedChunkCount == 0)
        #expect(await a.engine.report().damagedChunks.isEmpty)
        await b.sync()
        #expect(try b.store.note(note.id)?.attachments == [attachment])
        #expect(try b.store.engineState().map(SyncEngineState.init(serialized:))?.waiting.isEmpty == true)
    }

    @Test("past the most records a device keeps waiting, its writer's stream waits at the file; nothing is skipped")
    func waitingIsBounded() async throws {
        let (_, io, a, b) = try await TestFolder.memoryPair()
        // One content attached to many notes: one chunk, named by every record.
        func attachToNew(_ count: Int, from first: Int) throws -> [UUID] {
            try (first..<first + count).map { number in
                let note = try a.store.create(title: "n\(number)", body: "\(number)\n")
                _ = try AttachmentSyncTests.attach(a, note.id, name: "same.bin", bytes: 2000, seed: 12)
                return note.id
            }
        }
        let first = try attachToNew(200, from: 0)
        await a.sync()
        // Damaged, not removed: a writer publishing the content again rewrites a missing chunk.
        _ = try Self.spoilChunk(io, remove: false)
        await b.sync()
        #expect(await b.engine.state.waiting.count == 200)
        let second = try attachToNew(SyncEngine.maxWaitingRecords, from: 200)
        let after = try a.store.create(title: "after", body: "after the full file\n")
        await a.sync()
        let summary = await b.sync()
        #expect(await b.engine.state.waiting.count == 200, "more records wait than a device keeps")
        #expect(summary.fetched.notArrived == 1, "the file that does not fit is not reported as waiting")
        #expect(try b.store.note(after.id) == nil, "a file past the held one was skipped to")
        #expect(await b.engine.warnings.contains { $0.contains("as many as this device keeps") })
        #expect(try await a.engine.repair().chunksRewritten == 1)
        await b.sync()
        #expect(await b.engine.state.waiting.isEmpty)
        #expect(try b.store.note(after.id)?.body == "after the full file\n")
        for id in first + second { #expect(try b.store.note(id)?.attachments.count == 1) }
    }

    @Test("waiting records survive a restart of the reader (they are in its saved state)")
    func waitingSurvivesRestart() async throws {
        let (folder, io, a, b) = try await TestFolder.memoryPair()
        let note = try a.store.create(title: "held", body: "see attached\n")
        let (attachment, _) = try AttachmentSyncTests.attach(a, note.id, name: "a.bin", bytes: 300_000, seed: 10)
        await a.sync()
        _ = try Self.spoilChunk(io, remove: false)
        await b.sync()
        let saved = try #require(try b.store.engineState())
        #expect(try SyncEngineState(serialized: saved).waiting.map(\.record.recordID) == [note.id.lowercasedString])
        // A new engine over the same store (the app started again) still holds the record.
        let restarted = try SyncEngine(
            store: b.store,
            configuration: SyncEngine.Configuration(folder: folder, deviceName: "b", now: { b.clock.date }))
        #expect(try await a.engine.repair().chunksRewritten == 1)
        let summary = await restarted.syncNow()
        #expect(summary.error == nil)
        #expect(try b.store.note(note.id)?.attachments == [attachment])
    }
}
