import CloudFolder
import Foundation
import NotesCore
import NotesStore
import NotesTestSupport
import Testing

@testable import NotesSync

/// Attachments travel as content-addressed chunks, written before the record that names them
/// and read, checked, into the receiver's data directory before it applies the record
/// (SYNC-FORMAT rule 15).
@Suite("Attachments over sync")
struct AttachmentSyncTests {
    /// `megabytes` of seeded bytes (every chunk different) in a file of their own.
    static func file(_ bytes: Int, seed: UInt64) throws -> (URL, [UInt8]) {
        var random = SeededRandom(seed: seed)
        var content = [UInt8](repeating: 0, count: bytes)
        var index = 0
        while index < bytes {
            var word = random.next()
            for _ in 0..<8 where index < bytes {
                content[index] = UInt8(truncatingIfNeeded: word)
                word >>= 8
                index += 1
            }
        }
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("attachment-\(UUID().uuidString)")
        try Data(content).write(to: url)
        return (url, content)
    }

    static func content(_ device: TestDevice, _ attachment: NotesCore.Attachment) throws -> [UInt8] {
        try Array(Data(contentsOf: URL(fileURLWithPath: device.store.attachmentContentPath(attachment.sha256))))
    }

    static func attach(_ device: TestDevice, _ id: UUID, name: String, bytes: Int, seed: UInt64) throws -> (
        NotesCore.Attachment, [UInt8]
    ) {
        let (url, content) = try file(bytes, seed: seed)
        defer { try? FileManager.default.removeItem(at: url) }
        let attachment = try device.store.addAttachmentContent(fromFile: url.path, name: name, maxBytes: 1 << 30)
        try device.store.attach(id, [attachment])
        return (attachment, content)
    }

    @Test(
        "an attachment of several chunks crosses byte-identical, in a format-3 log file", arguments: FolderKind.allCases
    )
    func crosses(_ kind: FolderKind) async throws {
        let (_, io, a, b) = try await TestFolder.memoryPair(kind)
        let note = try a.store.create(title: "with a file", body: "see attached")
        let (attachment, content) = try Self.attach(a, note.id, name: "photo.raw", bytes: 2_500_000, seed: 31)
        await a.sync()
        let chunks = io.allPaths().filter { $0.contains("/private/assets/") && io.contents($0) != nil }
        #expect(chunks.count == 3, "\(chunks)")
        await b.sync()
        let received = try #require(try b.store.note(note.id))
        #expect(received.attachments == [attachment])
        #expect(try Self.content(b, attachment) == content)
        // The log file naming attachments says format 3, so a build without attachments refuses
        // it as newer (plain folders only: sealed files show nothing).
        if kind == .plain {
            let logs = io.allPaths().filter { $0.contains("/log/") && $0.hasSuffix(".json") }
            let texts = logs.compactMap { io.contents($0) }.map { String(decoding: $0, as: UTF8.self) }
            #expect(texts.contains { $0.contains("\"format\":3") && $0.contains("attachmentChunks") })
        }
        try await quiesce([a, b])
    }

    @Test(
        "a missing chunk leaves the note waiting for its attachment; a damaged one is caught by its hash; the good one is then applied",
        arguments: FolderKind.allCases)
    func waitsForChunks(_ kind: FolderKind) async throws {
        let (_, io, a, b) = try await TestFolder.memoryPair(kind)
        let note = try a.store.create(title: "late file", body: "")
        let (attachment, content) = try Self.attach(a, note.id, name: "late.bin", bytes: 2_200_000, seed: 32)
        await a.sync()
        let chunks = io.allPaths().filter { $0.contains("/private/assets/") && io.contents($0) != nil }.sorted()
        let victim = chunks[1]
        let good = try #require(io.contents(victim))
        try io.remove(victim)
        await b.sync()
        // The note waits at its revision before the attachment (only that revision waits).
        #expect(try b.store.note(note.id)?.attachments.isEmpty == true)
        #expect(await b.engine.status.attachmentWaitingCount == 1)
        #expect(await b.engine.warnings.contains { $0.contains("waiting for attachment late.bin") })
        #expect(!b.store.hasAttachmentContent(sha256: attachment.sha256))
        var damaged = good
        damaged[damaged.count / 2] ^= 0xFF
        io.plantFile(victim, damaged)
        await b.sync()
        #expect(try b.store.note(note.id)?.attachments.isEmpty == true)
        #expect(await b.engine.warnings.contains { $0.contains("does not match its hash") })
        #expect(!b.store.hasAttachmentContent(sha256: attachment.sha256))
        io.plantFile(victim, good)
        await b.sync()
        #expect(try b.store.note(note.id)?.attachments == [attachment])
        #expect(try Self.content(b, attachment) == content)
        #expect(await b.engine.status.attachmentWaitingCount == 0)
    }

    @Test(
        "attachments added on two devices at once are both kept; a detach on one side wins over no change",
        arguments: FolderKind.allCases)
    func mergesByName(_ kind: FolderKind) async throws {
        let (_, _, a, b) = try await TestFolder.memoryPair(kind)
        let note = try a.store.create(title: "shared", body: "")
        let (first, _) = try Self.attach(a, note.id, name: "first.txt", bytes: 10, seed: 33)
        try await quiesce([a, b])
        let (fromA, _) = try Self.attach(a, note.id, name: "a.txt", bytes: 100, seed: 34)
        let (fromB, contentB) = try Self.attach(b, note.id, name: "b.txt", bytes: 300_000, seed: 35)
        try a.store.detach(note.id, name: "first.txt")
        try await quiesce([a, b])
        let merged = try #require(try a.store.note(note.id))
        #expect(merged.attachments == [fromA, fromB])
        #expect(merged.attachment(named: first.name) == nil)
        #expect(try Self.content(a, fromB) == contentB)
    }

    @Test(
        "a snapshot names its attachments' chunks, and a device loading it receives the content",
        arguments: FolderKind.allCases)
    func snapshotCarriesAttachments(_ kind: FolderKind) async throws {
        let (folder, _) = TestFolder.memory(encrypted: kind == .encrypted)
        let a = try TestDevice("a", folder: folder)
        let note = try a.store.create(title: "snap", body: "")
        let (attachment, content) = try Self.attach(a, note.id, name: "s.bin", bytes: 1_200_000, seed: 36)
        await a.sync()
        let revisions = try a.store.snapshotRevisions(zone: "notes")
        let device = await a.engine.device
        // The engine's folder reads content through its store, as `SyncEngine` wires it.
        var folderOfA = folder
        folderOfA.attachments = a.store
        let (state, count) = SnapshotContent.state(revisions, assets: folderOfA, device: device)
        #expect(count == revisions.count)
        let b = try TestDevice("b", folder: folder)
        var wired = folder
        wired.attachments = b.store
        let batch = try SnapshotContent.revisions(state, assets: wired)
        #expect(batch.records.contains { $0.revision.fields?.attachments == [attachment] })
        #expect(try Self.content(b, attachment) == content)
    }

    @Test("in an encrypted folder no file or name holds an attachment's name or content, snapshots included")
    func nothingReadableEncrypted() async throws {
        let (folder, io, a, b) = try await TestFolder.memoryPair(.encrypted)
        let note = try a.store.create(title: "private", body: "")
        let source = FileManager.default.temporaryDirectory.appendingPathComponent("walrusfilename-\(UUID())")
        defer { try? FileManager.default.removeItem(at: source) }
        try Data(String(repeating: "marmotcontent ", count: 30_000).utf8).write(to: source)
        let attachment = try a.store.addAttachmentContent(
            fromFile: source.path, name: "walrusfilename.txt", maxBytes: 1 << 30)
        try a.store.attach(note.id, [attachment])
        try await quiesce([a, b])
        for n in 0..<3 {
            _ = try a.store.create(title: "more \(n)", body: "\(n)\n")
            _ = await a.sync()
        }
        // Compaction writes a snapshot, which names the attachment's chunks too.
        let compacted = try await a.engine.compact()
        try await quiesce([a, b])
        #expect(try b.store.note(note.id)?.attachments == [attachment], "\(compacted)")
        let paths = io.allPaths()
        #expect(paths.contains { $0.contains("/snapshots/") } && paths.contains { $0.contains("/assets/") })
        for path in paths {
            for marker in ["walrusfilename", "marmotcontent", attachment.sha256] {
                #expect(!path.contains(marker), "\(path) names \(marker)")
                guard let bytes = io.contents(path) else { continue }
                for form in EncryptedFolderTests.forms(marker) {
                    #expect(!EncryptedFolderTests.contains(bytes, form), "\(path) holds \(marker)")
                }
            }
        }
        _ = folder
    }

    @Test(
        "chunks gone from the folder are written again when the note is next published", arguments: FolderKind.allCases)
    func chunksWrittenAgain(_ kind: FolderKind) async throws {
        let (folder, io) = TestFolder.memory(encrypted: kind == .encrypted)
        let a = try TestDevice("a", folder: folder)
        let note = try a.store.create(title: "n", body: "v1")
        let (attachment, content) = try Self.attach(a, note.id, name: "f.bin", bytes: 1_500_000, seed: 37)
        await a.sync()
        let chunks = io.allPaths().filter { $0.contains("/private/assets/") && io.contents($0) != nil }
        for chunk in chunks { try io.remove(chunk) }
        // A's memory of where the content sits is stale: the next publication checks and rewrites.
        try a.store.update(note.id) { $0.body = "v2" }
        await a.sync()
        let b = try TestDevice("b", folder: folder)
        await b.sync()
        #expect(try b.store.note(note.id)?.body == "v2")
        #expect(try Self.content(b, attachment) == content)
    }
}
