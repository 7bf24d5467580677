import CloudFolder
import Foundation
import NotesCore
import NotesStore
import NotesTestSupport
import Testing

@testable import NotesSync

/// Where a collection test's folder lives: the same code over memory, a disk and a bucket.
enum ChunkPlace: String, CaseIterable, CustomTestStringConvertible {
    case memory, memoryEncrypted, disk, s3
    var testDescription: String { rawValue }

    func folder() async throws -> DirectoryCloudFolder {
        switch self {
        case .memory: TestFolder.memory().0
        case .memoryEncrypted: TestFolder.memory(encrypted: true).0
        case .disk: try TestFolder.disk()
        case .s3: try await TestFolder.s3()
        }
    }
}

/// Compaction deletes a device's own chunks that no file in the folder and no note's head names
/// (SYNC-FORMAT rule 15), after the log files that named them (rule 11).
@Suite("Chunk collection (SYNC-FORMAT rule 15)")
struct ChunkCollectionTests {
    static let zone = ZoneID("notes")!

    static func advance(_ devices: [TestDevice], by ms: Int64) { CompactionTests.advance(devices, by: ms) }

    /// Compacts on each device in turn and returns the summaries.
    static func compact(_ devices: [TestDevice]) async throws -> [CompactionSummary] {
        var summaries: [CompactionSummary] = []
        for device in devices { summaries.append(try await device.engine.compact()) }
        return summaries
    }

    @Test(
        "a detached attachment's chunks are deleted once every device has acknowledged the files naming them",
        arguments: ChunkPlace.allCases)
    func detachedChunksGo(_ place: ChunkPlace) async throws {
        let folder = try await place.folder()
        let a = try TestDevice("a", folder: folder)
        let b = try TestDevice("b", folder: folder, clock: TestClock(a.clock.date.millisecondsSince1970))
        try await quiesce([a, b])
        let note = try a.store.create(title: "with a file", body: "see attached\n")
        _ = try AttachmentSyncTests.attach(a, note.id, name: "big.bin", bytes: 2_500_000, seed: 41)
        await CompactionTests.syncRound([a, b])
        let chunks = try folder.chunksPresent()
        #expect(chunks.count == 3)
        try a.store.detach(note.id, name: "big.bin")
        await CompactionTests.syncRound([a, b, a, b])
        // The snapshot is not a day old: the log file naming the chunks stays, and so do they.
        let first = try await a.engine.compact()
        #expect(first.zones[Self.zone]?.snapshotSeq != nil)
        #expect(first.chunks?.deleted == 0)
        #expect(try folder.chunksPresent() == chunks)
        Self.advance([a, b], by: CompactionTests.day + CompactionTests.minute)
        await CompactionTests.syncRound([a, b, a, b])
        let second = try await a.engine.compact()
        #expect((second.zones[Self.zone]?.deleted ?? 0) > 0, "\(second)")
        // Named by nothing now: they wait out a day in case a device names the content again.
        #expect(second.chunks?.deleted == 0, "\(second)")
        #expect(second.chunks?.unreferenced == 3, "\(second)")
        #expect(try folder.chunksPresent() == chunks)
        Self.advance([a, b], by: CompactionTests.day + CompactionTests.minute)
        let third = try await a.engine.compact()
        #expect(third.chunks?.deleted == 3, "\(third)")
        #expect(try folder.chunksPresent().isEmpty)
        #expect(try folder.chunkNamesInFolder() == [])
        // A device joining now loads the snapshot, whose history goes without the chunks.
        let c = try TestDevice("c", folder: folder, clock: TestClock(a.clock.date.millisecondsSince1970))
        try await quiesce([a, b, c])
        #expect(try c.store.note(note.id)?.attachments == [])
        #expect(try c.store.history(note.id).count == (try a.store.history(note.id).count))
        #expect(await c.engine.status.attachmentWaitingCount == 0)
    }

    @Test(
        "a chunk stays while a device has not read the file naming it, and while another device's note names it",
        arguments: [FolderKind.plain, .encrypted])
    func referencedChunksStay(_ kind: FolderKind) async throws {
        let (folder, _, a, b) = try await TestFolder.memoryPair(kind)
        let first = try a.store.create(title: "first", body: "x\n")
        let (attachment, content) = try AttachmentSyncTests.attach(
            a, first.id, name: "x.bin", bytes: 1_500_000, seed: 42)
        await a.sync()
        let chunks = try folder.chunksPresent()
        #expect(chunks.count == 2)
        try a.store.detach(first.id, name: "x.bin")
        _ = try a.store.create(title: "later", body: "y\n")
        await a.sync()
        _ = try await a.engine.compact()
        Self.advance([a, b], by: CompactionTests.day + CompactionTests.minute)
        await a.sync()
        // B has not read the record naming the chunks: the log file stays, and so do they.
        let unread = try await a.engine.compact()
        #expect(unread.zones[Self.zone]?.waiting?.contains("have not read") == true, "\(unread)")
        #expect(unread.chunks?.deleted == 0)
        #expect(try folder.chunksPresent() == chunks)
        // B reads it (and the content with it), then names the same content in a note of its own.
        await b.sync()
        #expect(b.store.hasAttachmentContent(sha256: attachment.sha256))
        let second = try b.store.create(title: "second", body: "z\n")
        try b.store.attach(
            second.id, [NotesCore.Attachment(name: "copy.bin", size: attachment.size, sha256: attachment.sha256)])
        await CompactionTests.syncRound([b, a, b, a])
        _ = try await Self.compact([a, b])
        Self.advance([a, b], by: CompactionTests.day + CompactionTests.minute)
        _ = try a.store.create(title: "a again", body: "\n")
        _ = try b.store.update(second.id) { $0.body += "more\n" }
        await CompactionTests.syncRound([a, b, a, b])
        let acknowledged = try await Self.compact([a, b, a, b])
        #expect(acknowledged.allSatisfy { ($0.chunks?.deleted ?? 0) == 0 }, "\(acknowledged)")
        #expect(try folder.chunksPresent() == chunks, "another device's live note names them")
        let c = try TestDevice("c", folder: folder, clock: TestClock(a.clock.date.millisecondsSince1970))
        try await quiesce([a, b, c])
        #expect(try AttachmentSyncTests.content(c, attachment) == content)
        // Once B's note lets go too and every file naming them is gone, A (their writer) deletes them.
        try b.store.detach(second.id, name: "copy.bin")
        for _ in 0..<3 {
            _ = try a.store.create(title: "tick", body: "\n")
            await CompactionTests.syncRound([a, b, c, a, b, c])
            _ = try await Self.compact([a, b, c])
            Self.advance([a, b, c], by: CompactionTests.day + CompactionTests.minute)
        }
        await CompactionTests.syncRound([a, b, c, a, b, c])
        let last = try await Self.compact([b, c, a])
        #expect(try folder.chunksPresent().isEmpty, "\(last)")
    }

    @Test(
        "a chunk named by nothing waits a day; named again meanwhile (by a device that found it present), it stays",
        arguments: [FolderKind.plain, .encrypted])
    func namedAgainWithinTheGrace(_ kind: FolderKind) async throws {
        let (folder, _, a, b) = try await TestFolder.memoryPair(kind)
        let first = try a.store.create(title: "first", body: "")
        let (attachment, content) = try AttachmentSyncTests.attach(a, first.id, name: "x.bin", bytes: 60_000, seed: 45)
        await CompactionTests.syncRound([a, b])
        let chunks = try folder.chunksPresent()
        #expect(chunks.count == 1)
        try a.store.detach(first.id, name: "x.bin")
        // Until the log files naming the chunk are gone (a day after A's snapshot), it is named;
        // the first collection that finds it named by nothing keeps it.
        var marked: CompactionSummary?
        for _ in 0..<4 {
            _ = try a.store.create(title: "tick", body: "\n")
            await CompactionTests.syncRound([a, b, a, b])
            let summaries = try await Self.compact([a, b])
            #expect(summaries[0].chunks?.deleted == 0, "\(summaries)")
            if summaries[0].chunks?.unreferenced == 1 {
                marked = summaries[0]
                break
            }
            Self.advance([a, b], by: CompactionTests.day + CompactionTests.minute)
        }
        #expect(marked != nil, "no collection found the chunk named by nothing")
        #expect(try folder.chunksPresent() == chunks)
        // Within the day B, which holds the content, attaches it again: it finds the chunk
        // present and does not write it; its log file names it.
        let second = try b.store.create(title: "second", body: "")
        try b.store.attach(
            second.id, [NotesCore.Attachment(name: "y.bin", size: attachment.size, sha256: attachment.sha256)])
        await b.sync()
        Self.advance([a, b], by: CompactionTests.day + CompactionTests.minute)
        let kept = try await a.engine.compact()
        #expect(kept.chunks?.deleted == 0 && kept.chunks?.unreferenced == 0, "\(kept)")
        #expect(try folder.chunksPresent() == chunks)
        let c = try TestDevice("c", folder: folder, clock: TestClock(a.clock.date.millisecondsSince1970))
        try await quiesce([a, b, c])
        #expect(try AttachmentSyncTests.content(c, attachment) == content)
    }

    @Test(
        "a chunk gone while a record names it (the race under a lagging replica) is written again by a device holding the content",
        arguments: [FolderKind.plain, .encrypted])
    func missingChunkRestored(_ kind: FolderKind) async throws {
        let (folder, io, a, b) = try await TestFolder.memoryPair(kind)
        let first = try a.store.create(title: "first", body: "")
        let (attachment, content) = try AttachmentSyncTests.attach(
            a, first.id, name: "x.bin", bytes: 1_200_000, seed: 44)
        await a.sync()
        await b.sync()
        let second = try b.store.create(title: "second", body: "")
        try b.store.attach(
            second.id, [NotesCore.Attachment(name: "y.bin", size: attachment.size, sha256: attachment.sha256)])
        await b.sync()
        let chunkPaths = io.allPaths().filter { $0.contains("/private/assets/") && io.contents($0) != nil }
        #expect(chunkPaths.count == 2)
        for path in chunkPaths { try io.remove(path) }
        let c = try TestDevice("c", folder: folder)
        await c.sync()
        #expect(await c.engine.status.attachmentWaitingCount > 0)
        // A reads B's record, holds the content, and writes the missing chunks again.
        await a.sync()
        #expect(try folder.chunksPresent().count == 2)
        try await quiesce([a, b, c])
        #expect(await c.engine.status.attachmentWaitingCount == 0)
        #expect(try AttachmentSyncTests.content(c, attachment) == content)
    }

    @Test("a snapshot's history record goes without chunks (format 4); a head without them is refused")
    func historyWithoutChunks() async throws {
        let (folder, io) = TestFolder.memory()
        let a = try TestDevice("a", folder: folder)
        let note = try a.store.create(title: "h", body: "")
        _ = try AttachmentSyncTests.attach(a, note.id, name: "one.bin", bytes: 50, seed: 43)
        _ = try a.store.update(note.id) { $0.body = "edited\n" }
        await a.sync()
        var wired = folder
        wired.attachments = a.store
        let device = await a.engine.device
        let revisions = try a.store.snapshotRevisions(zone: "notes")
        let (state, _) = SnapshotContent.state(revisions, assets: wired, device: device)
        let records = try #require(state["revisions"]?.arrayValue)
        let withAttachments = records.filter { $0["fields"]?["attachments"] != nil }
        #expect(withAttachments.count == 2)
        #expect(withAttachments.filter { $0["attachmentChunks"] == nil }.count == 1)
        let snapshot = Snapshot(device: device, seq: 1, hlc: HLC(millis: 1), covers: ChangeToken(), state: state)
        _ = try folder.publishSnapshot(snapshot, zone: Self.zone)
        let files = io.allPaths().filter { $0.contains("/snapshots/") }.compactMap { io.contents($0) }
        #expect(files.map { String(decoding: $0, as: UTF8.self) }.contains { $0.contains("\"format\":4") })
        #expect(try SnapshotContent.revisions(state, assets: wired).records.count == records.count)
        // The head stripped of its chunks: the snapshot does not check out.
        let stripped = JSONValue.array(
            records.map { record in
                guard case .object(var object) = record, record["attachmentChunks"] != nil else { return record }
                object["attachmentChunks"] = nil
                return .object(object)
            })
        #expect(throws: CloudError.self) {
            try SnapshotContent.revisions(.object(["revisions": stripped]), assets: wired)
        }
    }

    @Test(
        "random attach, detach, edit, sync and compact on three devices: no chunk a file names is ever deleted, unnamed ones go"
    )
    func randomSequences() async throws {
        let seed = SeededRandom.seed(default: 0x6368_756E_6B73)
        var random = SeededRandom(seed: seed)
        let (folder, _, devices) = try CompactionTests.memoryDevices(3)
        try await quiesce(devices)
        // A small pool of contents: most are one chunk, one is two.
        var pool: [(URL, Int)] = []
        for (index, size) in [40, 3_000, 1_100_000, 700].enumerated() {
            let (url, _) = try AttachmentSyncTests.file(size, seed: seed &+ UInt64(index))
            pool.append((url, size))
        }
        defer { for (url, _) in pool { try? FileManager.default.removeItem(at: url) } }
        let names = ["a.bin", "b.bin", "c.bin"]
        var steps: [String] = []
        var collected = 0
        func check(_ step: Int) throws {
            let named = try #require(try folder.chunkNamesInFolder(), "seed \(seed) step \(step)")
            let present = try folder.chunksPresent()
            #expect(
                named.isSubset(of: present),
                "seed \(seed) step \(step): named but deleted: \(named.subtracting(present)); steps: \(steps)")
        }
        for step in 0..<80 {
            let device = devices[random.below(devices.count)]
            let notes = try device.store.list(ListRequest(section: .all, limit: 100)).map(\.id).sorted {
                $0.uuidString < $1.uuidString
            }
            switch random.below(7) {
            case 0 where !notes.isEmpty:
                let (url, _) = pool[random.below(pool.count)]
                let attachment = try device.store.addAttachmentContent(
                    fromFile: url.path, name: names[random.below(names.count)], maxBytes: 1 << 30)
                let id = notes[random.below(notes.count)]
                try device.store.attach(id, [attachment], replacing: true)
                steps.append("\(device.name) attach \(attachment.name)")
            case 1 where !notes.isEmpty:
                let id = notes[random.below(notes.count)]
                guard let name = try device.store.note(id)?.attachments.first?.name else { continue }
                try device.store.detach(id, name: name)
                steps.append("\(device.name) detach \(name)")
            case 2 where !notes.isEmpty:
                _ = try device.store.update(notes[random.below(notes.count)]) { $0.body += "\(step)\n" }
                steps.append("\(device.name) edit")
            case 3:
                _ = try device.store.create(title: "n\(step)", body: "\n")
                steps.append("\(device.name) create")
            case 4:
                let summary = try await device.engine.compact()
                collected += summary.chunks?.deleted ?? 0
                steps.append("\(device.name) compact (\(summary.chunks?.deleted ?? 0) chunks)")
            case 5:
                CompactionTests.advance(devices, by: Int64(random.below(30)) * 3_600_000)
                steps.append("hours pass")
            default:
                await device.sync()
                #expect(await device.engine.status.attachmentWaitingCount == 0, "seed \(seed) step \(step)")
                steps.append("\(device.name) sync")
            }
            try check(step)
        }
        try await quiesce(devices, label: "seed \(seed)")
        // Days of syncing and compacting, each device publishing something each day.
        for day in 0..<4 {
            for device in devices { _ = try device.store.create(title: "day \(day)", body: "\n") }
            await CompactionTests.syncRound(devices + devices)
            collected += try await Self.compact(devices).reduce(0) { $0 + ($1.chunks?.deleted ?? 0) }
            try check(1000 + day)
            CompactionTests.advance(devices, by: CompactionTests.day + CompactionTests.minute)
        }
        await CompactionTests.syncRound(devices + devices)
        _ = try await Self.compact(devices)
        let named = try #require(try folder.chunkNamesInFolder())
        let present = try folder.chunksPresent()
        #expect(collected > 0, "seed \(seed): the run collected nothing")
        #expect(present == named, "seed \(seed): unnamed chunks left: \(present.subtracting(named)); steps: \(steps)")
        // Every head's content is on every device.
        for device in devices {
            for summary in try device.store.list(ListRequest(section: .all, limit: 1000)) {
                for attachment in try device.store.note(summary.id)?.attachments ?? [] {
                    #expect(device.store.hasAttachmentContent(sha256: attachment.sha256), "seed \(seed) \(device.name)")
                }
            }
        }
    }
}
