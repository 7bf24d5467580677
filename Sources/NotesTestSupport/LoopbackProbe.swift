import Foundation

/// The status code a loopback HTTP server answers to `method path` (no body), or nil when it
/// does not answer (refused, closed, garbled, or nothing within `timeout` seconds). A plain
/// socket on a thread of its own: no HTTP client library (URLSession on Linux stops the process
/// on a connection closed before the answer's head, which a server still starting does), and no
/// pool thread blocked while it waits.
public func loopbackStatus(port: Int, path: String, method: String = "GET", timeout: Double = 2) async -> Int? {
    await withCheckedContinuation { continuation in
        let thread = Thread {
            continuation.resume(
                returning: blockingLoopbackStatus(port: port, path: path, method: method, timeout: timeout))
        }
        thread.name = "loopback-probe"
        thread.start()
    }
}

private func blockingLoopbackStatus(port: Int, path: String, method: String, timeout: Double) -> Int? {
    guard (1...Int(UInt16.max)).contains(port) else { return nil }
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard fd >= 0 else { return nil }
    defer { close(fd) }
    var limit = timeval(tv_sec: Int(timeout), tv_usec: Int((timeout - Double(Int(timeout))) * 1_000_000))
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
    setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
    guard connectLoopback(fd, port: port) else { return nil }
    let length = method == "GET" ? "" : "Content-Length: 0\r\n"
    let request = Array("\(method) \(path) HTTP/1.0\r\nHost: 127.0.0.1:\(port)\r\n\(length)\r\n".utf8)
    let sent = request.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
    guard sent == request.count else { return nil }
    // The status line: `HTTP/1.x NNN ...`.
    var head: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 512)
    while head.count < 64, !head.contains(10) {
        let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
        if count < 0 && errno == EINTR { continue }
        guard count > 0 else { break }
        head += buffer[0..<count]
    }
    let words = String(decoding: head.prefix { $0 != 13 && $0 != 10 }, as: UTF8.self).split(separator: " ")
    guard words.count >= 2, words[0].hasPrefix("HTTP/"), words[1].count == 3 else { return nil }
    return Int(words[1])
}

/// Connects the socket `fd` to 127.0.0.1:`port`; false with `errno` set when it could not.
func connectLoopback(_ fd: Int32, port: Int) -> Bool {
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = UInt16(port).bigEndian
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    return withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
            connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
        }
    }
}
