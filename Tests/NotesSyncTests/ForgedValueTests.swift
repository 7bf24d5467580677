import CloudFolder
import Foundation
import NotesCore
import NotesStore
import NotesSync
import Testing

/// Well-formed records whose values are outside their ranges (SYNC-FORMAT "HLC range" and
/// "Bodies"): each is refused with a warning naming its file, the rest of the file is applied,
/// and nothing traps, on this sync or any later one.
@Suite("Forged values in the cloud folder are refused, not trapped on")
struct ForgedValueTests {
    static let forger = DeviceID("cccccccccccccccc")!

    /// The JSON of a record exactly as a writer would put it, without the writer's range checks.
    static func record(_ revision: Revision, hlcText: String? = nil) -> JSONValue {
        var object: [String: JSONValue] = [
            "recordID": .string(revision.recordID.lowercasedString), "recordType": .string("Note"),
            "rev": .string(revision.id), "parents": .array(revision.parents.map(JSONValue.string)),
            "hlc": .string(hlcText ?? revision.hlc.description), "device": .string(revision.device),
        ]
        object["fields"] = revision.fields?.json
        return .object(object)
    }

    static func fields(_ title: String, createdAt: Int64 = 1_700_000_000_000) -> RevisionFields {
        var fields = RevisionFields(note: Note(title: title, body: "body of \(title)\n"))
        fields.createdAt = createdAt
        fields.modifiedAt = 1_700_000_000_000
        return fields
    }

    /// Plants `records` as log file 1 of the forger in zone `notes`, with a valid envelope.
    static func plant(_ records: [JSONValue], in folder: DirectoryCloudFolder, _ io: InMemoryFileIO) {
        let envelope = Envelope(
            kind: .changes, zone: "notes", device: forger.rawValue, seq: 1, hlc: HLC(millis: 1_700_000_000_000),
            body: .array(records))
        let zone = ZoneID("notes")!
        io.plantDirectory(folder.layout.deviceLogDirectory(zone, device: forger))
        io.plantDirectory(folder.layout.segmentDirectory(zone, device: forger, seq: 1))
        io.plantFile(folder.layout.logFile(zone, device: forger, seq: 1), envelope.encoded)
    }

    static func revision(_ fields: RevisionFields, hlc: HLC = HLC(millis: 1_700_000_000_000)) -> Revision {
        Revision(recordID: UUID(), parents: [], fields: fields, hlc: hlc, device: forger.rawValue)
    }

    @Test(
        "createdAt Int64.max and Int64.min: refused with the file named, the good record applied, every sync",
        arguments: [Int64.max, Int64.min, 253_402_300_800_000])
    func forgedTimestamp(createdAt: Int64) async throws {
        let (folder, io, a, _) = try await TestFolder.memoryPair()
        let forged = Self.revision(Self.fields("forged", createdAt: createdAt))
        let good = Self.revision(Self.fields("good"))
        Self.plant([Self.record(forged), Self.record(good)], in: folder, io)
        for _ in 0..<2 {
            await a.sync()
            let warnings = await a.engine.warnings
            #expect(
                warnings.contains {
                    $0.contains("log/\(Self.forger)/000000000000/000000000001.json")
                        && $0.contains("createdAt \(createdAt) is out of range")
                }, "\(warnings)")
        }
        #expect(try a.store.note(good.recordID)?.title == "good")
        #expect(try a.store.note(forged.recordID) == nil)
        // Listing and printing dates work (they trapped on Int64.min).
        for summary in try a.store.list(ListRequest(section: .all, limit: 100)) {
            _ = ISODate.string(summary.modifiedAt)
        }
    }

    @Test("a stamp past 2^47 ms is refused; snapshots never carry a negative stamp; a new device receives everything")
    func forgedStamp() async throws {
        let (folder, io, a, _) = try await TestFolder.memoryPair()
        let forged = Self.revision(Self.fields("forged"), hlc: HLC(millis: 1_700_000_000_000))
        let good = Self.revision(Self.fields("good"))
        Self.plant([Self.record(forged, hlcText: "9999999999999999-ffff"), Self.record(good)], in: folder, io)
        _ = try a.store.create(title: "mine", body: "x\n")
        await a.sync()
        let warnings = await a.engine.warnings
        #expect(warnings.contains { $0.contains("hlc 9999999999999999-ffff is out of range") }, "\(warnings)")
        #expect(try a.store.note(forged.recordID) == nil)
        #expect(try a.store.note(good.recordID)?.title == "good")
        // Every stamp a snapshot would carry reads back.
        for revision in try a.store.snapshotRevisions(zone: "notes") {
            #expect(revision.hlc.packed >= 0)
            #expect(HLC(revision.hlc.description) == revision.hlc)
        }
        // A fresh device gets a's notes and the good forged one.
        let c = try TestDevice("c", folder: folder)
        await c.sync()
        #expect(try c.store.note(good.recordID)?.title == "good")
        #expect(try c.store.list(ListRequest(section: .all, limit: 100)).contains { $0.title == "mine" })
    }

    @Test("a change token or device file seq beyond 12 digits is refused, never incremented into a trap")
    func forgedCounts() throws {
        let device = Self.forger.rawValue
        #expect(throws: CloudError.self) { try ChangeToken(json: .object([device: .int(Int64.max)])) }
        #expect(try ChangeToken(json: .object([device: .int(CloudLayout.maxSeq)]))[Self.forger] == CloudLayout.maxSeq)
        let lastSeen: JSONValue = .object([
            "name": .string("x"), "lastSeen": .int(Int64.min), "acknowledged": .object([:]),
        ])
        #expect(throws: CloudError.self) { try DeviceInfo(json: lastSeen) }
        let envelope = Envelope(
            kind: .changes, zone: "notes", device: device, seq: Int64.max, hlc: .zero, body: .array([]))
        #expect(Envelope.verify(envelope.encoded, expecting: .init(kind: .changes, zone: "notes")) != .valid(envelope))
    }

    @Test("the HLC range: parsing refuses past it, clamping and saturation keep every stamp printable")
    func hlcRange() {
        #expect(HLC("9999999999999999-ffff") == nil)
        #expect(HLC.parse("9999999999999999-ffff") == .outOfRange)
        #expect(HLC.parse("-000000000000001-0000") == .malformed)
        #expect(HLC.parse("+000000000000001-0000") == .malformed)
        let top = HLC("\(HLC.maxMillis)".count == 15 ? "0\(HLC.maxMillis)-ffff" : "")
        #expect(top?.packed == Int64.max)
        #expect(HLC(millis: Int64.max).millis == HLC.maxMillis)
        #expect(HLC(millis: -5).millis == 0)
        // A damaged store row (a stamp an older build wrapped negative) reads as a valid stamp.
        #expect(HLC(packed: -133_099_161_583_617 << 16).packed >= 0)
        var clock = HybridLogicalClock(last: HLC(millis: HLC.maxMillis, counter: .max))
        let next = clock.tick(now: Int64.max)
        #expect(next >= HLC(millis: HLC.maxMillis, counter: .max))
        #expect(HLC(next.description) == next)
        #expect(clock.receive(HLC(millis: HLC.maxMillis), now: Int64.min) == false)
    }
}
