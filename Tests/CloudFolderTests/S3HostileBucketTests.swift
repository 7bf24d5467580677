import Foundation
import NotesCore
import Testing

@testable import CloudFolder

/// SYNC-FORMAT rule 9 over a bucket: objects under our prefix that are not ours, and truncated
/// objects, are reported and skipped as in a folder, never applied and never a crash.
@Suite("A hostile bucket (S3FileIO on SeaweedFS)")
struct S3HostileBucketTests {
    let zone = Fixtures.zone
    let a = Fixtures.deviceA
    let b = Fixtures.deviceB

    func prepared() async throws -> DirectoryCloudFolder {
        let io = try await S3Fixture.io()
        let folder = DirectoryCloudFolder(root: "/", io: io)
        _ = try folder.createContainer(device: a, hlc: Fixtures.hlc)
        _ = try folder.createZone(
            ZoneInfo(zone: zone, displayName: "Notes", createdBy: a), hlc: Fixtures.hlc)
        return folder
    }

    @Test("objects that are not ours are ignored and counted, never an error")
    func foreignObjects() async throws {
        let folder = try await prepared()
        _ = try folder.publish(Fixtures.batch([1]), zone: zone, device: a, seq: 1, hlc: Fixtures.hlc)
        let junk = ["notes.txt", "UPPERCASE.json"]
        for name in junk {
            try folder.io.writeAtomically(
                Array("junk".utf8), to: folder.layout.logDirectory(zone) + "/" + name, device: b)
            try folder.io.writeAtomically(Array("junk".utf8), to: folder.layout.zonesDirectory + "/" + name, device: b)
        }
        let fetched = try folder.fetchChanges(zone: zone, since: .empty)
        #expect(fetched.batches.map(\.seq) == [1])
        #expect(fetched.ignored.sorted() == junk.map { "log/" + $0 }.sorted())
        #expect(try folder.zones() == Listing(items: [zone], ignored: junk.sorted()))
    }

    @Test("a truncated or foreign object at a log key is reported as not arrived and not applied")
    func truncatedObjects() async throws {
        let folder = try await prepared()
        _ = try folder.publish(Fixtures.batch([1]), zone: zone, device: b, seq: 1, hlc: Fixtures.hlc)
        let whole = Envelope(
            kind: .changes, zone: zone.rawValue, device: b.rawValue, seq: 2, hlc: Fixtures.hlc,
            body: try Fixtures.batch([2]).body()
        ).encoded
        try folder.io.writeAtomically(
            Array(whole.prefix(whole.count / 2)), to: folder.layout.logFile(zone, device: b, seq: 2), device: b)
        try folder.io.writeAtomically(
            Array("not an envelope".utf8), to: folder.layout.logFile(zone, device: a, seq: 1), device: b)
        let fetched = try folder.fetchChanges(zone: zone, since: .empty)
        #expect(fetched.batches.map(\.seq) == [1])
        #expect(fetched.token[b] == 1)
        #expect(fetched.token[a] == 0)
        #expect(Set(fetched.notArrived.map(\.seq)) == [1, 2])
    }
}
