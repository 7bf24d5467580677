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
        guard case .object(var json) = try ChangeRecord(Fixtures.revision(1)).json() else { return }
        json["rev"] = .string(String(repeating: "0", count: 64))
        #expect(throws: CloudError.self) { try ChangeRecord(json: .object(json)) }
    }

    @Test func aRecordFromAnInvalidDeviceIDIsRefused() throws {
        guard case .object(var json) = try ChangeRecord(Fixtures.revision(1)).json() else { return }
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
        // 5 records of ~600 KB: three fit in 2 MB, four do not.
        let revisions = (1...5).map { Fixtures.revision($0, bodyBytes: 600_000) }
        let plan = ChangeBatch.plan(revisions)
        #expect(plan.batches.map(\.records.count) == [3, 2])
        for batch in plan.batches {
            #expect(try batch.body().canonicalBytes.count <= ChangeBatch.maxBodyBytes)
        }
        #expect(plan.batches.flatMap(\.revisions) == revisions)
    }

    @Test func aBatchIsFilledUpTo2MBAndNotOneByteMore() throws {
        // Two records that make a body one byte under 2 MB, then one byte over.
        let probe = try ChangeRecord(Fixtures.revision(1, bodyBytes: 1000)).json().canonicalBytes.count
        let overhead = probe - 1000
        let each = (ChangeBatch.maxBodyBytes - 3) / 2 - overhead  // "[" + a + "," + b + "]"
        let exact = [Fixtures.revision(1, bodyBytes: each), Fixtures.revision(2, bodyBytes: each)]
        let size = try ChangeBatch(records: exact.map { ChangeRecord($0) }).body().canonicalBytes.count
        #expect(size == ChangeBatch.maxBodyBytes - ((ChangeBatch.maxBodyBytes - 3) % 2))
        #expect(ChangeBatch.plan(exact).batches.count == 1)
        let over = [Fixtures.revision(1, bodyBytes: each + 1), Fixtures.revision(2, bodyBytes: each + 1)]
        #expect(
            try ChangeBatch(records: over.map { ChangeRecord($0) }).body().canonicalBytes.count == ChangeBatch
                .maxBodyBytes + 1)
        #expect(ChangeBatch.plan(over).batches.count == 2)
    }

    @Test func aRecordOver1MBIsLimitExceededAndTheOthersStillGo() throws {
        let big = Fixtures.revision(2, bodyBytes: ChangeRecord.maxFieldsBytes)
        let plan = ChangeBatch.plan([Fixtures.revision(1), big, Fixtures.revision(3)])
        #expect(plan.batches.flatMap(\.revisions) == [Fixtures.revision(1), Fixtures.revision(3)])
        #expect(plan.rejected.count == 1)
        #expect(plan.rejected.first?.revision == big)
        #expect(plan.rejected.first?.error.code == .limitExceeded)
        #expect(plan.rejected.first?.error.message.contains("stays on this device") == true)
        #expect(throws: CloudError.self) { try ChangeRecord(big).json() }
    }

    @Test func aRecordOfExactly1MBOfFieldsIsAccepted() throws {
        let probe = Fixtures.revision(1, bodyBytes: 1000).fields!.json.canonicalBytes.count
        let exact = Fixtures.revision(1, bodyBytes: 1000 + ChangeRecord.maxFieldsBytes - probe)
        #expect(exact.fields!.json.canonicalBytes.count == ChangeRecord.maxFieldsBytes)
        #expect(ChangeBatch.plan([exact]).rejected.isEmpty)
    }

    @Test func aBodyOfMoreThan400RecordsDoesNotDecode() throws {
        let body = try ChangeBatch(records: (1...401).map { ChangeRecord(Fixtures.revision($0)) }).body()
        #expect(throws: CloudError.self) { try ChangeBatch(body: body) }
    }
}
