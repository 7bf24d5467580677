import Foundation

/// Where a bucket is and how to reach it: the endpoint URL, region, bucket, credentials.
/// Path-style addressing (`<endpoint>/<bucket>/<key>`), which every S3-compatible store accepts.
public struct S3Endpoint: Sendable {
    public var url: URL
    public var bucket: String
    public var region: String
    public var credentials: SigV4Signer.Credentials
    /// Seconds a request may take before it counts as a network failure.
    public var timeout: TimeInterval

    public init(
        url: URL, bucket: String, region: String, credentials: SigV4Signer.Credentials, timeout: TimeInterval = 30
    ) {
        self.url = url
        self.bucket = bucket
        self.region = region
        self.credentials = credentials
        self.timeout = timeout
    }

    /// From the AWS environment variables: `AWS_ENDPOINT_URL` (else AWS's own endpoint for the
    /// region), `AWS_REGION`/`AWS_DEFAULT_REGION` (default us-east-1), `AWS_ACCESS_KEY_ID`,
    /// `AWS_SECRET_ACCESS_KEY`, `AWS_SESSION_TOKEN`. Throws `notAuthenticated` without keys.
    public static func fromEnvironment(bucket: String, _ environment: [String: String]) throws -> S3Endpoint {
        func value(_ name: String) -> String? { environment[name].flatMap { $0.isEmpty ? nil : $0 } }
        let region = value("AWS_REGION") ?? value("AWS_DEFAULT_REGION") ?? "us-east-1"
        let text = value("AWS_ENDPOINT_URL") ?? "https://s3.\(region).amazonaws.com"
        guard let url = URL(string: text), let scheme = url.scheme, ["http", "https"].contains(scheme),
            url.host != nil
        else {
            throw CloudError(.invalidArguments, "AWS_ENDPOINT_URL is not an http(s) URL: \(text)")
        }
        guard let key = value("AWS_ACCESS_KEY_ID"), let secret = value("AWS_SECRET_ACCESS_KEY") else {
            throw CloudError(
                .notAuthenticated,
                "no S3 credentials: set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY (and AWS_ENDPOINT_URL for a store "
                    + "other than AWS)")
        }
        return S3Endpoint(
            url: url, bucket: bucket, region: region,
            credentials: .init(accessKeyID: key, secretAccessKey: secret, sessionToken: value("AWS_SESSION_TOKEN")))
    }

    /// `host[:port]` as the Host header carries it.
    var hostHeader: String {
        let host = url.host ?? ""
        guard let port = url.port else { return host }
        let defaultPort = url.scheme == "https" ? 443 : 80
        return port == defaultPort ? host : "\(host):\(port)"
    }

    /// The endpoint's own path (usually empty), without a trailing slash.
    var basePath: String {
        var path = url.path
        while path.hasSuffix("/") { path.removeLast() }
        return path
    }
}
