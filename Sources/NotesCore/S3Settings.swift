/// The `s3` section of the config file: where a bucket is and how to sign for it. Every key is
/// optional; the AWS environment variables win over it and it wins over `~/.aws` profiles
/// (DECISIONS session 12). The secrets are never printed (`config` shows whether they are set).
public struct S3Settings: Sendable, Equatable {
    public var endpoint: String?
    public var region: String?
    public var profile: String?
    public var accessKeyID: String?
    public var secretAccessKey: String?
    public var sessionToken: String?
    /// `path` (`<endpoint>/<bucket>/<key>`) or `virtual` (`<bucket>.<host>/<key>`); nil: virtual
    /// on AWS's own endpoints, path elsewhere.
    public var addressing: String?

    public init(
        endpoint: String? = nil, region: String? = nil, profile: String? = nil, accessKeyID: String? = nil,
        secretAccessKey: String? = nil, sessionToken: String? = nil, addressing: String? = nil
    ) {
        self.endpoint = endpoint
        self.region = region
        self.profile = profile
        self.accessKeyID = accessKeyID
        self.secretAccessKey = secretAccessKey
        self.sessionToken = sessionToken
        self.addressing = addressing
    }

    /// The keys of the section, as the file spells them.
    public static let keys = [
        "endpoint", "region", "profile", "accessKeyId", "secretAccessKey", "sessionToken", "addressing",
    ]
    /// The keys whose values are secrets: never shown, never in an error message.
    public static let secretKeys: Set<String> = ["secretAccessKey", "sessionToken"]
    public static let addressingStyles = ["path", "virtual"]

    /// What `config` shows: each key set, secrets as `(set)`, the access key id cut to its last
    /// four characters.
    public var redacted: [String: String] {
        var shown: [String: String] = [:]
        shown["endpoint"] = endpoint
        shown["region"] = region
        shown["profile"] = profile
        shown["addressing"] = addressing
        shown["accessKeyId"] = accessKeyID.map { $0.count > 4 ? "…" + String($0.suffix(4)) : "(set)" }
        shown["secretAccessKey"] = secretAccessKey.map { _ in "(set)" }
        shown["sessionToken"] = sessionToken.map { _ in "(set)" }
        return shown
    }
}
