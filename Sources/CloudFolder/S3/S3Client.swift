import Crypto
import Foundation
import Synchronization

/// Signed, synchronous S3 requests (ARCHITECTURE §4) over the process's one AsyncHTTPClient
/// (`S3HTTP`). `FileIO` is synchronous and the engine calls it off the UI, so each request waits
/// for its answer on the caller's thread; the request itself runs on SwiftNIO's threads.
public final class S3Client: Sendable {
    /// Sends one request and returns the server's answer, whatever its status; throws a
    /// `CloudError` when no answer came. Tests give a scripted one.
    public typealias Transport = @Sendable (S3Request) throws -> S3Response

    public let endpoint: S3Endpoint
    private let signer: SigV4Signer
    private let transport: Transport
    private let pause: @Sendable (Double) -> Void
    private let now: @Sendable () -> Date
    private let log = Mutex(RequestLog())
    /// Whether a request that got no answer for its whole timeout makes the next ones fail at
    /// once for as long again (`init`'s `failsFastAfterStall`).
    private let failsFastAfterStall: Bool
    /// The last such failure and when it came.
    private let stall = Mutex<(error: CloudError, at: Date)?>(nil)
    /// How many of the latest requests `recentRequests` keeps.
    static let logSize = 4096
    /// The most answer body bytes kept for a request that is not a ranged read (a listing page
    /// is well under 1 MiB; an error answer a few hundred bytes).
    public static let maxAnswerBytes = 16 * 1_048_576
    /// How many times a request answered 409 ConditionalRequestConflict is sent again.
    static let conflictRetries = 4

    /// A client over HTTP (`S3HTTP`), or over `transport` when given; `pause` waits between the
    /// resends of a conflicting request (seconds; tests record instead of sleeping); `now` dates
    /// the signatures. With `failsFastAfterStall`, a request that got no answer for the endpoint's
    /// whole timeout (a hung endpoint: it accepts and never answers) makes every request of this
    /// client in the next `timeout` seconds fail at once with the same error, so a one-shot
    /// command waits one timeout, not one per request it would make (issue 21 item 12); an
    /// engine's retry after its backoff tries the endpoint again.
    public init(
        endpoint: S3Endpoint, transport: Transport? = nil,
        pause: @escaping @Sendable (Double) -> Void = { Thread.sleep(forTimeInterval: $0) },
        now: @escaping @Sendable () -> Date = { Date() }, failsFastAfterStall: Bool = false
    ) {
        self.now = now
        self.failsFastAfterStall = failsFastAfterStall
        self.endpoint = endpoint
        self.signer = SigV4Signer(credentials: endpoint.credentials, region: endpoint.region)
        self.pause = pause
        self.transport = transport ?? Self.httpTransport(endpoint: endpoint)
    }

    /// Requests sent so far, by method (`GET`, `PUT`, `HEAD`, `DELETE`, and `LIST` for listings).
    public var requestCounts: [String: Int] { log.withLock { $0.counts } }

    /// The total of `requestCounts`.
    public var requestCount: Int { log.withLock { $0.counts.values.reduce(0, +) } }

    /// The latest requests, oldest first, as `METHOD key` (a listing with its prefix and
    /// start-after): for tests and benchmarks to see what a step cost. Never a header or a secret.
    public var recentRequests: [String] { log.withLock { $0.lines } }

    /// Sends one request for `key` (empty: the bucket itself) and returns the answer, whatever
    /// its status; a failure to get an answer throws `networkUnavailable`/`networkFailure`, an
    /// answer body over `maxAnswerBytes` `limitExceeded`.
    public func send(
        _ method: String, key: String, query: [(String, String)] = [], headers: [(String, String)] = [],
        body: [UInt8] = [], countAs: String? = nil, maxAnswerBytes: Int = S3Client.maxAnswerBytes
    ) throws -> S3Response {
        let listed = query.filter { $0.0 == "prefix" || $0.0 == "start-after" }.map { " \($0.0)=\($0.1)" }.joined()
        log.withLock { log in
            log.counts[countAs ?? method, default: 0] += 1
            log.lines.append("\(countAs ?? method) \(key)\(listed)")
            if log.lines.count > Self.logSize { log.lines.removeFirst(log.lines.count - Self.logSize) }
        }
        let path = endpoint.requestPath(key: key)
        let payloadHash = SigV4Signer.hex(SHA256.hash(data: body))
        var signed = headers
        signed.append(("host", endpoint.hostHeader))
        signed.append(("x-amz-content-sha256", payloadHash))
        let toSign = SigV4Signer.Request(
            method: method, path: path, query: query, headers: signed, payloadHash: payloadHash)
        let authorization = signer.sign(toSign, at: now())
        let scheme = endpoint.url.scheme ?? "https"
        var text = scheme + "://" + endpoint.hostHeader + SigV4Signer.encode(path, keepSlash: true)
        if !query.isEmpty {
            text +=
                "?"
                + query.map {
                    SigV4Signer.encode($0.0, keepSlash: false) + "=" + SigV4Signer.encode($0.1, keepSlash: false)
                }.joined(separator: "&")
        }
        guard let url = URL(string: text) else {
            throw CloudError(.invalidArguments, "not a valid S3 request URL", path: key)
        }
        let request = S3Request(
            method: method, url: url,
            headers: ([("host", endpoint.hostHeader)] + headers + [("x-amz-content-sha256", payloadHash)]
                + authorization)
                .map { ($0.0, $0.1) },
            body: body, maxAnswerBytes: maxAnswerBytes, timeout: endpoint.timeout)
        // A 409 ConditionalRequestConflict means another request on the key was in flight and
        // this one did nothing: sent again after a short pause (then zoneBusy, retried later).
        var attempt = 0
        while true {
            let response = try sendOnce(request)
            guard response.isConcurrentConflict, attempt < Self.conflictRetries else { return response }
            attempt += 1
            pause(0.05 * Double(1 << attempt))
            log.withLock { $0.counts[countAs ?? method, default: 0] += 1 }
        }
    }

    /// One request through the transport, or at once the failure of a request that stalled
    /// less than a timeout ago (`failsFastAfterStall`).
    private func sendOnce(_ request: S3Request) throws -> S3Response {
        guard failsFastAfterStall else { return try transport(request) }
        let started = now()
        if let stall = stall.withLock({ $0 }), started.timeIntervalSince(stall.at) < endpoint.timeout {
            throw stall.error
        }
        do {
            return try transport(request)
        } catch let error as CloudError where error.code == .networkFailure {
            let ended = now()
            if ended.timeIntervalSince(started) >= endpoint.timeout {
                stall.withLock { $0 = (error, ended) }
            }
            throw error
        }
    }

    /// Requests sent so far: counts by method, and the latest `logSize` as text.
    private struct RequestLog {
        var counts: [String: Int] = [:]
        var lines: [String] = []
    }

    /// The HTTP transport: what a client without a scripted transport uses (tests wrap it to
    /// lose answers the server did act on).
    public static func httpTransport(endpoint: S3Endpoint) -> Transport {
        let place = endpoint.url.absoluteString
        return { request in try S3HTTP.perform(request, place: place) }
    }
}
