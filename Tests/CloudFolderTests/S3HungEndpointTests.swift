import CloudFolder
import Foundation
import Glibc
import Testing

/// A server that accepts connections and never answers (issue 21 item 12): the kernel completes
/// each connection on the listening socket's backlog and the request's bytes sit unread.
private final class HungListener {
    let port: Int
    private let socket: Int32

    init() throws {
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        self.socket = socket
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard bound == 0, listen(socket, 64) == 0 else { throw CloudError(.internalError, "cannot listen") }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(socket, $0, &length) }
        }
        self.port = Int(UInt16(bigEndian: address.sin_port))
    }

    deinit { close(socket) }
}

@Suite("A hung S3 endpoint")
struct S3HungEndpointTests {
    @Test("costs a command one timeout, not one per request it makes; each says the endpoint did not answer")
    func hungEndpointCostsOneTimeout() throws {
        let server = try HungListener()
        let timeout = 0.5
        let endpoint = S3Endpoint(
            url: URL(string: "http://127.0.0.1:\(server.port)")!, bucket: "notes", region: "us-east-1",
            credentials: .init(accessKeyID: "AKIDEXAMPLE", secretAccessKey: "secret"), timeout: timeout)
        // What a one-shot `sync` makes: one client, several reads before it gives up (the
        // forward pointer, the encryption marker, the container).
        let io = S3FileIO(client: S3Client(endpoint: endpoint, failsFastAfterStall: true), prefix: "p")
        let started = Date()
        for name in ["moved.json", "encrypted.json", "container.json", "keys/1.json"] {
            let error = #expect(throws: CloudError.self) { _ = try io.read(name, maxBytes: 4096) }
            #expect(error?.code == .networkFailure, "\(String(describing: error))")
            #expect(error?.message.contains("did not answer in time") == true, "\(String(describing: error))")
        }
        let elapsed = Date().timeIntervalSince(started)
        // One timeout (and NIO's overhead), where a timeout per request would be four.
        #expect(elapsed >= timeout && elapsed < 2.5 * timeout, "took \(elapsed) s")
    }

    @Test("the timeout an s3:// place gets is the one the README states")
    func timeoutIsTheREADMEs() throws {
        let readme = try DocsDriftTests.text("README.md")
        let stated = try #require(
            readme.firstMatch(of: /sends nothing for the endpoint's timeout \((\d+) s\)/).map { Double($0.1) } ?? nil,
            "the README no longer states the S3 timeout where it did")
        let endpoint = try S3Endpoint.resolve(
            bucket: "notes",
            environment: [
                "AWS_ACCESS_KEY_ID": "AKIDEXAMPLE", "AWS_SECRET_ACCESS_KEY": "secret", "HOME": "/nonexistent",
            ],
            readFile: { _ in nil })
        #expect(endpoint.timeout == stated)
    }
}
