import Foundation
import NotesCore
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
