import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1

/// Gathers one answer of `S3HTTP.perform` as it arrives: the head, then the body up to a cap
/// (an answer announcing or sending more is refused mid-way, `limitExceeded`), and when a byte
/// last moved either way, for the request's own timeout. NIO calls it on its event loop; the
/// waiting thread reads `secondsIdle`, hence the lock.
final class S3AnswerCollector: HTTPClientResponseDelegate, @unchecked Sendable {
    typealias Response = S3Response

    private let lock = NSLock()
    private let countsBody: Bool
    private let maxBytes: Int
    private let key: String
    private var lastActivity = DispatchTime.now().uptimeNanoseconds
    private var status = 0
    private var headers: [String: String] = [:]
    private var body: [UInt8] = []

    init(method: String, maxBytes: Int, key: String) {
        countsBody = method != "HEAD"
        self.maxBytes = max(maxBytes, 0)
        self.key = key
    }

    /// Seconds since a byte last moved either way (or since the request began).
    func secondsIdle() -> Double {
        let last = lock.withLock { lastActivity }
        let now = DispatchTime.now().uptimeNanoseconds
        return now > last ? Double(now - last) / 1e9 : 0
    }

    private func touch() { lastActivity = DispatchTime.now().uptimeNanoseconds }

    private func tooLarge(_ size: String) -> CloudError {
        CloudError(.limitExceeded, "the S3 answer is \(size), over the \(maxBytes)-byte cap; refused", path: key)
    }

    func didSendRequestHead(task: HTTPClient.Task<S3Response>, _ head: HTTPRequestHead) { lock.withLock { touch() } }

    func didSendRequestPart(task: HTTPClient.Task<S3Response>, _ part: IOData) { lock.withLock { touch() } }

    func didReceiveHead(task: HTTPClient.Task<S3Response>, _ head: HTTPResponseHead) -> EventLoopFuture<Void> {
        let announced = head.headers.first(name: "content-length").flatMap { Int($0) }
        let refused: CloudError? = lock.withLock {
            touch()
            status = Int(head.status.code)
            for (name, value) in head.headers {
                let name = name.lowercased()
                headers[name] = headers[name].map { $0 + "," + value } ?? value
            }
            guard countsBody, let announced else { return nil }
            if announced > maxBytes { return tooLarge("\(announced) bytes") }
            body.reserveCapacity(min(announced, 64 * 1_048_576))
            return nil
        }
        if let refused { return task.eventLoop.makeFailedFuture(refused) }
        return task.eventLoop.makeSucceededVoidFuture()
    }

    func didReceiveBodyPart(task: HTTPClient.Task<S3Response>, _ buffer: ByteBuffer) -> EventLoopFuture<Void> {
        let refused: CloudError? = lock.withLock {
            touch()
            guard body.count + buffer.readableBytes <= maxBytes else { return tooLarge("over \(maxBytes) bytes") }
            buffer.withUnsafeReadableBytes { body.append(contentsOf: $0) }
            return nil
        }
        if let refused { return task.eventLoop.makeFailedFuture(refused) }
        return task.eventLoop.makeSucceededVoidFuture()
    }

    func didFinishRequest(task: HTTPClient.Task<S3Response>) throws -> S3Response {
        lock.withLock { S3Response(status: status, headers: headers, body: body) }
    }
}
