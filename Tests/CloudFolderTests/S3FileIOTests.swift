import Foundation
import NotesCore
import NotesTestSupport
import Testing

@testable import CloudFolder

/// `S3FileIO` against real object stores (SeaweedFS, and moto's server, on loopback): the
/// `FileIO` behaviour the folder format relies on (SYNC-FORMAT rules 1 and 2) holds on S3.
/// moto checks no signature: the credentials test runs on SeaweedFS only.
@Suite("S3FileIO against SeaweedFS and moto", .serialized)
struct S3FileIOTests {
    static let device = DeviceID("abcdefghijklmn27")!

    @Test(
        "a write-once path refuses a second write (412), with nothing at the temp key",
        arguments: SeaweedServer.Implementation.allCases)
    func writeOnce(_ server: SeaweedServer.Implementation) async throws {
        let io = try await S3Fixture.io(on: server)
        try io.makeDirectory("/cloud")
        try io.writeAtomically(Array("one".utf8), to: "/cloud/a.json", device: Self.device)
        #expect(try io.read("/cloud/a.json", maxBytes: 100) == Array("one".utf8))
        #expect(throws: CloudError.self) {
            try io.writeAtomically(Array("two".utf8), to: "/cloud/a.json", device: Self.device)
        }
        do {
            try io.writeAtomically(Array("two".utf8), to: "/cloud/a.json", device: Self.device)
        } catch let error as CloudError {
            #expect(error.code == .serverRecordChanged)
        }
        #expect(try io.read("/cloud/a.json", maxBytes: 100) == Array("one".utf8))
        #expect(try io.list("/cloud") == ["a.json"])
    }

    @Test("the device file is the one file rewritten", arguments: SeaweedServer.Implementation.allCases)
    func deviceFileIsRewritten(_ server: SeaweedServer.Implementation) async throws {
        let io = try await S3Fixture.io(on: server)
        let path = "/root/private/devices/abcdefghijklmn27.json"
        try io.writeAtomically(Array("v1".utf8), to: path, device: Self.device)
        try io.writeAtomically(Array("v2".utf8), to: path, device: Self.device)
        #expect(try io.read(path, maxBytes: 100) == Array("v2".utf8))
    }

    @Test(
        "missing objects are unknownItem, folders are markers or any key under them",
        arguments: SeaweedServer.Implementation.allCases)
    func kindsAndMissing(_ server: SeaweedServer.Implementation) async throws {
        let io = try await S3Fixture.io(on: server)
        #expect(try io.kind("/nothing") == nil)
        #expect(try io.readIfPresent("/nothing.json", maxBytes: 10) == nil)
        do {
            _ = try io.read("/nothing.json", maxBytes: 10)
            Issue.record("a missing object was read")
        } catch let error as CloudError {
            #expect(error.code == .unknownItem)
        }
        try io.makeDirectory("/empty")
        #expect(try io.kind("/empty") == .directory)
        #expect(try io.list("/empty") == [])
        try io.writeAtomically(Array("12345".utf8), to: "/implied/deeper/f.json", device: Self.device)
        #expect(try io.kind("/implied") == .directory)
        #expect(try io.kind("/implied/deeper/f.json") == .regular(size: 5))
        #expect(try io.list("/implied") == ["deeper"])
        #expect(Set(try io.list("/")) == ["empty", "implied"])
        try io.remove("/implied/deeper/f.json")
        #expect(try io.kind("/implied/deeper/f.json") == nil)
    }

    @Test("an object over the read cap is refused", arguments: SeaweedServer.Implementation.allCases)
    func readCap(_ server: SeaweedServer.Implementation) async throws {
        let io = try await S3Fixture.io(on: server)
        try io.writeAtomically([UInt8](repeating: 7, count: 5000), to: "/big.json", device: Self.device)
        do {
            _ = try io.read("/big.json", maxBytes: 100)
            Issue.record("an object over the cap was read")
        } catch let error as CloudError {
            #expect(error.code == .limitExceeded)
            #expect(error.message.contains("5000"))
        }
        #expect(try io.read("/big.json", maxBytes: 5000).count == 5000)
    }

    @Test("a listing follows continuation tokens past 1000 keys", arguments: SeaweedServer.Implementation.allCases)
    func longListing(_ server: SeaweedServer.Implementation) async throws {
        let io = try await S3Fixture.io(on: server)
        try io.makeDirectory("/many")
        let names = (0..<1030).map { String(format: "%05d.json", $0) }
        try await withThrowingTaskGroup(of: Void.self) { group in
            for chunk in stride(from: 0, to: names.count, by: 130) {
                let slice = names[chunk..<min(chunk + 130, names.count)]
                group.addTask {
                    for name in slice { try io.writeAtomically([1], to: "/many/" + name, device: Self.device) }
                }
            }
            try await group.waitForAll()
        }
        #expect(try io.list("/many").sorted() == names)
        #expect((io.requestCounts["LIST"] ?? 0) >= 2)
    }

    @Test("wrong credentials are notAuthenticated with the server's reason, without the secret")
    func wrongCredentials() async throws {
        let io = try await S3Fixture.io(credentials: .init(accessKeyID: "nobody", secretAccessKey: "wrong-secret-xyz"))
        do {
            _ = try io.list("/")
            Issue.record("a listing with wrong credentials succeeded")
        } catch let error as CloudError {
            #expect(error.code == .notAuthenticated)
            #expect(!error.description.contains("wrong-secret-xyz"))
        }
    }

    @Test("a server that is not there is networkUnavailable")
    func nothingListening() throws {
        let endpoint = S3Endpoint(
            url: URL(string: "http://127.0.0.1:1")!, bucket: "b", region: "us-east-1",
            credentials: .init(accessKeyID: "k", secretAccessKey: "s"), timeout: 5)
        let io = S3FileIO(client: S3Client(endpoint: endpoint), prefix: "p")
        do {
            _ = try io.list("/")
            Issue.record("a listing with no server succeeded")
        } catch let error as CloudError {
            #expect(error.code == .networkUnavailable)
        }
    }

    @Test("a missing bucket is a clear error naming it", arguments: SeaweedServer.Implementation.allCases)
    func missingBucket(_ implementation: SeaweedServer.Implementation) async throws {
        let server = try await SeaweedServer.shared(implementation).endpoint()
        let endpoint = S3Endpoint(
            url: URL(string: server.url)!, bucket: "no-such-bucket-here", region: "us-east-1",
            credentials: .init(accessKeyID: server.accessKey, secretAccessKey: server.secretKey), timeout: 10)
        let io = S3FileIO(client: S3Client(endpoint: endpoint), prefix: "p")
        do {
            _ = try io.list("/")
            Issue.record("a listing of a missing bucket succeeded")
        } catch let error as CloudError {
            #expect(error.userMessage.contains("no-such-bucket-here"))
        }
    }
}
