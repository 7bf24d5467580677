import CloudFolder
import Foundation
import NotesTestSupport
import Testing

/// What `S3FileIO` does with the answers S3-compatible stores give under load, when full, or
/// with a body it does not know (ARCHITECTURE §4), through a scripted transport.
@Suite struct S3ErrorBehaviourTests {
    /// Publishes `bytes` at `path` the way `DirectoryCloudFolder` does (write, close, rename).
    func publish(_ io: S3FileIO, _ path: String, _ bytes: [UInt8]) throws {
        let file = try io.createExclusive(path + ".tmp")
        try io.write(file, bytes)
        try io.close(file)
        try io.rename(path + ".tmp", to: path)
    }

    @Test func aConditionalPutInConflictIsSentAgainUntilItLands() throws {
        let server = S3ScriptedServer([
            .init(status: 409, headers: [:], body: S3ResponseTests.error("ConditionalRequestConflict")),
            .init(status: 409, headers: [:], body: S3ResponseTests.error("ConditionalRequestConflict")),
            .init(status: 200, headers: [:], body: []),
        ])
        let io = server.io()
        try publish(io, "z/log/d/1.json", Array("{}".utf8))
        #expect(server.requests.count == 3)
        #expect(server.requests.allSatisfy { $0.header("If-None-Match") == "*" })
        #expect(server.pauses == [0.1, 0.2])
        #expect(io.requestCounts["PUT"] == 3)
    }

    @Test func aConflictThatLastsIsZoneBusyForTheEnginesRetry() throws {
        let again = S3ScriptedServer(
            Array(repeating: S3ScriptedServer.answer(409, code: "ConditionalRequestConflict"), count: 5))
        #expect(performing { try publish(again.io(), "z/log/d/1.json", [1]) }?.code == .zoneBusy)
        #expect(again.requests.count == 5)
    }

    @Test func slowDownCarriesTheServersRetryAfter() throws {
        let server = S3ScriptedServer([
            S3ScriptedServer.answer(503, code: "SlowDown", headers: ["retry-after": "7"]),
            S3ScriptedServer.answer(429, headers: ["retry-after": "Sun, 06 Nov 2094 08:49:37 GMT"]),
        ])
        let io = server.io()
        let slow = performing { _ = try io.read("z/a.json", maxBytes: 100) }
        #expect(slow?.code == .requestRateLimited)
        #expect(slow?.retryAfter == 7)
        let limited = performing { _ = try io.list("z") }
        #expect(limited?.code == .requestRateLimited)
        // A date decades away is the cap, an hour.
        #expect(limited?.retryAfter == 3600)
    }

    @Test func aFullBucketIsQuotaExceeded() {
        let server = S3ScriptedServer([S3ScriptedServer.answer(507, code: "XMinioStorageFull")])
        let error = performing { try publish(server.io(), "z/log/d/1.json", [1]) }
        #expect(error?.code == .quotaExceeded)
        #expect(error?.message.contains("notes is full") == true)
    }

    @Test func aMissingBucketIsNamed() {
        let server = S3ScriptedServer([S3ScriptedServer.answer(404, code: "NoSuchBucket")])
        let error = performing { _ = try server.io().list("") }
        #expect(error?.message.contains("the S3 bucket notes does not exist") == true)
    }

    @Test func bodiesThatAreNotS3sAreErrorsNotCrashes() {
        let seed = SeededRandom.seed(default: UInt64.random(in: 0...UInt64.max))
        var generator = SeededRandom(seed: seed)
        for round in 0..<60 {
            let body = (0..<generator.below(300)).map { _ in UInt8(truncatingIfNeeded: generator.next()) }
            let xmlish = Array("<Error><Code>".utf8) + body
            for status in [200, 400, 403, 404, 409, 429, 500, 503] {
                let server = S3ScriptedServer([
                    .init(status: status, headers: ["retry-after": String(decoding: body, as: UTF8.self)], body: body),
                    .init(status: status, headers: [:], body: xmlish),
                ])
                let io = server.io()
                // A 200 with garbage is not a listing; every other answer is an error.
                for _ in 0..<2 {
                    let error = performing { _ = try io.list("z") }
                    #expect(error != nil, "seed \(seed) round \(round) status \(status)")
                }
            }
        }
    }

    /// The `CloudError` `body` threw, nil when it threw none.
    func performing(_ body: () throws -> Void) -> CloudError? {
        do {
            try body()
            return nil
        } catch {
            return error as? CloudError ?? CloudError(.internalError, "not a CloudError: \(error)")
        }
    }
}
