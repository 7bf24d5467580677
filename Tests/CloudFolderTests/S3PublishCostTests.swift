import Foundation
import NotesCore
import Testing

@testable import CloudFolder

/// What a publication costs a bucket, and folders as S3 has them (SYNC-FORMAT "On S3"): a
/// folder is there while a key is under it, so creating one costs nothing and checking one is a
/// LIST; a write-once PUT says by itself whether the key was taken.
@Suite("S3 publication cost and folders (S3FileIO on SeaweedFS)")
struct S3PublishCostTests {
    let zone = Fixtures.zone
    let a = Fixtures.deviceA

    func prepared() async throws -> (DirectoryCloudFolder, S3FileIO) {
        let io = try await S3Fixture.io()
        let folder = DirectoryCloudFolder(root: "/", io: io)
        _ = try folder.createContainer(device: a, hlc: Fixtures.hlc)
        _ = try folder.createZone(ZoneInfo(zone: zone, displayName: "Notes", createdBy: a), hlc: Fixtures.hlc)
        return (folder, io)
    }

    /// The requests `body` sent, by method, and the requests themselves (for failure messages).
    func cost(_ io: S3FileIO, _ body: () throws -> Void) rethrows -> (counts: [String: Int], requests: [String]) {
        let before = io.requestCounts
        let seen = io.client.recentRequests.count
        try body()
        var counts = io.requestCounts
        for (method, n) in before { counts[method, default: 0] -= n }
        return (counts.filter { $0.value > 0 }, Array(io.client.recentRequests.dropFirst(seen)))
    }

    @Test("publishing one log file of one change costs three requests: the container's HEAD, the zone's LIST, one PUT")
    func oneLogFile() async throws {
        let (folder, io) = try await prepared()
        // A device's first file (new segment folder) and a later one cost the same: no folder
        // is made or checked but the zone's.
        for seq: Int64 in [1, 2] {
            var outcome: PublishOutcome?
            let spent = try cost(io) {
                outcome = try folder.publish(
                    Fixtures.batch([Int(seq)]), zone: zone, device: a, seq: seq, hlc: Fixtures.hlc)
            }
            #expect(outcome == .published)
            #expect(spent.counts == ["HEAD": 1, "LIST": 1, "PUT": 1], "seq \(seq): \(spent.counts) \(spent.requests)")
        }
        #expect(try folder.logHead(zone: zone, device: a, after: 0) == 2)
    }

    @Test(
        "a retry of a published file meets the PUT's 412 and reads it once: alreadyPublished; other bytes are refused")
    func retryIsOnePutAndOneGet() async throws {
        let (folder, io) = try await prepared()
        let batch = Fixtures.batch([1])
        _ = try folder.publish(batch, zone: zone, device: a, seq: 1, hlc: Fixtures.hlc)
        var outcome: PublishOutcome?
        let spent = try cost(io) {
            outcome = try folder.publish(batch, zone: zone, device: a, seq: 1, hlc: Fixtures.hlc)
        }
        #expect(outcome == .alreadyPublished)
        #expect(spent.counts == ["HEAD": 1, "LIST": 1, "PUT": 1, "GET": 1], "\(spent.counts) \(spent.requests)")
        do {
            _ = try folder.publish(Fixtures.batch([2]), zone: zone, device: a, seq: 1, hlc: Fixtures.hlc)
            Issue.record("different bytes were published over a write-once file")
        } catch let error as CloudError {
            #expect(error.code == .serverRecordChanged)
        }
        #expect(try folder.fetchChanges(zone: zone, since: .empty).batches.map(\.batch) == [batch])
    }

    @Test("a zone whose every key was deleted is gone: not listed, missing, not a folder (SeaweedFS keeps an entry)")
    func deletedZoneIsGone() async throws {
        let (folder, io) = try await prepared()
        let other = ZoneID("work")!
        _ = try folder.createZone(ZoneInfo(zone: other, displayName: "Work", createdBy: a), hlc: Fixtures.hlc)
        _ = try folder.publish(Fixtures.batch([1]), zone: zone, device: a, seq: 1, hlc: Fixtures.hlc)
        #expect(try folder.zones().items == [zone, other])
        // What a user deleting the zone does: every key under its prefix (this build writes no
        // folder markers, so the zone's files are all its keys).
        let zonePath = folder.layout.zoneDirectory(zone)
        let keys = try io.listFiles(under: zonePath, startAfter: "")
        #expect(keys.count == 2, "\(keys)")
        for key in keys { try io.remove(zonePath + "/" + key) }
        // SeaweedFS still lists a folder entry `notes/` here; S3 would not.
        print("zones/ listed after the deletion: \(try io.list(folder.layout.zonesDirectory).sorted())")
        #expect(try folder.zones().items == [other])
        #expect(try folder.zoneStatus(zone) == .missing)
        #expect(try io.kind(zonePath) == nil)
        #expect(try !io.isFolder(zonePath))
        do {
            _ = try folder.publish(Fixtures.batch([2]), zone: zone, device: a, seq: 2, hlc: Fixtures.hlc)
            Issue.record("a deleted zone was published to")
        } catch let error as CloudError {
            #expect(error.code == .zoneNotFound)
        }
    }

    @Test(
        "scoped to a pass, a bucket's folder asks for container.json once; creating a zone asks again; a disk asks always"
    )
    func containerCheckedOncePerPass() async throws {
        let (folder, io) = try await prepared()
        let pass = try #require(folder.scopedToOnePass() as? DirectoryCloudFolder)
        let first = try cost(io) { _ = try pass.zones() }
        let later = try cost(io) {
            _ = try pass.zones()
            _ = try pass.publish(Fixtures.batch([1]), zone: zone, device: a, seq: 1, hlc: Fixtures.hlc)
        }
        #expect(first.requests.filter { $0.contains("container.json") }.count == 1, "\(first.requests)")
        #expect(!later.requests.contains { $0.contains("container.json") }, "\(later.requests)")
        // The prefix emptied of its container during the pass: the pass's listings go on (the
        // next pass stops), but no zone is created in it, and a folder not scoped refuses at once.
        try io.remove(folder.layout.containerFile)
        #expect(try pass.zones().items == [zone])
        let other = ZoneInfo(zone: ZoneID("work")!, displayName: "Work", createdBy: a)
        #expect(throws: CloudError.self) { _ = try pass.createZone(other, hlc: Fixtures.hlc) }
        #expect(throws: CloudError.self) { _ = try folder.zones() }
        #expect(throws: CloudError.self) { _ = try folder.scopedToOnePass().zones() }
        // A folder on a disk is not scoped: a mount can go away between two calls.
        let disk = DirectoryCloudFolder(root: NSTemporaryDirectory() + "cn-scoped-\(UUID().uuidString)")
        try FileManager.default.createDirectory(atPath: disk.layout.root, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: disk.layout.root) }
        _ = try disk.createContainer(device: a, hlc: Fixtures.hlc)
        let diskPass = disk.scopedToOnePass()
        _ = try diskPass.zones()
        try FileManager.default.removeItem(atPath: disk.layout.containerFile)
        #expect(throws: CloudError.self) { _ = try diskPass.zones() }
    }

    @Test("in a pass, the fetch takes the listing the log-end check kept, but never one from before a write of ours")
    func keptListingIsDroppedByAWrite() async throws {
        let (folder, io) = try await prepared()
        _ = try folder.publish(Fixtures.batch([1]), zone: zone, device: a, seq: 1, hlc: Fixtures.hlc)
        let token = ChangeToken([a: 1])
        // The check then the fetch, nothing between: one listing of A's log.
        let pass = try #require(folder.scopedToOnePass() as? DirectoryCloudFolder)
        var fetched: FetchedChanges?
        let spent = try cost(io) {
            #expect(try pass.logHead(zone: zone, device: a, after: 0) == 1)
            fetched = try pass.fetchChanges(zone: zone, since: token, limit: FetchLimit(batches: 10))
        }
        #expect(fetched?.batches.isEmpty == true)
        #expect(spent.requests.filter { $0.contains("start-after=") }.count == 1, "\(spent.requests)")
        // A publication between them: the fetch lists again and finds seq 2.
        let next = try #require(folder.scopedToOnePass() as? DirectoryCloudFolder)
        #expect(try next.logHead(zone: zone, device: a, after: 0) == 1)
        _ = try next.publish(Fixtures.batch([2]), zone: zone, device: a, seq: 2, hlc: Fixtures.hlc)
        let after = try next.fetchChanges(zone: zone, since: token, limit: FetchLimit(batches: 10))
        #expect(after.batches.count == 1 && after.token[a] == 2)
    }
}
