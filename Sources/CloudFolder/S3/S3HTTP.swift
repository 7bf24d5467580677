import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix
import Synchronization

/// The process's one HTTP client for S3 (ARCHITECTURE §4, DECISIONS session 13): AsyncHTTPClient
/// on SwiftNIO's shared event loops. `FileIO` is synchronous and the engine calls it off the UI,
/// so `perform` waits on the calling thread while the request runs on NIO's own threads, never
/// on the cooperative pool. Foundation's URLSession is not used: on Linux it stops the process
/// when a connection closes before an answer's head is complete.
enum S3HTTP {
    /// One client for the process, like `HTTPClient.shared` (which cannot be shut down either): it
    /// lives as long as the process, so it is never deinitialized unshut, and the system closes its
    /// sockets at exit. Its own settings, not the shared one's: redirects are not followed (a
    /// signed request is for one host), answers are not decompressed, a refused connection fails
    /// the request at once rather than being retried until the connect timeout (the engine's
    /// backoff is the retry), and there is no client-wide read timeout: each request has its own
    /// (`S3Request.timeout`, kept by `perform`).
    static let client: HTTPClient = {
        var configuration = HTTPClient.Configuration(
            redirectConfiguration: .disallow, timeout: .init(connect: .seconds(30), read: nil),
            connectionPool: .init(idleTimeout: .seconds(60), concurrentHTTP1ConnectionsPerHostSoftLimit: 8),
            decompression: .disabled)
        configuration.connectionPool.retryConnectionEstablishment = false
        configuration.httpVersion = .http1Only
        return HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: configuration)
    }()

    /// The request waited longer than its timeout for a byte to move.
    struct Stalled: Error {}

    /// Sends `request` and waits for the whole answer. A request with no byte moving for
    /// `timeout` seconds is failed (as URLSession's request timeout did), one taking over four
    /// times that in all too (its resource timeout); either is `networkFailure`.
    static func perform(_ request: S3Request, place: String) throws -> S3Response {
        let key = request.url.path
        var headers = HTTPHeaders()
        for (name, value) in request.headers { headers.add(name: name, value: value) }
        let body: HTTPClient.Body? =
            request.method == "PUT" || !request.body.isEmpty ? .bytes(request.body) : nil
        let httpRequest: HTTPClient.Request
        do {
            httpRequest = try HTTPClient.Request(
                url: request.url, method: HTTPMethod(rawValue: request.method), headers: headers, body: body)
        } catch {
            throw CloudError(.invalidArguments, "not a valid S3 request URL", path: key)
        }
        let timeout = max(request.timeout, 0.001)
        let collector = S3AnswerCollector(method: request.method, maxBytes: request.maxAnswerBytes, key: key)
        let deadline = NIODeadline.now() + .nanoseconds(Int64(min(timeout * 4, 86_400) * 1e9))
        let task = client.execute(request: httpRequest, delegate: collector, deadline: deadline)
        let done = DispatchSemaphore(value: 0)
        let outcome = OutcomeBox()
        task.futureResult.whenComplete { result in
            outcome.set(result)
            done.signal()
        }
        // The watchdog: fail the request once nothing has moved for `timeout` seconds.
        var wait = timeout
        while done.wait(timeout: .now() + wait) == .timedOut {
            let idle = collector.secondsIdle()
            if idle >= timeout {
                task.fail(reason: Stalled())
                done.wait()
                break
            }
            wait = timeout - idle
        }
        switch outcome.get() {
        case .success(let response): return response
        case .failure(let error): throw classify(error, place: place, key: key)
        case nil: throw CloudError(.networkFailure, "the request to \(place) ended without an answer", path: key)
        }
    }

    /// A transport failure as a `CloudError`: no connection → networkUnavailable, anything cut,
    /// garbled or timed out → networkFailure (both retried, ARCHITECTURE §4).
    static func classify(_ error: any Error, place: String, key: String) -> CloudError {
        switch error {
        case let error as CloudError:
            return error
        case is Stalled:
            return CloudError(.networkFailure, "the S3 endpoint \(place) did not answer in time", path: key)
        case let error as HTTPClientError:
            switch error {
            case .readTimeout, .writeTimeout, .deadlineExceeded, .connectTimeout:
                return CloudError(.networkFailure, "the S3 endpoint \(place) did not answer in time", path: key)
            case .remoteConnectionClosed:
                return CloudError(.networkFailure, "the S3 endpoint \(place) closed the connection", path: key)
            case .tlsHandshakeTimeout:
                return CloudError(
                    .networkFailure, "a secure connection to the S3 endpoint \(place) was not made in time", path: key)
            default:
                // HTTPClientError describes itself as a Swift value (`HTTPClientError.…`): not for people.
                return CloudError(.networkFailure, "the request to \(place) failed (a network error)", path: key)
            }
        case is NIOConnectionError:
            return CloudError(.networkUnavailable, "the S3 endpoint \(place) is not reachable", path: key)
        case let error as IOError where unreachable.contains(error.errnoCode):
            return CloudError(.networkUnavailable, "the S3 endpoint \(place) is not reachable", path: key)
        case let error as IOError:
            return CloudError(
                .networkFailure, "the request to \(place) failed: \(String(cString: strerror(error.errnoCode)))",
                path: key)
        default:
            return CloudError(
                .networkFailure, "the request to \(place) failed: \(CloudError.sentence(for: error))", path: key)
        }
    }

    /// The errnos of a connection that could not be made.
    static let unreachable: Set<Int32> = [ECONNREFUSED, ENETUNREACH, EHOSTUNREACH, ENETDOWN, EHOSTDOWN]

    private final class OutcomeBox: Sendable {
        private let value = Mutex<Result<S3Response, any Error>?>(nil)
        func set(_ result: Result<S3Response, any Error>) { value.withLock { $0 = result } }
        func get() -> Result<S3Response, any Error>? { value.withLock { $0 } }
    }
}
