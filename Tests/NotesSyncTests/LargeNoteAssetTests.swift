import CloudFolder
import Foundation
import NotesCore
import NotesStore
import NotesSync
import NotesTestSupport
import Testing

/// Notes over the inline size travel as asset chunks (SYNC-FORMAT rule 15).
@Suite("Large notes as assets")
struct LargeNoteAssetTests {
    static func bigBody(_ megabytes: Int, seed: UInt64) -> String {
        var random = SeededRandom(seed: seed)
        var body = ""
        while body.utf8.count < megabytes * 1_048_576 {
            body += "line \(random.below(1_000_000)) of a large note\n"
        }
        return body
    }

    @Test(
        "a missing chunk leaves the note waiting, a damaged one is caught by its hash; the good chunk is then accepted",
        arguments: FolderKind.allCases)
    func chunksArriveLateOrDamaged(_ kind: FolderKind) async throws {
        let (folder, io) = TestFolder.memory(encrypted: kind == .encrypted)
        let limit = ChangeRecord.maxFieldsBytes
        let a = try TestDevice("a", folder: folder, maxRecordBytes: limit)
        let b = try TestDevice("b", folder: folder, maxRecordBytes: limit)
        try await quiesce([a, b])
        let body = Self.bigBody(3, seed: 15)
        let note = try a.store.create(title: "big", body: body)
        let sent = await a.sync()
        #expect(sent.sent.sent == 1)
        #expect(try a.store.pendingCount() == 0)
        let chunks = io.allPaths().filter { $0.contains("/private/assets/") && io.contents($0) != nil }.sorted()
        #expect(chunks.count == 3 || chunks.count == 4, "\(chunks)")
        let victim = chunks[1]
        let good = try #require(io.contents(victim))
        try io.remove(victim)
        var summary = await b.sync()
        // Only the note waits (its record, not its log file).
        #expect(summary.fetched.notArrived == 0)
        #expect(summary.fetched.waitingNotes == 1)
        #expect(try b.store.note(note.id) == nil)
        #expect(await b.engine.warnings.contains { $0.contains("has not arrived yet") })
        io.plantFile(victim, Array(good.prefix(good.count / 2)))
        summary = await b.sync()
        #expect(try b.store.note(note.id) == nil)
        #expect(await b.engine.warnings.contains { $0.contains("does not match its hash") })
        io.plantFile(victim, good)
        summary = await b.sync()
        #expect(try b.store.note(note.id)?.body == body)
        try await quiesce([a, b])
    }

    @Test("two devices writing the same large text share its chunks (content addressing dedups)")
    func equalContentDedups() async throws {
        let (folder, io) = TestFolder.memory(encrypted: true)
        let limit = ChangeRecord.maxFieldsBytes
        let a = try TestDevice("a", folder: folder, maxRecordBytes: limit)
        let b = try TestDevice("b", folder: folder, maxRecordBytes: limit)
        try await quiesce([a, b])
        let body = Self.bigBody(2, seed: 16)
        let id = UUID()
        _ = try a.store.create(title: "same", body: body, id: id)
        _ = try b.store.create(title: "same", body: body, id: id)
        _ = await a.sync()
        let chunksAfterA = io.allPaths().filter { $0.contains("/private/assets/") }.count
        _ = await b.sync()
        #expect(io.allPaths().filter { $0.contains("/private/assets/") }.count == chunksAfterA)
        try await quiesce([a, b])
        #expect(try b.store.note(id)?.body == body)
    }
}
