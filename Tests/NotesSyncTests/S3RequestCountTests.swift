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
    @Test("an idle sync lists each device's log once and reads no log file; the counts are printed")
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
        print("S3 idle sync: \(idle) requests (\(idle * 120) an hour at a 30 s poll); one edit sent: \(edit)")
        print("idle: \(idleRequests)")
        // One listing after the token per device log (only A has published), no log file read
        // and nothing published.
        #expect(idleRequests.filter { $0.contains("start-after=") }.count == 1, "\(idleRequests)")
        #expect(!idleRequests.contains { $0.hasPrefix("GET") && $0.contains("/log/") }, "\(idleRequests)")
        #expect(!idleRequests.contains { $0.hasPrefix("PUT") && !$0.contains("/devices/") }, "\(idleRequests)")
        #expect(idle < 30, "\(idleRequests)")
    }
}
