import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import Synchronization

/// Gathers one answer of `S3HTTP.perform` as it arrives: the head, then the body up to a cap
/// (an answer announcing or sending more is refused mid-way, `limitExceeded`), and when a byte
/// last moved either way, for the request's own timeout. NIO calls it on its event loop; the
/// waiting thread reads `secondsIdle`, hence the mutex.
final class S3AnswerCollector: HTTPClientResponseDelegate, Sendable {
    typealias Response = S3Response

    /// What has arrived so far, and when a byte last moved.
    private struct Answer {
        var lastActivity = DispatchTime.now().uptimeNanoseconds
        var status = 0
        var headers: [String: String] = [:]
        var body: [UInt8] = []

        mutating func touch() { lastActivity = DispatchTime.now().uptimeNanoseconds }
    }

    private let countsBody: Bool
    private let maxBytes: Int
    private let key: String
    private let answer = Mutex(Answer())

    init(method: String, maxBytes: Int, key: String) {
        countsBody = method != "HEAD"
        self.maxBytes = max(maxBytes, 0)
        self.key = key
    }

    /// Seconds since a byte last moved either way (or since the request began).
    func secondsIdle() -> Double {
        let last = answer.withLock { $0.lastActivity }
        let now = DispatchTime.now().uptimeNanoseconds
        return now > last ? Double(now - last) / 1e9 : 0
    }

    private func tooLarge(_ size: String) -> CloudError {
        CloudError(.limitExceeded, "the S3 answer is \(size), over the \(maxBytes)-byte cap; refused", path: key)
    }

    func didSendRequestHead(task: HTTPClient.Task<S3Response>, _ head: HTTPRequestHead) {
        answer.withLock { $0.touch() }
    }

    func didSendRequestPart(task: HTTPClient.Task<S3Response>, _ part: IOData) { answer.withLock { $0.touch() } }

    func didReceiveHead(task: HTTPClient.Task<S3Response>, _ head: HTTPResponseHead) -> EventLoopFuture<Void> {
        let announced = head.headers.first(name: "content-length").flatMap { Int($0) }
        let refused: CloudError? = answer.withLock { answer in
            answer.touch()
            answer.status = Int(head.status.code)
            for (name, value) in head.headers {
                let name = name.lowercased()
                answer.headers[name] = answer.headers[name].map { $0 + "," + value } ?? value
            }
            guard countsBody, let announced else { return nil }
            if announced > maxBytes { return tooLarge("\(announced) bytes") }
            answer.body.reserveCapacity(min(announced, 64 * 1_048_576))
            return nil
        }
        if let refused { return task.eventLoop.makeFailedFuture(refused) }
        return task.eventLoop.makeSucceededVoidFuture()
    }

    func didReceiveBodyPart(task: HTTPClient.Task<S3Response>, _ buffer: ByteBuffer) -> EventLoopFuture<Void> {
        let refused: CloudError? = answer.withLock { answer in
            answer.touch()
            guard answer.body.count + buffer.readableBytes <= maxBytes else {
                return tooLarge("over \(maxBytes) bytes")
            }
            buffer.withUnsafeReadableBytes { answer.body.append(contentsOf: $0) }
            return nil
        }
        if let refused { return task.eventLoop.makeFailedFuture(refused) }
        return task.eventLoop.makeSucceededVoidFuture()
    }

    func didFinishRequest(task: HTTPClient.Task<S3Response>) throws -> S3Response {
        answer.withLock { S3Response(status: $0.status, headers: $0.headers, body: $0.body) }
    }
}
