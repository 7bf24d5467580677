import CloudFolder
import Foundation
import NotesCore
import NotesStore
import NotesSync
import NotesTestSupport
import Testing

/// What a quiet device costs a bucket (issue 14's figures): the requests of one idle sync and
/// of one edit, counted by `S3Client`.
@Suite("S3 request counts")
struct S3RequestCountTests {
    @Test(
        "an idle sync costs at most 8 requests: no HEAD, no log file read, container.json once; the counts are printed")
    func idleAndEditCosts() async throws {
        let folder = try await TestFolder.s3()
        let io = try #require(folder.io as? S3FileIO)
        let a = try TestDevice("a", folder: folder)
        let b = try TestDevice("b", folder: folder)
        _ = try a.store.create(title: "first", body: "x\n")
        await a.sync()
        await b.sync()
        await a.sync()
        let seen = io.client.recentRequests.count
        let before = io.client.requestCount
        await b.sync()
        let idle = io.client.requestCount - before
        let idleRequests = Array(io.client.recentRequests.dropFirst(seen))
        let editBefore = io.client.requestCount
        _ = try a.store.create(title: "second", body: "y\n")
        await a.sync()
        let edit = io.client.requestCount - editBefore
        print(
            "S3 idle sync: \(idle) requests (\(idle * 30) an idle hour at the default poll, 30 s × 4); one edit sent: \(edit)"
        )
        print("idle: \(idleRequests)")
        // Only A has published: its log is listed after the token once (the rewind check's
        // listing serves the fetch), no log file is read or probed, nothing is published, and
        // `container.json` is asked for once, when the pass opens it (PassSightings).
        #expect(idleRequests.filter { $0.contains("start-after=") }.count == 1, "\(idleRequests)")
        #expect(!idleRequests.contains { $0.hasPrefix("GET") && $0.contains("/log/") }, "\(idleRequests)")
        #expect(!idleRequests.contains { $0.hasPrefix("HEAD") }, "\(idleRequests)")
        #expect(!idleRequests.contains { $0.hasPrefix("PUT") && !$0.contains("/devices/") }, "\(idleRequests)")
        #expect(idleRequests.filter { $0.contains("container.json") }.count == 1, "\(idleRequests)")
        // Nor are snapshots listed: A's log visibly ends at the token's file.
        #expect(!idleRequests.contains { $0.contains("/snapshots/") }, "\(idleRequests)")
        #expect(idle <= 7, "\(idleRequests)")
    }

    /// The requests since `before` (an earlier `requestCounts`, when the client's log held `seen`):
    /// their total, their counts by method, and the requests themselves.
    static func spent(_ io: S3FileIO, since before: [String: Int], seen: Int) -> (
        total: Int, counts: [String: Int], requests: [String]
    ) {
        var counts = io.requestCounts
        for (method, n) in before { counts[method, default: 0] -= n }
        counts = counts.filter { $0.value > 0 }
        return (counts.values.reduce(0, +), counts, Array(io.client.recentRequests.dropFirst(seen)))
    }

    /// Issue 14: a publication cost 8 to 9 HEADs per log file, for folders a bucket does not
    /// have, and `container.json` was asked for before every folder call. Measured after:
    /// A 10 (LIST 8, GET 1, PUT 1), B 8 (LIST 6, GET 2); before: 41 and 24.
    @Test("publishing one change costs at most 10 requests (A's sync), and B's sync that fetches it at most 8")
    func oneChangeCost() async throws {
        let folder = try await TestFolder.s3()
        let io = try #require(folder.io as? S3FileIO)
        let a = try TestDevice("a", folder: folder)
        let b = try TestDevice("b", folder: folder)
        let note = try a.store.create(title: "first", body: "x\n")
        try await quiesce([a, b])
        // Twice: the second edit is what every later one costs (the first may still write a
        // device file).
        var costs: [(total: Int, counts: [String: Int], requests: [String])] = []
        for n in 0..<2 {
            _ = try a.store.update(note.id) { $0.body += "line \(n)\n" }
            for device in [a, b] {
                let (before, seen) = (io.requestCounts, io.client.recentRequests.count)
                let summary = await device.sync()
                #expect(
                    summary.sent.sent == (device === a ? 1 : 0) && summary.fetched.received == (device === a ? 0 : 1))
                costs.append(Self.spent(io, since: before, seen: seen))
            }
        }
        let (send, fetch) = (costs[2], costs[3])
        print("one change: A's sync \(send.total) requests \(send.counts), B's sync \(fetch.total) \(fetch.counts)")
        #expect(send.total <= 10, "A's sync of one change: \(send.total) requests \(send.counts): \(send.requests)")
        #expect(fetch.total <= 8, "B's sync of one change: \(fetch.total) requests \(fetch.counts): \(fetch.requests)")
        #expect(try b.store.note(note.id)?.body == "x\nline 0\nline 1\n")
    }

    @Test(
        "each further log file of a sync costs 2 requests: the zone's LIST and its PUT (the container is checked once)")
    func furtherLogFilesCost() async throws {
        let folder = try await TestFolder.s3()
        let io = try #require(folder.io as? S3FileIO)
        let a = try TestDevice("a", folder: folder)
        let note = try a.store.create(title: "first", body: "x\n")
        await a.sync()
        func send(_ edit: () throws -> Void) async throws -> (total: Int, counts: [String: Int], requests: [String]) {
            try edit()
            let (before, seen) = (io.requestCounts, io.client.recentRequests.count)
            await a.sync()
            return Self.spent(io, since: before, seen: seen)
        }
        let one = try await send { _ = try a.store.update(note.id) { $0.body += "one\n" } }
        // 2 × 400 + 1 records: three log files (ChangeBatch.maxRecords).
        let three = try await send {
            for n in 0...(2 * ChangeBatch.maxRecords) { _ = try a.store.create(title: "note \(n)", body: "\(n)\n") }
        }
        var extra = three.counts
        for (method, n) in one.counts { extra[method, default: 0] -= n }
        #expect(
            extra.filter { $0.value != 0 } == ["LIST": 2, "PUT": 2],
            "one log file: \(one.counts), three: \(three.counts): \(three.requests)")
    }
}
