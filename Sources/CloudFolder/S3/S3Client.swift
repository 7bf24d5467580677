import Crypto
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Signed, synchronous S3 requests over URLSession (ARCHITECTURE §4). `FileIO` is synchronous
/// and the engine calls it off the UI, so each request waits for its answer; URLSession runs
/// the request on its own threads, never on the caller's.
public final class S3Client: @unchecked Sendable {
    /// Sends one request and returns the server's answer, whatever its status; throws a
    /// `CloudError` when no answer came. Tests give a scripted one.
    public typealias Transport = @Sendable (URLRequest) throws -> S3Response

    public let endpoint: S3Endpoint
    private let signer: SigV4Signer
    private let session: URLSession
    private let transport: Transport
    private let pause: @Sendable (Double) -> Void
    private let now: @Sendable () -> Date
    private let lock = NSLock()
    private var counts: [String: Int] = [:]
    private var log: [String] = []
    /// How many of the latest requests `recentRequests` keeps.
    static let logSize = 4096
    /// How many times a request answered 409 ConditionalRequestConflict is sent again.
    static let conflictRetries = 4

    /// A client over URLSession, or over `transport` when given; `pause` waits between the
    /// resends of a conflicting request (seconds; tests record instead of sleeping); `now` dates
    /// the signatures.
    public init(
        endpoint: S3Endpoint, transport: Transport? = nil,
        pause: @escaping @Sendable (Double) -> Void = { Thread.sleep(forTimeInterval: $0) },
        now: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.now = now
        self.endpoint = endpoint
        self.signer = SigV4Signer(credentials: endpoint.credentials, region: endpoint.region)
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = endpoint.timeout
        configuration.timeoutIntervalForResource = endpoint.timeout * 4
        configuration.httpMaximumConnectionsPerHost = 8
        configuration.urlCache = nil
        let session = URLSession(configuration: configuration)
        self.session = session
        self.pause = pause
        self.transport = transport ?? Self.transport(session: session, endpoint: endpoint)
    }

    deinit { session.finishTasksAndInvalidate() }

    /// Requests sent so far, by method (`GET`, `PUT`, `HEAD`, `DELETE`, and `LIST` for listings).
    public var requestCounts: [String: Int] { lock.withLock { counts } }

    /// The total of `requestCounts`.
    public var requestCount: Int { lock.withLock { counts.values.reduce(0, +) } }

    /// The latest requests, oldest first, as `METHOD key` (a listing with its prefix and
    /// start-after): for tests and benchmarks to see what a step cost. Never a header or a secret.
    public var recentRequests: [String] { lock.withLock { log } }

    /// Sends one request for `key` (empty: the bucket itself) and returns the answer, whatever
    /// its status; a failure to get an answer throws `networkUnavailable`/`networkFailure`.
    public func send(
        _ method: String, key: String, query: [(String, String)] = [], headers: [(String, String)] = [],
        body: [UInt8] = [], countAs: String? = nil
    ) throws -> S3Response {
        let listed = query.filter { $0.0 == "prefix" || $0.0 == "start-after" }.map { " \($0.0)=\($0.1)" }.joined()
        lock.withLock {
            counts[countAs ?? method, default: 0] += 1
            log.append("\(countAs ?? method) \(key)\(listed)")
            if log.count > Self.logSize { log.removeFirst(log.count - Self.logSize) }
        }
        let path = endpoint.requestPath(key: key)
        let payloadHash = SigV4Signer.hex(SHA256.hash(data: body))
        var signed = headers
        signed.append(("host", endpoint.hostHeader))
        signed.append(("x-amz-content-sha256", payloadHash))
        let request = SigV4Signer.Request(
            method: method, path: path, query: query, headers: signed, payloadHash: payloadHash)
        let authorization = signer.sign(request, at: now())
        var text = endpoint.url.scheme! + "://" + endpoint.hostHeader + SigV4Signer.encode(path, keepSlash: true)
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
        var urlRequest = URLRequest(
            url: url, cachePolicy: .reloadIgnoringLocalCacheData, timeoutInterval: endpoint.timeout)
        urlRequest.httpMethod = method
        for (name, value) in headers + [("x-amz-content-sha256", payloadHash)] + authorization {
            urlRequest.setValue(value, forHTTPHeaderField: name)
        }
        if method == "PUT" || !body.isEmpty { urlRequest.httpBody = Data(body) }
        // A 409 ConditionalRequestConflict means another request on the key was in flight and
        // this one did nothing: sent again after a short pause (then zoneBusy, retried later).
        var attempt = 0
        while true {
            let response = try transport(urlRequest)
            guard response.isConcurrentConflict, attempt < Self.conflictRetries else { return response }
            attempt += 1
            pause(0.05 * Double(1 << attempt))
            lock.withLock { counts[countAs ?? method, default: 0] += 1 }
        }
    }

    /// The URLSession transport over `session`: what a client without a scripted transport uses
    /// (tests wrap it to lose answers the server did act on).
    public static func transport(session: URLSession, endpoint: S3Endpoint) -> Transport {
        { request in try perform(request, session: session, endpoint: endpoint) }
    }

    private static func perform(_ request: URLRequest, session: URLSession, endpoint: S3Endpoint) throws
        -> S3Response
    {
        let key = request.url?.path ?? ""
        let done = DispatchSemaphore(value: 0)
        let box = ResultBox()
        let task = session.dataTask(with: request) { data, response, error in
            box.set(data, response, error)
            done.signal()
        }
        task.resume()
        done.wait()
        let (data, response, error) = box.get()
        if let error {
            throw Self.classify(error, endpoint: endpoint, key: key)
        }
        guard let http = response as? HTTPURLResponse else {
            throw CloudError(.networkFailure, "the S3 server gave no HTTP answer", path: key)
        }
        var headers: [String: String] = [:]
        for (name, value) in http.allHeaderFields {
            if let name = name as? String, let value = value as? String { headers[name.lowercased()] = value }
        }
        return S3Response(status: http.statusCode, headers: headers, body: data.map { Array($0) } ?? [])
    }

    /// A transport failure as a `CloudError`: no connection → networkUnavailable, anything
    /// cut or timed out → networkFailure (both retried, ARCHITECTURE §4).
    static func classify(_ error: any Error, endpoint: S3Endpoint, key: String) -> CloudError {
        let place = endpoint.url.absoluteString
        if let urlError = error as? URLError {
            switch urlError.code {
            case .cannotConnectToHost, .cannotFindHost, .notConnectedToInternet, .dnsLookupFailed:
                return CloudError(.networkUnavailable, "the S3 endpoint \(place) is not reachable", path: key)
            case .timedOut:
                return CloudError(.networkFailure, "the S3 endpoint \(place) did not answer in time", path: key)
            default:
                return CloudError(
                    .networkFailure, "the request to \(place) failed (\(urlError.code.rawValue))", path: key)
            }
        }
        return CloudError(.networkFailure, "the request to \(place) failed: \(error.localizedDescription)", path: key)
    }

    private final class ResultBox: @unchecked Sendable {
        private let lock = NSLock()
        private var value: (Data?, URLResponse?, (any Error)?) = (nil, nil, nil)
        func set(_ data: Data?, _ response: URLResponse?, _ error: (any Error)?) {
            lock.withLock { value = (data, response, error) }
        }
        func get() -> (Data?, URLResponse?, (any Error)?) { lock.withLock { value } }
    }
}
