import CloudFolder
import Foundation

/// A transport for `S3Client` that answers from a script, in order, and records what was
/// asked: S3 behaviour without a server (the real one is `SeaweedServer`).
final class S3ScriptedServer: @unchecked Sendable {
    private let lock = NSLock()
    private var script: [S3Response]
    private var asked: [S3Request] = []
    private var paused: [Double] = []

    init(_ script: [S3Response]) { self.script = script }

    /// The requests sent, in order.
    var requests: [S3Request] { lock.withLock { asked } }
    /// The pauses the client took between resends, in seconds.
    var pauses: [Double] { lock.withLock { paused } }

    /// An `S3FileIO` over this script, bucket `notes`, prefix `p`.
    func io() -> S3FileIO {
        let endpoint = S3Endpoint(
            url: URL(string: "http://127.0.0.1:9")!, bucket: "notes", region: "us-east-1",
            credentials: .init(accessKeyID: "AKIDEXAMPLE", secretAccessKey: "secret"))
        let client = S3Client(
            endpoint: endpoint,
            transport: { [self] request in
                try lock.withLock {
                    asked.append(request)
                    guard !script.isEmpty else {
                        throw CloudError(.internalError, "the script ran out at \(request.url.path)")
                    }
                    return script.removeFirst()
                }
            },
            pause: { [self] seconds in lock.withLock { paused.append(seconds) } })
        return S3FileIO(client: client, prefix: "p")
    }

    static func answer(_ status: Int, code: String? = nil, message: String = "m", headers: [String: String] = [:])
        -> S3Response
    {
        let body = code.map {
            Array("<?xml version=\"1.0\"?><Error><Code>\($0)</Code><Message>\(message)</Message></Error>".utf8)
        }
        return S3Response(status: status, headers: headers, body: body ?? [])
    }
}
