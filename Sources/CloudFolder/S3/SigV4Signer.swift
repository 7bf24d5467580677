import Crypto
import Foundation

/// AWS Signature Version 4 (header form), the request signing S3 and S3-compatible stores
/// accept (ARCHITECTURE §4: the S3 backend of `S3FileIO`).
///
/// Paths and query values are given unencoded and encoded here the S3 way: every byte but the
/// unreserved `A-Z a-z 0-9 - _ . ~` is percent-encoded, `/` kept in paths; paths are never
/// normalized (an S3 key may hold `//` or `.`).
public struct SigV4Signer: Sendable {
    public struct Credentials: Sendable, Equatable {
        public var accessKeyID: String
        public var secretAccessKey: String
        public var sessionToken: String?

        public init(accessKeyID: String, secretAccessKey: String, sessionToken: String? = nil) {
            self.accessKeyID = accessKeyID
            self.secretAccessKey = secretAccessKey
            self.sessionToken = sessionToken
        }
    }

    /// A request as signed: `headers` are the ones to sign besides `x-amz-date` (and the session
    /// token), which `sign` adds.
    public struct Request: Sendable {
        public var method: String
        public var path: String
        public var query: [(String, String)]
        public var headers: [(String, String)]
        public var payloadHash: String

        public init(
            method: String, path: String, query: [(String, String)] = [], headers: [(String, String)],
            payloadHash: String
        ) {
            self.method = method
            self.path = path
            self.query = query
            self.headers = headers
            self.payloadHash = payloadHash
        }
    }

    public var credentials: Credentials
    public var region: String
    public var service: String

    public init(credentials: Credentials, region: String, service: String = "s3") {
        self.credentials = credentials
        self.region = region
        self.service = service
    }

    /// The headers to add to the request: `x-amz-date`, the session token if any, and
    /// `Authorization`.
    public func sign(_ request: Request, at date: Date) -> [(String, String)] {
        let stamp = Self.timestamp(date)
        var added = [("X-Amz-Date", stamp)]
        if let token = credentials.sessionToken { added.append(("X-Amz-Security-Token", token)) }
        var signed = request
        signed.headers += added
        let (canonical, signedHeaders) = Self.canonicalRequest(signed)
        let scope = "\(stamp.prefix(8))/\(region)/\(service)/aws4_request"
        let toSign = Self.stringToSign(canonical, timestamp: stamp, scope: scope)
        let signature = self.signature(toSign, day: String(stamp.prefix(8)))
        added.append(
            (
                "Authorization",
                "AWS4-HMAC-SHA256 Credential=\(credentials.accessKeyID)/\(scope), SignedHeaders=\(signedHeaders), "
                    + "Signature=\(signature)"
            ))
        return added
    }

    /// The canonical request and its signed-headers list.
    public static func canonicalRequest(_ request: Request) -> (String, String) {
        var pairs: [(String, String)] = []
        for (name, value) in request.query {
            pairs.append((encode(name, keepSlash: false), encode(value, keepSlash: false)))
        }
        pairs.sort { (a: (String, String), b: (String, String)) -> Bool in a.0 == b.0 ? a.1 < b.1 : a.0 < b.0 }
        let query = pairs.map { (pair: (String, String)) -> String in pair.0 + "=" + pair.1 }.joined(separator: "&")
        var merged: [String: [String]] = [:]
        for (name, value) in request.headers {
            merged[name.lowercased(), default: []].append(trimmed(value))
        }
        let names = merged.keys.sorted()
        let headerLines = names.map { "\($0):\(merged[$0, default: []].joined(separator: ","))\n" }.joined()
        let signedHeaders = names.joined(separator: ";")
        let canonical = [
            request.method, encode(request.path, keepSlash: true), query, headerLines, signedHeaders,
            request.payloadHash,
        ].joined(separator: "\n")
        return (canonical, signedHeaders)
    }

    public static func stringToSign(_ canonicalRequest: String, timestamp: String, scope: String) -> String {
        "AWS4-HMAC-SHA256\n\(timestamp)\n\(scope)\n\(hex(SHA256.hash(data: Array(canonicalRequest.utf8))))"
    }

    /// The hex signature of a string to sign, with the key derived for `day` (`yyyyMMdd`).
    public func signature(_ stringToSign: String, day: String) -> String {
        var key = SymmetricKey(data: Array(("AWS4" + credentials.secretAccessKey).utf8))
        for part in [day, region, service, "aws4_request"] {
            key = SymmetricKey(data: Data(HMAC<SHA256>.authenticationCode(for: Array(part.utf8), using: key)))
        }
        return Self.hex(HMAC<SHA256>.authenticationCode(for: Array(stringToSign.utf8), using: key))
    }

    /// `yyyyMMdd'T'HHmmss'Z'` in UTC.
    public static func timestamp(_ date: Date) -> String {
        var seconds = time_t(date.timeIntervalSince1970.rounded(.down))
        var parts = tm()
        gmtime_r(&seconds, &parts)
        func two(_ n: Int32) -> String { n < 10 ? "0\(n)" : "\(n)" }
        return "\(parts.tm_year + 1900)\(two(parts.tm_mon + 1))\(two(parts.tm_mday))T"
            + "\(two(parts.tm_hour))\(two(parts.tm_min))\(two(parts.tm_sec))Z"
    }

    /// Percent-encodes every byte but the unreserved ones (and `/` when `keepSlash`).
    public static func encode(_ text: String, keepSlash: Bool) -> String {
        var out = ""
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "."),
                UInt8(ascii: "~"):
                out.unicodeScalars.append(Unicode.Scalar(byte))
            case UInt8(ascii: "/") where keepSlash:
                out.append("/")
            default:
                let digits = Array("0123456789ABCDEF")
                out += "%" + String(digits[Int(byte >> 4)]) + String(digits[Int(byte & 0x0f)])
            }
        }
        return out
    }

    /// A header value with leading and trailing spaces cut and runs of spaces made one.
    static func trimmed(_ value: String) -> String {
        value.split(separator: " ", omittingEmptySubsequences: true).joined(separator: " ")
    }

    public static func hex<D: Sequence>(_ bytes: D) -> String where D.Element == UInt8 {
        let digits = Array("0123456789abcdef")
        var out = ""
        for byte in bytes {
            out.append(digits[Int(byte >> 4)])
            out.append(digits[Int(byte & 0x0f)])
        }
        return out
    }
}
