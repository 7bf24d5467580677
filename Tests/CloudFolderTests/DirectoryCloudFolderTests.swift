import Foundation
import Glibc
import NotesCore
import Testing

@testable import CloudFolder

/// Publication and fetch scenarios, each against the in-memory twin and a real temp directory.
@Suite struct DirectoryCloudFolderTests {
    let zone = Fixtures.zone
    let a = Fixtures.deviceA
    let b = Fixtures.deviceB

    @Test(arguments: Backend.allCases)
    func publishedBatchesAreFetchedFromAnEmptyToken(backend: Backend) throws {
        let fixture = FolderFixture(backend)
        let folder = try fixture.prepared()
        for seq in 1...3 {
            #expect(
                try folder.publish(Fixtures.batch([seq]), zone: zone, device: a, seq: Int64(seq), hlc: Fixtures.hlc)
                    == .published)
        }
        #expect(
            try folder.publish(Fixtures.batch([10, 11]), zone: zone, device: b, seq: 1, hlc: Fixtures.hlc) == .published
        )

        let fetched = try folder.fetchChanges(zone: zone, since: .empty)
        #expect(fetched.batches.map { "\($0.device):\($0.seq)" } == ["\(a):1", "\(a):2", "\(a):3", "\(b):1"])
        #expect(
            fetched.batches.map(\.batch) == [
                Fixtures.batch([1]), Fixtures.batch([2]), Fixtures.batch([3]), Fixtures.batch([10, 11]),
            ])
        #expect(fetched.token == ChangeToken([a: 3, b: 1]))
        #expect(fetched.notArrived.isEmpty && fetched.ignored.isEmpty && !fetched.moreComing)
        #expect(fixture.allPaths().contains("private/zones/notes/log/aaaaaaaaaaaaaaaa/000000000000/000000000003.json"))
    }

    @Test(arguments: Backend.allCases)
    func aMidTokenFetchesOnlyWhatCameAfterIt(backend: Backend) throws {
        let folder = try FolderFixture(backend).prepared()
        for seq in 1...4 {
            _ = try folder.publish(Fixtures.batch([seq]), zone: zone, device: a, seq: Int64(seq), hlc: Fixtures.hlc)
        }
        let fetched = try folder.fetchChanges(zone: zone, since: ChangeToken([a: 2]))
        #expect(fetched.batches.map(\.seq) == [3, 4])
        #expect(fetched.token == ChangeToken([a: 4]))
        let nothing = try folder.fetchChanges(zone: zone, since: fetched.token)
        #expect(nothing.batches.isEmpty)
        #expect(nothing.token == fetched.token)
    }

    @Test(arguments: Backend.allCases)
    func aFetchCrossesSegmentFolders(backend: Backend) throws {
        let folder = try FolderFixture(backend).prepared()
        for seq: Int64 in [1022, 1023, 1024, 1025] {
            _ = try folder.publish(Fixtures.batch([Int(seq)]), zone: zone, device: a, seq: seq, hlc: Fixtures.hlc)
        }
        let fetched = try folder.fetchChanges(zone: zone, since: ChangeToken([a: 1021]))
        #expect(fetched.batches.map(\.seq) == [1022, 1023, 1024, 1025])
        #expect(folder.layout.logFile(zone, device: a, seq: 1024).hasSuffix("/000000000001/000000001024.json"))
    }

    @Test(arguments: Backend.allCases)
    func aGapIsWaitedForNeverSkipped(backend: Backend) throws {
        let fixture = FolderFixture(backend)
        let folder = try fixture.prepared()
        _ = try folder.publish(Fixtures.batch([1]), zone: zone, device: a, seq: 1, hlc: Fixtures.hlc)
        _ = try folder.publish(Fixtures.batch([3]), zone: zone, device: a, seq: 3, hlc: Fixtures.hlc)
        // Device b's first batch has not arrived, its second has.
        _ = try folder.publish(Fixtures.batch([8]), zone: zone, device: b, seq: 2, hlc: Fixtures.hlc)
        let first = try folder.fetchChanges(zone: zone, since: .empty)
        #expect(first.batches.map(\.seq) == [1])
        #expect(first.token == ChangeToken([a: 1]))
        #expect(first.notArrived.isEmpty)

        _ = try folder.publish(Fixtures.batch([2]), zone: zone, device: a, seq: 2, hlc: Fixtures.hlc)
        let second = try folder.fetchChanges(zone: zone, since: first.token)
        #expect(second.batches.map(\.seq) == [2, 3])
        #expect(second.token == ChangeToken([a: 3]))
    }

    @Test(arguments: Backend.allCases)
    func aCorruptFileStopsItsDevicesStreamAndIsCounted(backend: Backend) throws {
        let fixture = FolderFixture(backend)
        let folder = try fixture.prepared()
        _ = try folder.publish(Fixtures.batch([1]), zone: zone, device: a, seq: 1, hlc: Fixtures.hlc)
        // seq 2 of device a arrives torn (half replicated), seq 3 is fine; device b is fine.
        let torn = Envelope(
            kind: .changes, zone: zone.rawValue, device: a.rawValue, seq: 2, hlc: Fixtures.hlc,
            body: try Fixtures.batch([2]).body()
        ).encoded
        try fixture.plant(fixture.layout.logFile(zone, device: a, seq: 2), Array(torn.prefix(torn.count / 2)))
        _ = try folder.publish(Fixtures.batch([3]), zone: zone, device: a, seq: 3, hlc: Fixtures.hlc)
        _ = try folder.publish(Fixtures.batch([9]), zone: zone, device: b, seq: 1, hlc: Fixtures.hlc)

        let fetched = try folder.fetchChanges(zone: zone, since: .empty)
        #expect(fetched.batches.map { "\($0.device):\($0.seq)" } == ["\(a):1", "\(b):1"])
        #expect(fetched.token == ChangeToken([a: 1, b: 1]))
        #expect(fetched.notArrived.map(\.seq) == [2])
        #expect(fetched.notArrived.first?.device == a)
        // The torn file is never deleted or overwritten: publishing seq 2 again is refused.
        #expect(fixture.contents(fixture.layout.logFile(zone, device: a, seq: 2)) == Array(torn.prefix(torn.count / 2)))
        #expect(throws: CloudError.self) {
            try folder.publish(Fixtures.batch([2]), zone: zone, device: a, seq: 2, hlc: Fixtures.hlc)
        }

        // Once the whole file arrives, the stream continues.
        try? FileManager.default.removeItem(atPath: fixture.layout.logFile(zone, device: a, seq: 2))
        fixture.memory?.plantFile(fixture.layout.logFile(zone, device: a, seq: 2), torn)
        if fixture.memory == nil { try fixture.plant(fixture.layout.logFile(zone, device: a, seq: 2), torn) }
        let later = try folder.fetchChanges(zone: zone, since: fetched.token)
        #expect(later.batches.map(\.seq) == [2, 3])
        #expect(later.notArrived.isEmpty)
    }

    @Test func anUnreadableFileStopsOnlyItsDevicesStreamAndAnUnmountedFolderStopsTheFetch() throws {
        let fixture = FolderFixture(.memory)
        let folder = try fixture.prepared()
        let io = try #require(fixture.memory)
        _ = try folder.publish(Fixtures.batch([1]), zone: zone, device: a, seq: 1, hlc: Fixtures.hlc)
        _ = try folder.publish(Fixtures.batch([9]), zone: zone, device: b, seq: 1, hlc: Fixtures.hlc)
        io.fail(.read, errno: EIO, pathContains: "/\(a)/")
        let fetched = try folder.fetchChanges(zone: zone, since: .empty)
        #expect(fetched.token == ChangeToken([b: 1]))
        #expect(fetched.notArrived.map(\.device) == [a])

        io.fail(.read, errno: ENOTCONN, pathContains: "/\(a)/")
        #expect {
            try folder.fetchChanges(zone: zone, since: .empty)
        } throws: { ($0 as? CloudError)?.code == .networkUnavailable }
    }

    @Test(arguments: Backend.allCases)
    func republishingIdenticalBytesIsHarmlessAndDifferentBytesAreRefused(backend: Backend) throws {
        let fixture = FolderFixture(backend)
        let folder = try fixture.prepared()
        #expect(try folder.publish(Fixtures.batch([1]), zone: zone, device: a, seq: 1, hlc: Fixtures.hlc) == .published)
        let path = fixture.layout.logFile(zone, device: a, seq: 1)
        let bytes = fixture.contents(path)
        #expect(
            try folder.publish(Fixtures.batch([1]), zone: zone, device: a, seq: 1, hlc: Fixtures.hlc)
                == .alreadyPublished)
        #expect {
            try folder.publish(Fixtures.batch([2]), zone: zone, device: a, seq: 1, hlc: Fixtures.hlc)
        } throws: { ($0 as? CloudError)?.code == .serverRecordChanged }
        #expect(fixture.contents(path) == bytes)
    }

    @Test(arguments: Backend.allCases)
    func logHeadFindsFilesBeyondWhatADeviceRecordedAsPublished(backend: Backend) throws {
        let folder: any CloudFolder = try FolderFixture(backend).prepared()
        #expect(try folder.logHead(zone: zone, device: a, after: 0) == 0)
        for seq in 1...3 {
            _ = try folder.publish(Fixtures.batch([seq]), zone: zone, device: a, seq: Int64(seq), hlc: Fixtures.hlc)
        }
        // A database restored from a backup believes it published up to 1: a clone (rule 10).
        #expect(try folder.logHead(zone: zone, device: a, after: 1) == 3)
        #expect(try folder.logHead(zone: zone, device: a, after: 3) == 3)
        #expect(try folder.logHead(zone: zone, device: b, after: 0) == 0)
    }

    @Test(arguments: Backend.allCases)
    func aBatchLimitStopsAFetchWithMoreComing(backend: Backend) throws {
        let folder = try FolderFixture(backend).prepared()
        for seq in 1...3 {
            _ = try folder.publish(Fixtures.batch([seq]), zone: zone, device: a, seq: Int64(seq), hlc: Fixtures.hlc)
        }
        _ = try folder.publish(Fixtures.batch([9]), zone: zone, device: b, seq: 1, hlc: Fixtures.hlc)
        let first = try folder.fetchChanges(zone: zone, since: .empty, limit: FetchLimit(batches: 2))
        #expect(first.batches.map(\.seq) == [1, 2])
        #expect(first.moreComing)
        #expect(first.token == ChangeToken([a: 2]))
        let rest = try folder.fetchChanges(zone: zone, since: first.token, limit: FetchLimit(batches: 2))
        #expect(rest.batches.map { "\($0.device):\($0.seq)" } == ["\(a):3", "\(b):1"])
    }

    /// A reader's transaction holds at most about `records` records: whole files are read until
    /// they hold that many, so a file larger than the limit is still read, alone.
    @Test(arguments: Backend.allCases)
    func aRecordLimitStopsAFetchAtWholeFiles(backend: Backend) throws {
        let folder = try FolderFixture(backend).prepared()
        for seq in 1...3 {
            let items = (0..<3).map { seq * 10 + $0 }
            _ = try folder.publish(Fixtures.batch(items), zone: zone, device: a, seq: Int64(seq), hlc: Fixtures.hlc)
        }
        let first = try folder.fetchChanges(zone: zone, since: .empty, limit: FetchLimit(records: 4))
        #expect(first.batches.map(\.seq) == [1, 2])
        #expect(first.moreComing)
        let one = try folder.fetchChanges(zone: zone, since: .empty, limit: FetchLimit(records: 1))
        #expect(one.batches.map(\.seq) == [1])
        #expect(one.batches.first?.batch.records.count == 3)
        let rest = try folder.fetchChanges(zone: zone, since: first.token, limit: FetchLimit(records: 4))
        #expect(rest.batches.map(\.seq) == [3])
        #expect(!rest.moreComing)
        let all = try folder.fetchChanges(zone: zone, since: .empty, limit: .unlimited)
        #expect(all.batches.map(\.seq) == [1, 2, 3])
    }

    @Test(arguments: Backend.allCases)
    func publishingIntoAMissingZoneIsZoneNotFound(backend: Backend) throws {
        let fixture = FolderFixture(backend)
        let folder = try fixture.prepared()
        #expect {
            try folder.publish(Fixtures.batch([1]), zone: ZoneID("work")!, device: a, seq: 1, hlc: Fixtures.hlc)
        } throws: { ($0 as? CloudError)?.code == .zoneNotFound }
        #expect(!fixture.allPaths().contains { $0.contains("work") })
        #expect(throws: CloudError.self) {
            try folder.fetchChanges(zone: ZoneID("work")!, since: .empty, limit: FetchLimit(batches: 10))
        }
    }

    /// File modes exist on disk only: the in-memory twin has none to check.
    @Test(arguments: [Backend.disk])
    func aPublishedFileIsPrivateToItsOwner(backend: Backend) throws {
        let fixture = FolderFixture(backend)
        let folder = try fixture.prepared()
        _ = try folder.publish(Fixtures.batch([1]), zone: zone, device: a, seq: 1, hlc: Fixtures.hlc)
        let attributes = try FileManager.default.attributesOfItem(
            atPath: fixture.layout.logFile(zone, device: a, seq: 1))
        #expect((attributes[.posixPermissions] as? Int) == 0o600)
        #expect(fixture.allPaths().allSatisfy { !$0.contains(".tmp-") })
    }
}
