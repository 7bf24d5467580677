import Foundation

/// Where a bucket is and how to reach it: the endpoint URL, region, bucket, credentials, and
/// the addressing style. Path-style (`<endpoint>/<bucket>/<key>`) is what every S3-compatible
/// store accepts; virtual-host (`<bucket>.<endpoint host>/<key>`) is AWS's own.
public struct S3Endpoint: Sendable {
    public enum Addressing: String, Sendable, Equatable {
        case path, virtual
    }

    public var url: URL
    public var bucket: String
    public var region: String
    public var credentials: SigV4Signer.Credentials
    public var addressing: Addressing
    /// Seconds a request may take before it counts as a network failure.
    public var timeout: TimeInterval

    public init(
        url: URL, bucket: String, region: String, credentials: SigV4Signer.Credentials,
        addressing: Addressing = .path, timeout: TimeInterval = 30
    ) {
        self.url = url
        self.bucket = bucket
        self.region = region
        self.credentials = credentials
        self.addressing = addressing
        self.timeout = timeout
    }

    /// `host[:port]` as the Host header carries it: the bucket's own host name when
    /// virtual-host addressed.
    public var hostHeader: String {
        let host = (addressing == .virtual ? bucket + "." : "") + (url.host ?? "")
        guard let port = url.port else { return host }
        let defaultPort = url.scheme == "https" ? 443 : 80
        return port == defaultPort ? host : "\(host):\(port)"
    }

    /// The request path (unencoded) of `key`, or of the bucket itself when `key` is empty.
    public func requestPath(key: String) -> String {
        let bucketPart = addressing == .path ? "/" + bucket : ""
        let path = basePath + bucketPart + (key.isEmpty ? "" : "/" + key)
        return path.isEmpty ? "/" : path
    }

    /// The endpoint's own path (usually empty), without a trailing slash.
    var basePath: String {
        var path = url.path
        while path.hasSuffix("/") { path.removeLast() }
        return path
    }
}
