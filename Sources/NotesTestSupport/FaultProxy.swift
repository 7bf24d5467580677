import Foundation
import Synchronization

/// A loopback TCP proxy between a client and a server (S3FileIO and SeaweedFS in the fault
/// tests) that injects what networks do: a connection closed before, in or after the answer's
/// head, an answer cut mid-body, a canned error answer (503 SlowDown, 429) that never reaches
/// the server, and a request or an answer held until the client's timeout.
///
/// Each armed fault fires once, on the next chunk of bytes flowing its way on any connection
/// (armed for some requests: on the next such request, or on its answer).
/// Every connection is served by two threads of its own (never the cooperative pool), and
/// `stop` closes every socket, so no thread outlives the test. Only 127.0.0.1 is ever used.
public final class FaultProxy: Sendable {
    public enum Fault: Sendable, Equatable {
        /// The next answer with a body is cut: its head and half the body of the chunk reach the
        /// client, then the connection closes.
        case cutResponse
        /// The next answer is cut inside its head: its first `keeping` bytes (at most all but
        /// the last of the head; 7 is inside the status line) reach the client, then the
        /// connection closes. The server did act on the request.
        case cutHead(keeping: Int)
        /// The next request reaches the server, which acts on it; the connection closes before
        /// any byte of the answer reaches the client.
        case dropAnswer
        /// The next request is never forwarded: the connection closes as soon as it arrives,
        /// with no answer byte.
        case dropRequest
        /// The next answer is held: the server acted, the client gets no byte and times out.
        case holdAnswer
        /// The next request is answered with this status (and `Retry-After`, when given) by the
        /// proxy itself; the server never sees it.
        case respond(status: Int, retryAfter: String?)
        /// The next request is swallowed and never answered: the client times out.
        case stall

        /// Whether the fault fires on a request (else on an answer).
        var upstream: Bool {
            switch self {
            case .dropRequest, .respond, .stall: true
            case .cutResponse, .cutHead, .dropAnswer, .holdAnswer: false
            }
        }
    }

    public let port: Int
    public var url: String { "http://127.0.0.1:\(port)" }
    private let upstreamPort: UInt16
    private let listener: Int32
    private let state = Mutex(State())

    /// What the connections' threads and the test share.
    private struct State {
        var armed: [(fault: Fault, request: (@Sendable (String) -> Bool)?)] = []
        /// The request line of the latest request on each connection (by its client socket).
        var requestLines: [Int32: String] = [:]
        var fired: [Fault] = []
        var sockets: Set<Int32> = []
        var stopped = false
    }

    /// A proxy to `upstream` (`http://127.0.0.1:PORT`), listening on a free loopback port.
    public init(upstream: String) throws {
        guard let url = URL(string: upstream), url.host == "127.0.0.1", let port = url.port, port > 0,
            port <= Int(UInt16.max)
        else { throw ProxyError("not a loopback URL with a port: \(upstream)") }
        upstreamPort = UInt16(port)
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw ProxyError("socket failed") }
        var address = Self.loopback(port: 0)
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, length) == 0 && listen(fd, 64) == 0 && getsockname(fd, $0, &length) == 0
            }
        }
        guard bound else {
            close(fd)
            throw ProxyError("bind or listen failed")
        }
        listener = fd
        self.port = Int(UInt16(bigEndian: address.sin_port))
        let thread = Thread { [self] in acceptLoop() }
        thread.name = "fault-proxy-accept"
        thread.start()
    }

    deinit { stop() }

    struct ProxyError: Error, CustomStringConvertible {
        var description: String
        init(_ description: String) { self.description = description }
    }

    /// Arms `fault` to fire on the next chunk its way, `times` times; with `request`, only on a
    /// request whose request line (`PUT /bucket/key HTTP/1.1`) it accepts, or on its answer.
    public func arm(_ fault: Fault, times: Int = 1, request: (@Sendable (String) -> Bool)? = nil) {
        state.withLock { $0.armed += Array(repeating: (fault, request), count: times) }
    }

    /// Disarms every fault not fired yet.
    public func disarm() { state.withLock { $0.armed.removeAll() } }

    /// The faults that fired, in order.
    public var firedFaults: [Fault] { state.withLock { $0.fired } }

    /// Closes every connection now (a server that dropped them all); new ones are accepted.
    public func dropConnections() {
        for fd in state.withLock({ $0.sockets }) { shutdown(fd, Int32(SHUT_RDWR)) }
    }

    /// Stops accepting and closes every connection.
    public func stop() {
        let open: Set<Int32>? = state.withLock { state in
            guard !state.stopped else { return nil }
            state.stopped = true
            return state.sockets
        }
        guard let open else { return }
        shutdown(listener, Int32(SHUT_RDWR))
        close(listener)
        for fd in open { shutdown(fd, Int32(SHUT_RDWR)) }
    }

    static func loopback(port: UInt16) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        return address
    }

    private func acceptLoop() {
        while true {
            let client = accept(listener, nil, nil)
            guard client >= 0 else {
                if errno == EINTR { continue }
                return
            }
            guard register(client) else {
                close(client)
                return
            }
            let thread = Thread { [self] in serve(client) }
            thread.name = "fault-proxy-connection"
            thread.start()
        }
    }

    private func register(_ fd: Int32) -> Bool {
        state.withLock { state in
            guard !state.stopped else { return false }
            state.sockets.insert(fd)
            return true
        }
    }

    private func unregister(_ fd: Int32) {
        state.withLock { state in
            _ = state.sockets.remove(fd)
            state.requestLines[fd] = nil
        }
        close(fd)
    }

    /// One client connection: a connection upstream and a pump each way.
    private func serve(_ client: Int32) {
        let server = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = Self.loopback(port: upstreamPort)
        let connected =
            server >= 0
            && withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    connect(server, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
                }
            }
        guard connected, register(server) else {
            if server >= 0 { close(server) }
            unregister(client)
            return
        }
        let downDone = DispatchSemaphore(value: 0)
        let down = Thread { [self] in
            pump(from: server, to: client, upstream: false, connection: client)
            // Either side ending ends the connection: the other pump's read returns.
            shutdown(client, Int32(SHUT_RDWR))
            shutdown(server, Int32(SHUT_RDWR))
            downDone.signal()
        }
        down.name = "fault-proxy-down"
        down.start()
        pump(from: client, to: server, upstream: true, connection: client)
        shutdown(client, Int32(SHUT_RDWR))
        shutdown(server, Int32(SHUT_RDWR))
        // Both sockets are closed once the other pump has seen them shut (it only reads and
        // writes them; a closed descriptor number could be reused under it).
        downDone.wait()
        unregister(client)
        unregister(server)
    }

    /// The fault that fires on `chunk`, if one is armed its way (a cut answer waits for a chunk
    /// with body bytes past the head; a fault on an answer's head, for a chunk that starts one).
    private func take(upstream: Bool, chunk: [UInt8], connection: Int32) -> Fault? {
        state.withLock { state in
            if upstream, let line = Self.requestLine(chunk) { state.requestLines[connection] = line }
            let line = state.requestLines[connection] ?? ""
            guard
                let index = state.armed.firstIndex(where: {
                    $0.fault.upstream == upstream && ($0.request.map { $0(line) } ?? true)
                })
            else { return nil }
            switch state.armed[index].fault {
            case .cutResponse:
                if Self.bodyStart(chunk).map({ $0 < chunk.count }) != true { return nil }
            case .cutHead, .dropAnswer, .holdAnswer:
                // The start of an answer, not the rest of a body.
                if !chunk.starts(with: Array("HTTP/".utf8)) { return nil }
            default:
                break
            }
            let fault = state.armed.remove(at: index).fault
            state.fired.append(fault)
            return fault
        }
    }

    /// The request line of a chunk that starts a request (`PUT /key HTTP/1.1`), nil for other bytes.
    static func requestLine(_ chunk: [UInt8]) -> String? {
        let line = chunk.prefix(8192).prefix { $0 != 13 && $0 != 10 }
        let method = line.prefix { $0 != 32 }
        guard method.count >= 3, method.count <= 7, method.allSatisfy({ (65...90).contains($0) }),
            line.suffix(9).starts(with: Array(" HTTP/1.".utf8))
        else { return nil }
        return String(decoding: line, as: UTF8.self)
    }

    private func pump(from source: Int32, to target: Int32, upstream: Bool, connection: Int32) {
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(source, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { return }
            let chunk = Array(buffer[0..<count])
            switch take(upstream: upstream, chunk: chunk, connection: connection) {
            case nil:
                guard writeAll(target, chunk) else { return }
            case .cutResponse:
                let body = Self.bodyStart(chunk) ?? 0
                _ = writeAll(target, Array(chunk.prefix(body + (count - body) / 2)))
                return
            case .cutHead(let keeping):
                let head = Self.bodyStart(chunk) ?? count
                _ = writeAll(target, Array(chunk.prefix(max(0, min(keeping, head - 1)))))
                return
            case .dropAnswer, .dropRequest:
                return
            case .holdAnswer:
                swallow(source, &buffer)
                return
            case .respond(let status, let retryAfter):
                let body =
                    "<?xml version=\"1.0\"?><Error><Code>\(status == 503 ? "SlowDown" : "TooManyRequests")</Code>"
                    + "<Message>injected by the fault proxy</Message></Error>"
                var head = "HTTP/1.1 \(status) Injected\r\nContent-Type: application/xml\r\n"
                head += "Content-Length: \(body.utf8.count)\r\nConnection: close\r\n"
                if let retryAfter { head += "Retry-After: \(retryAfter)\r\n" }
                _ = writeAll(source, Array((head + "\r\n" + body).utf8))
                return
            case .stall:
                swallow(source, &buffer)
                return
            }
        }
    }

    /// Reads and drops what `source` sends until it closes (the client gave up: the other pump
    /// then shuts both sockets).
    private func swallow(_ source: Int32, _ buffer: inout [UInt8]) {
        while true {
            let more = buffer.withUnsafeMutableBytes { read(source, $0.baseAddress, $0.count) }
            if more < 0 && errno == EINTR { continue }
            if more <= 0 { return }
        }
    }

    /// Where the body begins in a chunk that holds a whole answer head (after `\r\n\r\n`).
    static func bodyStart(_ chunk: [UInt8]) -> Int? {
        guard chunk.count >= 4 else { return nil }
        for index in 0...(chunk.count - 4)
        where chunk[index] == 13 && chunk[index + 1] == 10 && chunk[index + 2] == 13 && chunk[index + 3] == 10 {
            return index + 4
        }
        return nil
    }

    private func writeAll(_ fd: Int32, _ bytes: [UInt8]) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if written < 0 && errno == EINTR { continue }
            guard written > 0 else { return false }
            offset += written
        }
        return true
    }
}
