import Foundation
import NotesCore

/// Where an `s3://` location's settings come from, key by key (DECISIONS session 12): the AWS
/// environment variables, then the config file's `s3` section, then the profile of
/// `~/.aws/credentials` and `~/.aws/config` (`AWS_PROFILE`, else the section's `profile`, else
/// `default`).
extension S3Endpoint {
    /// Reads a small file (at most `AWSProfileFile.maxBytes`); nil when there is none.
    public static func readSmallFile(_ path: String) -> [UInt8]? {
        guard let handle = FileHandle(forReadingAtPath: path) else { return nil }
        defer { try? handle.close() }
        // nil from the read: an empty file, or one that cannot be read; either holds nothing.
        guard let data = try? handle.read(upToCount: AWSProfileFile.maxBytes) else { return [] }
        return Array(data)
    }

    /// The endpoint for `bucket`. Throws `notAuthenticated` when no source has credentials or a
    /// profile named explicitly exists nowhere, `invalidArguments` for an endpoint that is not a
    /// URL. No message holds a secret.
    public static func resolve(
        bucket: String, environment: [String: String], settings: S3Settings = S3Settings(),
        readFile: (String) -> [UInt8]? = S3Endpoint.readSmallFile
    ) throws -> S3Endpoint {
        func env(_ name: String) -> String? { environment[name].flatMap { $0.isEmpty ? nil : $0 } }
        let home = env("HOME") ?? NSHomeDirectory()
        let named = env("AWS_PROFILE") ?? settings.profile
        let profile = named ?? "default"
        let configPath = env("AWS_CONFIG_FILE") ?? home + "/.aws/config"
        let credentialsPath = env("AWS_SHARED_CREDENTIALS_FILE") ?? home + "/.aws/credentials"
        let configFile = readFile(configPath).map(AWSProfileFile.init(parsing:))?.configProfile(profile)
        let credentialsFile = readFile(credentialsPath).map(AWSProfileFile.init(parsing:))?.credentialsProfile(profile)
        let fromConfig = configFile ?? [:]
        let fromCredentials = credentialsFile ?? [:]
        func nonEmpty(_ value: String?) -> String? { value.flatMap { $0.isEmpty ? nil : $0 } }

        let region =
            env("AWS_REGION") ?? env("AWS_DEFAULT_REGION") ?? settings.region ?? nonEmpty(fromConfig["region"])
            ?? "us-east-1"
        let given =
            env("AWS_ENDPOINT_URL_S3") ?? env("AWS_ENDPOINT_URL") ?? settings.endpoint
            ?? nonEmpty(fromConfig["s3.endpoint_url"]) ?? nonEmpty(fromConfig["endpoint_url"])
        let text = given ?? "https://s3.\(region).amazonaws.com"
        guard let url = URL(string: text), let scheme = url.scheme, ["http", "https"].contains(scheme),
            url.host != nil
        else {
            throw CloudError(.invalidArguments, "the S3 endpoint is not an http(s) URL: \(text)")
        }

        let credentials: SigV4Signer.Credentials
        if let key = env("AWS_ACCESS_KEY_ID"), let secret = env("AWS_SECRET_ACCESS_KEY") {
            credentials = .init(accessKeyID: key, secretAccessKey: secret, sessionToken: env("AWS_SESSION_TOKEN"))
        } else if let key = settings.accessKeyID, let secret = settings.secretAccessKey {
            credentials = .init(accessKeyID: key, secretAccessKey: secret, sessionToken: settings.sessionToken)
        } else if let found = profileCredentials(fromCredentials) ?? profileCredentials(fromConfig) {
            credentials = found
        } else if let named, configFile == nil, credentialsFile == nil {
            throw CloudError(
                .notAuthenticated,
                "the AWS profile \(named) is in neither \(credentialsPath) nor \(configPath)")
        } else {
            throw CloudError(
                .notAuthenticated,
                "no S3 credentials: set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY (and AWS_ENDPOINT_URL for a store "
                    + "other than AWS), accessKeyId and secretAccessKey in the config's s3 section, or a profile in "
                    + credentialsPath)
        }

        let style = settings.addressing ?? nonEmpty(fromConfig["s3.addressing_style"])
        let addressing: Addressing
        switch style {
        case "path": addressing = .path
        case "virtual": addressing = .virtual
        default:
            // Auto: virtual-host on AWS's own endpoints for a bucket that can be a host name.
            let aws = url.host?.hasSuffix(".amazonaws.com") == true
            addressing = aws && Self.isHostSafe(bucket) ? .virtual : .path
        }
        return S3Endpoint(
            url: url, bucket: bucket, region: region, credentials: credentials, addressing: addressing)
    }

    /// Access keys of a profile section, if it has both.
    static func profileCredentials(_ section: [String: String]) -> SigV4Signer.Credentials? {
        guard let key = section["aws_access_key_id"], !key.isEmpty, let secret = section["aws_secret_access_key"],
            !secret.isEmpty
        else { return nil }
        let token = section["aws_session_token"].flatMap { $0.isEmpty ? nil : $0 }
        return .init(accessKeyID: key, secretAccessKey: secret, sessionToken: token)
    }

    /// Whether a bucket name can be the first label of a host name (lowercase letters, digits,
    /// hyphens; no dots, which TLS wildcard certificates do not cover).
    static func isHostSafe(_ bucket: String) -> Bool {
        !bucket.isEmpty && bucket.count <= 63 && !bucket.hasPrefix("-") && !bucket.hasSuffix("-")
            && bucket.utf8.allSatisfy {
                ($0 >= UInt8(ascii: "a") && $0 <= UInt8(ascii: "z"))
                    || ($0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9"))
                    || $0 == UInt8(ascii: "-")
            }
    }
}
