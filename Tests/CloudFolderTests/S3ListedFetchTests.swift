import Foundation
import NotesCore
import NotesTestSupport
import Testing

@testable import CloudFolder

/// A FileIO that forwards every call but is not a `KeyListingFileIO`: the fetch probes through it.
struct ProbingOnlyFileIO: FileIO {
    let base: any FileIO
    func createExclusive(_ path: String) throws -> FileDescriptor { try base.createExclusive(path) }
    func write(_ file: FileDescriptor, _ bytes: [UInt8]) throws { try base.write(file, bytes) }
    func fsync(_ file: FileDescriptor) throws { try base.fsync(file) }
    func close(_ file: FileDescriptor) throws { try base.close(file) }
    func rename(_ from: String, to: String) throws { try base.rename(from, to: to) }
    func fsyncDirectory(_ path: String) throws { try base.fsyncDirectory(path) }
    func read(_ path: String, maxBytes: Int) throws -> [UInt8] { try base.read(path, maxBytes: maxBytes) }
    func list(_ path: String) throws -> [String] { try base.list(path) }
    func kind(_ path: String) throws -> FileKind? { try base.kind(path) }
    func makeDirectory(_ path: String) throws { try base.makeDirectory(path) }
    func remove(_ path: String) throws { try base.remove(path) }
}

/// An in-memory store that lists like SeaweedFS: directory-tree order (each folder's names
/// sorted, a folder's contents before the next name), not S3's byte order, and every key twice.
final class TreeOrderLister: KeyListingFileIO, @unchecked Sendable {
    let base = InMemoryFileIO()
    private let lock = NSLock()
    private var listings = 0
    var listCount: Int { lock.withLock { listings } }

    func listFiles(under path: String, startAfter: String) throws -> [String] {
        lock.withLock { listings += 1 }
        var out: [String] = []
        func walk(_ folder: String, _ relative: String) throws {
            for name in try base.listIfPresent(folder).sorted() {
                let child = relative.isEmpty ? name : relative + "/" + name
                if try base.kind(folder + "/" + name) == .directory {
                    try walk(folder + "/" + name, child)
                } else if startAfter.isEmpty || startAfter.utf8.lexicographicallyPrecedes(child.utf8) {
                    out.append(child)
                }
            }
        }
        try walk(path, "")
        return out + out
    }

    func createExclusive(_ path: String) throws -> FileDescriptor { try base.createExclusive(path) }
    func write(_ file: FileDescriptor, _ bytes: [UInt8]) throws { try base.write(file, bytes) }
    func fsync(_ file: FileDescriptor) throws { try base.fsync(file) }
    func close(_ file: FileDescriptor) throws { try base.close(file) }
    func rename(_ from: String, to: String) throws { try base.rename(from, to: to) }
    func fsyncDirectory(_ path: String) throws { try base.fsyncDirectory(path) }
    func read(_ path: String, maxBytes: Int) throws -> [UInt8] { try base.read(path, maxBytes: maxBytes) }
    func list(_ path: String) throws -> [String] { try base.list(path) }
    func kind(_ path: String) throws -> FileKind? { try base.kind(path) }
    func makeDirectory(_ path: String) throws { try base.makeDirectory(path) }
    func remove(_ path: String) throws { try base.remove(path) }
}

/// An incremental fetch over a bucket lists each device's log prefix once, after the token,
/// and reads what probing would read, whatever order the server lists in (SYNC-FORMAT "On S3").
@Suite struct S3ListedFetchTests {
    let zone = Fixtures.zone
    let a = Fixtures.deviceA
    let b = Fixtures.deviceB

    /// A container and zone with `seqs` published by A and B, and a renamed copy of B's last.
    func populate(_ folder: DirectoryCloudFolder, seqs: ClosedRange<Int64>) throws {
        _ = try folder.createContainer(device: a, hlc: Fixtures.hlc)
        _ = try folder.createZone(ZoneInfo(zone: zone, displayName: "Notes", createdBy: a), hlc: Fixtures.hlc)
        for seq in seqs {
            for device in [a, b] {
                _ = try folder.publish(
                    Fixtures.batch([Int(seq)]), zone: zone, device: device, seq: seq, hlc: Fixtures.hlc)
            }
        }
        let last = folder.layout.logFile(zone, device: b, seq: seqs.upperBound)
        let bytes = try folder.io.read(last, maxBytes: 1 << 20)
        try folder.io.writeAtomically(
            bytes, to: String(last.dropLast(5)) + " (conflicted copy).json", device: b)
    }

    /// The fetches from every token 0…last+1 of both devices, as tokens of A and B.
    func fetches(_ folder: DirectoryCloudFolder, last: Int64) throws -> [FetchedChanges] {
        var results: [FetchedChanges] = []
        for (seqA, seqB) in [(0, 0), (1, 0), (last, 2), (last, last), (last + 1, last)] {
            var token = ChangeToken.empty
            token[a] = seqA
            token[b] = seqB
            results.append(try folder.fetchChanges(zone: zone, since: token, limit: FetchLimit(batches: 3)))
        }
        return results
    }

    /// The fixture each comparison builds: seqs 1…`last` of A and B (and a renamed copy)
    /// published through a listing folder over `io`, the same files seen by a folder that probes
    /// (`io` without its listing); the fetches from every token must match. Returns both
    /// folders and the listed fetches.
    func listedAndProbed(_ io: any KeyListingFileIO, root: String, last: Int64) throws -> (
        listed: DirectoryCloudFolder, probed: DirectoryCloudFolder, fetched: [FetchedChanges]
    ) {
        let listed = DirectoryCloudFolder(root: root, io: io)
        try populate(listed, seqs: 1...last)
        let probed = DirectoryCloudFolder(root: root, io: ProbingOnlyFileIO(base: io))
        let viaListing = try fetches(listed, last: last)
        for (one, other) in zip(viaListing, try fetches(probed, last: last)) {
            #expect(one == other, "\(one)\n\(other)")
        }
        return (listed, probed, viaListing)
    }

    @Test func aTreeOrderedListingGivesWhatProbingGives() throws {
        let lister = TreeOrderLister()
        lister.base.plantDirectory("/cloud")
        let viaListing = try listedAndProbed(lister, root: "/cloud", last: 4).fetched
        #expect(viaListing[0].batches.map(\.seq) == [1, 2, 3])
        #expect(viaListing[0].moreComing)
        #expect(viaListing[3].copies.count == 1)
        #expect(lister.listCount > 0)
    }

    @Test func listFilesSortsByBytesDropsRepeatsAndFiltersStartAfterWhateverTheServerDoes() throws {
        func page(_ keys: [String], next: String?) -> S3Response {
            let contents = keys.map { "<Contents><Key>\($0)</Key></Contents>" }.joined()
            let more = next.map {
                "<IsTruncated>true</IsTruncated><NextContinuationToken>\($0)</NextContinuationToken>"
            }
            return S3Response(
                status: 200, headers: [:],
                body: Array(
                    "<ListBucketResult>\(more ?? "<IsTruncated>false</IsTruncated>")\(contents)</ListBucketResult>".utf8
                ))
        }
        // Tree order (z/notes/… before z/notes-2/…), a key repeated across pages, a folder
        // marker, and a key at or before start-after the server did not filter.
        let server = S3ScriptedServer([
            page(["p/z/a", "p/z/notes/1.json", "p/z/notes/2.json"], next: "t1"),
            page(["p/z/notes/2.json", "p/z/notes-2/1.json", "p/z/notes-2/", "p/z/b"], next: nil),
        ])
        let io = server.io()
        let names = try io.listFiles(under: "z", startAfter: "a")
        #expect(names == ["b", "notes-2/1.json", "notes/1.json", "notes/2.json"])
        #expect(io.requestCounts["LIST"] == 2)
        let first = server.requests[0].url.absoluteString
        #expect(first.contains("start-after=p%2Fz%2Fa"), "\(first)")
        #expect(server.requests[1].url.absoluteString.contains("continuation-token=t1"))
    }

    @Test("over SeaweedFS: the listed fetch matches probing, and an idle fetch costs one LIST per device")
    func idleFetchOverSeaweed() async throws {
        let io = try await S3Fixture.io()
        let (listed, probed, _) = try listedAndProbed(io, root: "/", last: 5)
        var idle = ChangeToken.empty
        idle[a] = 5
        idle[b] = 5
        func cost(_ folder: DirectoryCloudFolder) throws -> (total: Int, lists: Int, requests: [String]) {
            let before = io.client.requestCount
            let lists = io.requestCounts["LIST"] ?? 0
            let seen = io.client.recentRequests.count
            let fetched = try folder.fetchChanges(zone: zone, since: idle, limit: FetchLimit(batches: 100))
            #expect(fetched.batches.isEmpty)
            #expect(fetched.token == idle)
            return (
                io.client.requestCount - before, (io.requestCounts["LIST"] ?? 0) - lists,
                Array(io.client.recentRequests.suffix(io.client.recentRequests.count - seen))
            )
        }
        let listedCost = try cost(listed)
        let probedCost = try cost(probed)
        print("idle fetch of one zone, two devices: listed \(listedCost.total) requests, probed \(probedCost.total)")
        print("listed: \(listedCost.requests)")
        print("probed: \(probedCost.requests)")
        // Per device one LIST of its log prefix; the zone itself costs a fixed few (container,
        // zone folder, device list, snapshots).
        let perDevice = listedCost.requests.filter { $0.contains("start-after=") }
        #expect(perDevice.count == 2, "\(listedCost.requests)")
        #expect(listedCost.total < probedCost.total, "\(listedCost) vs \(probedCost)")
    }
}
