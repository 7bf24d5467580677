import Foundation
import NotesCore
import NotesTestSupport
import Testing

@testable import CloudFolder

@Suite struct ChangeBatchTests {
    @Test func aRecordRoundTripsWithItsRevisionID() throws {
        let revision = Fixtures.revision(1)
        let tombstone = Fixtures.tombstone(1, parent: revision.id)
        for original in [revision, tombstone] {
            let json = try ChangeRecord(original).json()
            let decoded = try ChangeRecord(json: json)
            #expect(decoded.revision == original)
            #expect(decoded.recordType == "Note")
        }
        #expect(try ChangeRecord(tombstone).json()["deleted"] == .bool(true))
        #expect(try ChangeRecord(tombstone).json()["fields"] == nil)
    }

    @Test func aRecordWhoseRevDoesNotMatchItsContentIsRefused() throws {
        guard case .object(var json) = try ChangeRecord(Fixtures.revision(1)).json() else {
            Issue.record("the record is not a JSON object")
            return
        }
        json["rev"] = .string(String(repeating: "0", count: 64))
        #expect(throws: CloudError.self) { try ChangeRecord(json: .object(json)) }
    }

    @Test func aRecordFromAnInvalidDeviceIDIsRefused() throws {
        guard case .object(var json) = try ChangeRecord(Fixtures.revision(1)).json() else {
            Issue.record("the record is not a JSON object")
            return
        }
        json["device"] = .string("../../etc")
        #expect(throws: CloudError.self) { try ChangeRecord(json: .object(json)) }
    }

    @Test func aBatchBodyRoundTrips() throws {
        let batch = Fixtures.batch([1, 2, 3])
        #expect(try ChangeBatch(body: batch.body()) == batch)
    }

    @Test func revisionsSplitIntoBatchesOfAtMost400Records() throws {
        let revisions = (1...801).map { Fixtures.revision($0) }
        let plan = ChangeBatch.plan(revisions)
        #expect(plan.batches.map(\.records.count) == [400, 400, 1])
        #expect(plan.batches.flatMap(\.revisions) == revisions)
        #expect(plan.rejected.isEmpty)
    }

    @Test func revisionsSplitIntoBatchesOfAtMost2MB() throws {
        // 12 records of ~250 KB (inline, under rule 15's 256 KB): eight fit in 2 MB, nine do not.
        let revisions = (1...12).map { Fixtures.revision($0, bodyBytes: 250_000) }
        let plan = ChangeBatch.plan(revisions)
        #expect(plan.batches.map(\.records.count) == [8, 4])
        for batch in plan.batches {
            #expect(try batch.body().canonicalBytes.count <= ChangeBatch.maxBodyBytes)
        }
        #expect(plan.batches.flatMap(\.revisions) == revisions)
    }

    @Test func aBatchIsFilledUpTo2MBAndNotOneByteMore() throws {
        // Eight records that make a body one byte under 2 MB, then one byte over (each stays
        // under the 256 KB inline size of rule 15).
        let probe = try ChangeRecord(Fixtures.revision(1, bodyBytes: 1000)).json().canonicalBytes.count
        let overhead = probe - 1000
        let count = 8
        let each = (ChangeBatch.maxBodyBytes - 1 - count) / count - overhead  // "[" + records + commas + "]"
        let exact = (1...count).map { Fixtures.revision($0, bodyBytes: each) }
        let size = try ChangeBatch(records: exact.map { ChangeRecord($0) }).body().canonicalBytes.count
        #expect(size == ChangeBatch.maxBodyBytes - ((ChangeBatch.maxBodyBytes - 1 - count) % count))
        #expect(ChangeBatch.plan(exact).batches.count == 1)
        let spare = ChangeBatch.maxBodyBytes - size
        var over = exact
        over[0] = Fixtures.revision(1, bodyBytes: each + spare + 1)
        #expect(
            try ChangeBatch(records: over.map { ChangeRecord($0) }).body().canonicalBytes.count == ChangeBatch
                .maxBodyBytes + 1)
        #expect(ChangeBatch.plan(over).batches.count == 2)
    }

    static let limit = 1_048_576

    @Test func aRecordOverTheLimitIsLimitExceededAndTheOthersStillGo() throws {
        let big = Fixtures.revision(2, bodyBytes: Self.limit)
        let plan = ChangeBatch.plan([Fixtures.revision(1), big, Fixtures.revision(3)], maxRecordBytes: Self.limit)
        #expect(plan.batches.flatMap(\.revisions) == [Fixtures.revision(1), Fixtures.revision(3)])
        #expect(plan.rejected.count == 1)
        #expect(plan.rejected.first?.revision == big)
        #expect(plan.rejected.first?.error.code == .limitExceeded)
        #expect(plan.rejected.first?.error.message.contains("over the 1 MB limit, so it stays on this device") == true)
        #expect(throws: CloudError.self) { try ChangeRecord(big).json(maxBytes: Self.limit) }
    }

    @Test func aRecordOfExactlyTheLimitIsAcceptedAndTravelsAsAnAssetReference() throws {
        let probe = Fixtures.revision(1, bodyBytes: 1000).fields!.json.canonicalBytes.count
        let exact = Fixtures.revision(1, bodyBytes: 1000 + Self.limit - probe)
        #expect(exact.fields!.json.canonicalBytes.count == Self.limit)
        let plan = ChangeBatch.plan([exact], maxRecordBytes: Self.limit)
        #expect(plan.rejected.isEmpty)
        // Over the inline size the plan counts the reference, not the megabyte (rule 15).
        #expect(try plan.batches[0].records[0].json(estimating: true).canonicalBytes.count < 2000)
    }

    @Test func aBodyOfMoreThan400RecordsDoesNotDecode() throws {
        let body = try ChangeBatch(records: (1...401).map { ChangeRecord(Fixtures.revision($0)) }).body()
        #expect(throws: CloudError.self) { try ChangeBatch(body: body) }
    }
}

/// Records encoded once where the engine reads ahead (`ChangeRecord.encodedOnce`, D-226) plan
/// and publish exactly as records encoded at publication: the same batches and the same log
/// file bytes, for deletions, front matter (format 3), fields past the inline size (an asset,
/// never encoded ahead) and attachments (never encoded ahead), with a record limit that refuses
/// some of them (seeded).
@Suite struct EncodedOnceTests {
    static func revisions(_ count: Int, seed: UInt64) -> [Revision] {
        var rng = SeededRandom(seed: seed)
        return (1...count).map { n in
            let id = UUID(uuidString: String(format: "00000000-0000-4000-8000-%012d", n))!
            let hlc = HLC(millis: 1_700_000_000_000 + Int64(n))
            switch rng.below(6) {
            case 0:
                return Revision(
                    recordID: id, parents: ["p\(n)"], fields: nil, hlc: hlc, device: Fixtures.deviceA.rawValue)
            default:
                let sizes = [0, 20, 3_000, 3_000, 3_000, 3_000, 3_000, 300_000]
                let note = Note(
                    id: id, title: "note \(n) \"é\"\n",
                    body: String(repeating: "line\t\u{1}\n", count: sizes[rng.below(sizes.count)] / 7),
                    tags: rng.below(2) == 0 ? [] : ["t", "ü"],
                    createdAt: Date(millisecondsSince1970: 1_700_000_000_000),
                    frontMatter: rng.below(4) == 0 ? #"{"aliases":["x"]}"# : nil,
                    attachments: rng.below(5) == 0
                        ? [Attachment(name: "a.png", size: 3, sha256: String(repeating: "ab", count: 32))] : [])
                return Revision(
                    recordID: id, parents: [], fields: RevisionFields(note: note), hlc: hlc,
                    device: Fixtures.deviceA.rawValue)
            }
        }
    }

    @Test func plansAndBodiesAreTheSameEncodedAheadOrNot() throws {
        let seed = SeededRandom.seed(default: 2260)
        let revisions = Self.revisions(450, seed: seed)
        let records = revisions.map { ChangeRecord($0).encodedOnce() }
        #expect(records.contains { $0.encoded != nil } && records.contains { $0.encoded == nil }, "seed \(seed)")
        for record in records where record.encoded != nil {
            let fields = record.revision.fields
            #expect(fields?.attachments.isEmpty ?? true, "seed \(seed)")
            #expect(record.encoded?.bytes == (try record.json(estimating: true).canonicalBytes), "seed \(seed)")
            #expect(record.encoded?.bytes == (try record.json().canonicalBytes), "seed \(seed)")
        }
        for limit in [ChangeRecord.maxFieldsBytes, 2_000] {
            let plain = ChangeBatch.plan(revisions, maxRecordBytes: limit)
            let ahead = ChangeBatch.plan(records, maxRecordBytes: limit)
            #expect(plain.batches == ahead.batches, "seed \(seed), limit \(limit)")
            #expect(plain.rejected.map(\.revision) == ahead.rejected.map(\.revision), "seed \(seed), limit \(limit)")
            // And batches of encoded records only, whose bodies are put together from them.
            let onlyEncoded = records.filter { $0.encoded != nil && $0.encoded!.fieldsBytes <= limit }
            let batches =
                zip(plain.batches, ahead.batches) + [
                    (
                        ChangeBatch(records: onlyEncoded.prefix(60).map { ChangeRecord($0.revision) }),
                        ChangeBatch(records: Array(onlyEncoded.prefix(60)))
                    )
                ]
            var compared = 0
            for (batch, encoded) in batches {
                guard let body = encoded.encodedBody() else { continue }
                compared += 1
                let json = try batch.body()
                #expect(body.bytes == json.canonicalBytes, "seed \(seed)")
                #expect(body.needsFormat3 == (json.arrayValue ?? []).contains(where: ChangeRecord.needsFormat3))
            }
            #expect(compared > 0, "seed \(seed)")
        }
    }

    @Test func aLogFileIsTheSameEncodedAheadOrNot() throws {
        let seed = SeededRandom.seed(default: 2261)
        let all = Self.revisions(120, seed: seed).filter { $0.fields?.attachments.isEmpty ?? true }
        // Batches of records that are all encoded ahead (their bytes make the body), then mixed
        // with fields past the inline size (the body is encoded at publication).
        let plain = all.filter { ChangeRecord($0).encodedOnce().encoded != nil }
        #expect(plain.contains { $0.fields?.frontMatter != nil } && plain.contains { $0.fields == nil }, "seed \(seed)")
        for revisions in [plain, all] {
            var files: [[UInt8]] = []
            for ahead in [false, true] {
                let fixture = FolderFixture(.memory)
                let folder = try fixture.prepared()
                let records = revisions.map { ahead ? ChangeRecord($0).encodedOnce() : ChangeRecord($0) }
                var seq: Int64 = 0
                for batch in ChangeBatch.plan(records).batches {
                    seq += 1
                    _ = try folder.publish(
                        batch, zone: Fixtures.zone, device: Fixtures.deviceA, seq: seq, hlc: Fixtures.hlc)
                }
                files.append(
                    fixture.memory!.allPaths().filter { $0.contains("/log/") }.sorted().flatMap {
                        fixture.memory!.contents($0) ?? []
                    })
            }
            #expect(!files[0].isEmpty)
            #expect(files[0] == files[1], "seed \(seed)")
        }
    }
}
