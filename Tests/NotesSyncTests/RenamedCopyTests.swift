import CloudFolder
import Foundation
import NotesCore
import NotesStore
import NotesSync
import Testing

/// Replicators' renamed copies (SYNC-FORMAT rule 9) are found by every fetch, not only by
/// `--repair`, and a copy that differs from the file it copies is a clone (rule 10).
@Suite("Renamed copies on every fetch")
struct RenamedCopyTests {
    @Test(
        "another writer's batch kept as a conflicted copy: a plain sync ingests it; the owner of the id rotates",
        arguments: [
            "000000000001.sync-conflict-20240101-120000-ABCDEFG.json", "000000000001 (conflicted copy).json",
            "000000000001_conflict-20240101-120000.json",
        ])
    func copyIngested(name: String) async throws {
        let (folder, io, a, b) = try await TestFolder.memoryPair()
        _ = try a.store.create(title: "original", body: "1\n")
        await a.sync()
        let zone = ZoneID("notes")!
        let owner = try #require(DeviceID(a.store.deviceID))
        // What a copy of a's data directory wrote at the same seq, which the replicator renamed.
        let clone = Revision(
            recordID: UUID(), parents: [], fields: RevisionFields(note: Note(title: "from the clone", body: "2\n")),
            hlc: HLC(millis: 1_700_000_000_500), device: owner.rawValue)
        let envelope = Envelope(
            kind: .changes, zone: "notes", device: owner.rawValue, seq: 1, hlc: clone.hlc,
            body: try ChangeBatch(records: [ChangeRecord(clone)]).body())
        let segment = folder.layout.segmentDirectory(zone, device: owner, seq: 1)
        io.plantFile(segment + "/" + name, envelope.encoded)
        await b.sync()
        #expect(try b.store.note(clone.recordID)?.title == "from the clone")
        await a.sync()
        #expect(await a.engine.device != owner)
        #expect(try a.store.note(clone.recordID)?.title == "from the clone")
        try await quiesce([a, b])
    }

    @Test("an identical copy of a device's own file is a harmless duplicate: no rotation")
    func identicalCopy() async throws {
        let (folder, io, a, b) = try await TestFolder.memoryPair()
        _ = try a.store.create(title: "original", body: "1\n")
        await a.sync()
        let zone = ZoneID("notes")!
        let owner = try #require(DeviceID(a.store.deviceID))
        let path = folder.layout.logFile(zone, device: owner, seq: 1)
        io.plantFile(path.replacingOccurrences(of: ".json", with: " 2.json"), try #require(io.contents(path)))
        await a.sync()
        await b.sync()
        #expect(await a.engine.device == owner)
        try await quiesce([a, b])
    }

    @Test("a torn conflicted copy of a log file is named in a warning, applies nothing and stops nothing")
    func tornCopyReported() async throws {
        let (folder, io, a, b) = try await TestFolder.memoryPair()
        let note = try a.store.create(title: "original", body: "1\n")
        await a.sync()
        let owner = try #require(DeviceID(a.store.deviceID))
        let path = folder.layout.logFile(ZoneID("notes")!, device: owner, seq: 1)
        let copy = path.replacingOccurrences(of: ".json", with: ".sync-conflict-20240101-120000-ABCDEFG.json")
        let bytes = try #require(io.contents(path))
        io.plantFile(copy, Array(bytes.prefix(bytes.count / 2)))
        await b.sync()
        let warnings = await b.engine.warnings
        #expect(
            warnings.contains { $0.contains(copy) && $0.contains("renamed copy that does not check out") },
            "\(warnings)")
        #expect(try b.store.note(note.id)?.body == "1\n")
        #expect(await a.engine.device == owner)
        try await quiesce([a, b])
    }
}
