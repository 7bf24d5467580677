import CloudFolder
import Crypto
import Foundation
import NotesCore
import NotesStore
import NotesTestSupport
import Testing

@testable import NotesSync

/// A chunk of a large note's fields (`fieldsAsset`, SYNC-FORMAT rule 15) that is missing or
/// damaged in the folder: the device holding the note learns it and `sync --repair` writes it
/// again from the revision it stores (issue 21 item 6, "Damage is contained").
@Suite("Large notes' chunks repaired")
struct LargeNoteRepairTests {
    /// The chunk files under `private/assets/`, by path.
    static func chunkPaths(_ io: InMemoryFileIO) -> [String] {
        io.allPaths().filter { $0.contains("/private/assets/") && io.contents($0) != nil }.sorted()
    }

    /// Removes the chunk at `path`, or flips a byte of it.
    static func spoil(_ io: InMemoryFileIO, _ path: String, remove: Bool) throws {
        if remove {
            try io.remove(path)
        } else {
            var bytes = try #require(io.contents(path))
            bytes[bytes.count / 2] ^= 0xff
            io.plantFile(path, bytes)
        }
    }

    static func name(of path: String) -> String { String(path.split(separator: "/").last ?? "") }

    @Test(
        "the writer of a large note learns its missing or damaged chunk and sync --repair writes it again",
        arguments: FolderKind.allCases, [true, false])
    func writerRepairs(_ kind: FolderKind, remove: Bool) async throws {
        let (folder, io) = TestFolder.memory(encrypted: kind == .encrypted)
        let a = try TestDevice("a", folder: folder, maxRecordBytes: ChangeRecord.maxFieldsBytes)
        let b = try TestDevice("b", folder: folder, maxRecordBytes: ChangeRecord.maxFieldsBytes)
        try await quiesce([a, b])
        let body = LargeNoteAssetTests.bigBody(2, seed: 61)
        let note = try a.store.create(title: "big", body: body)
        await a.sync()
        let chunks = Self.chunkPaths(io)
        #expect(chunks.count >= 2, "\(chunks)")
        let victim = chunks[1]
        try Self.spoil(io, victim, remove: remove)

        // b waits for that chunk, named in its device file; the rest of a's stream arrives.
        let later = try a.store.create(title: "later", body: "after the big one\n")
        await a.sync()
        await b.sync()
        #expect(try b.store.note(note.id) == nil, "b applied a note whose chunk is bad")
        #expect(try b.store.note(later.id)?.body == "after the big one\n")
        #expect(await b.engine.state.waiting.map(\.record.chunk) == [Self.name(of: victim)])

        // a's status names the chunk and offers the repair; the app's sync says it too.
        let report = await a.engine.report()
        #expect(report.damagedChunks.map(\.name) == [Self.name(of: victim)])
        #expect(report.damagedChunks.first?.repairable == true)
        let message = try #require(report.damagedChunks.first?.message)
        #expect(message.contains(remove ? "is missing" : "is damaged"), "\(message)")
        #expect(message.contains("cloudnotes sync --repair"), "\(message)")
        a.clock.advance(by: SyncEngine.damageCheckInterval + 1)
        await a.sync()
        #expect(await a.engine.status.damagedChunkCount == 1)

        #expect(try await a.engine.repair().chunksRewritten == 1)
        #expect(Self.chunkPaths(io).contains(victim), "the chunk was written under another name")
        await b.sync()
        #expect(try b.store.note(note.id)?.body == body)
        #expect(await b.engine.state.waiting.isEmpty)
        await b.sync()  // its device file no longer names the chunk
        #expect(await a.engine.report().damagedChunks.isEmpty)
        #expect(try await a.engine.repair().chunksRewritten == 0, "nothing is left to repair")
    }

    @Test("a device that received a large note repairs its chunk for a device that joins later")
    func receiverRepairs() async throws {
        let (folder, io) = TestFolder.memory(encrypted: true)
        let a = try TestDevice("a", folder: folder, maxRecordBytes: ChangeRecord.maxFieldsBytes)
        let b = try TestDevice("b", folder: folder, maxRecordBytes: ChangeRecord.maxFieldsBytes)
        try await quiesce([a, b])
        let body = LargeNoteAssetTests.bigBody(2, seed: 62)
        let note = try a.store.create(title: "big", body: body)
        try await quiesce([a, b])
        #expect(try b.store.note(note.id)?.body == body)
        let victim = try #require(Self.chunkPaths(io).first)
        try Self.spoil(io, victim, remove: true)

        let c = try TestDevice("c", folder: folder, maxRecordBytes: ChangeRecord.maxFieldsBytes)
        await c.sync()
        #expect(try c.store.note(note.id) == nil)
        let report = await b.engine.report()
        #expect(report.damagedChunks.map(\.name) == [Self.name(of: victim)])
        #expect(report.damagedChunks.first?.message.contains("of content this device holds") == true)
        #expect(try await b.engine.repair().chunksRewritten == 1)
        await c.sync()
        #expect(try c.store.note(note.id)?.body == body)
    }

    @Test("a chunk written under an older key of the ring is written again under its own name")
    func olderKeyName() async throws {
        let io = InMemoryFileIO()
        io.plantDirectory("/cloud")
        let first = SymmetricKey(size: .bits256)
        let containerID = UUID().uuidString.lowercased()
        let old = DirectoryCloudFolder(
            root: "/cloud", io: io, seal: FolderSeal(dataKey: first, containerID: containerID))
        let limit = ChangeRecord.maxFieldsBytes
        let a = try TestDevice("a", folder: old, maxRecordBytes: limit)
        let b = try TestDevice("b", folder: old, maxRecordBytes: limit)
        try await quiesce([a, b])
        let body = LargeNoteAssetTests.bigBody(2, seed: 63)
        let note = try a.store.create(title: "big", body: body)
        await a.sync()
        let victim = try #require(Self.chunkPaths(io).last)

        // The key changes (`sync passphrase --new-key`): both devices hold the ring of two.
        let ring = try #require(Keyring(first).addingRandomKey())
        let new = DirectoryCloudFolder(
            root: "/cloud", io: io, seal: FolderSeal(keyring: ring, containerID: containerID))
        let keys = try KeysFile.wrap(
            ring, passphrase: "new", generation: 1, containerID: containerID, cost: KeysFile.Cost(logN: 10))
        try new.publishKeys(
            keys, device: try #require(DeviceID("aaaaaaaaaaaaaaaa")), hlc: HLC(millis: 1_700_000_000_000))
        let a2 = try a.copied(as: "a2", folder: new, maxRecordBytes: limit)
        let b2 = try b.copied(as: "b2", folder: new, maxRecordBytes: limit)
        try Self.spoil(io, victim, remove: false)
        await b2.sync()
        #expect(try b2.store.note(note.id) == nil)
        #expect(await b2.engine.state.waiting.map(\.record.chunk) == [Self.name(of: victim)])
        #expect(await a2.engine.report().damagedChunks.map(\.name) == [Self.name(of: victim)])
        #expect(try await a2.engine.repair().chunksRewritten == 1)
        await b2.sync()
        #expect(try b2.store.note(note.id)?.body == body)
    }
}
