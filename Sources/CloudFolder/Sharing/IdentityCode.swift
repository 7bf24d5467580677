import Crypto
import Foundation

/// The public half of an account's identity (issue 24, SYNC-FORMAT "Identities"), as one line a
/// person can paste: `cnid1.<keys>.<name>`, where `<keys>` is the base64url (no padding) of the
/// X25519 public key, the Ed25519 public key and the Ed25519 signature of
/// `cloudnotes identity v1` ‖ both keys ‖ the name's UTF-8, and `<name>` is the base64url of the
/// display name. The signature proves the code was made by whoever holds the signing key, so a
/// pasted code whose name or encryption key was swapped does not check out.
public struct IdentityCode: Sendable, Equatable {
    static let prefix = "cnid1"
    static let context = Array("cloudnotes identity v1".utf8)
    /// The longest display name, in UTF-8 bytes.
    public static let maximumNameBytes = 64

    public let agreementKey: Curve25519.KeyAgreement.PublicKey
    public let signingKey: Curve25519.Signing.PublicKey
    public let name: String
    let signature: Data

    public static func == (lhs: IdentityCode, rhs: IdentityCode) -> Bool { lhs.text == rhs.text }

    /// The bytes the signature covers.
    static func signed(
        agreement: Curve25519.KeyAgreement.PublicKey, signing: Curve25519.Signing.PublicKey, name: String
    ) -> [UInt8] {
        context + Array(agreement.rawRepresentation) + Array(signing.rawRepresentation) + Array(name.utf8)
    }

    init(
        agreementKey: Curve25519.KeyAgreement.PublicKey, signingKey: Curve25519.Signing.PublicKey, name: String,
        signature: Data
    ) {
        self.agreementKey = agreementKey
        self.signingKey = signingKey
        self.name = name
        self.signature = signature
    }

    /// The line to paste.
    public var text: String {
        let keys = agreementKey.rawRepresentation + signingKey.rawRepresentation + signature
        return "\(Self.prefix).\(Base64URL.encode(keys)).\(Base64URL.encode(Data(name.utf8)))"
    }

    /// A code read from a person's paste; surrounding white space is ignored. Throws a sentence
    /// saying what is wrong (never crashes on any input).
    public init(text raw: String) throws(IdentityCodeError) {
        let text = raw.trimmingCharacters(in: .whitespacesAndNewlines)
        guard text.utf8.count <= 400 else { throw .malformed("it is too long to be an identity code") }
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0] == Self.prefix else {
            throw .malformed("an identity code starts with \(Self.prefix). and has three parts")
        }
        guard let keys = Base64URL.decode(String(parts[1])), keys.count == 32 + 32 + 64 else {
            throw .malformed("its keys part is damaged (a character changed, added or missing)")
        }
        guard let nameBytes = Base64URL.decode(String(parts[2])),
            let name = String(validating: nameBytes, as: UTF8.self),
            Self.isAcceptableName(name)
        else { throw .malformed("its name part is damaged or not a printable name") }
        let agreement: Curve25519.KeyAgreement.PublicKey
        let signing: Curve25519.Signing.PublicKey
        do {
            agreement = try Curve25519.KeyAgreement.PublicKey(rawRepresentation: keys.prefix(32))
            signing = try Curve25519.Signing.PublicKey(rawRepresentation: keys.dropFirst(32).prefix(32))
        } catch {
            throw .malformed("its keys part does not hold two public keys")
        }
        let signature = Data(keys.suffix(64))
        guard signing.isValidSignature(signature, for: Self.signed(agreement: agreement, signing: signing, name: name))
        else { throw .doesNotVerify }
        self.init(agreementKey: agreement, signingKey: signing, name: name, signature: signature)
    }

    /// A display name: 1 to 64 UTF-8 bytes, no control characters.
    public static func isAcceptableName(_ name: String) -> Bool {
        !name.isEmpty && name.utf8.count <= maximumNameBytes
            && !name.unicodeScalars.contains { $0.properties.generalCategory == .control || $0 == "\u{7F}" }
    }

    /// What two people compare aloud: six groups of four digits from the SHA-256 of both public
    /// keys (each group is a 5-byte big-endian slice of the hash, modulo 10,000). The name is
    /// not part of it: a code renamed by its owner keeps its fingerprint.
    public var fingerprint: String {
        let digest = Array(
            SHA256.hash(data: Array(agreementKey.rawRepresentation) + Array(signingKey.rawRepresentation)))
        return (0..<6).map { group -> String in
            let value = digest[group * 5..<group * 5 + 5].reduce(UInt64(0)) { $0 << 8 | UInt64($1) } % 10_000
            let digits = String(value)
            return String(repeating: "0", count: 4 - digits.count) + digits
        }.joined(separator: " ")
    }
}

/// Why a pasted identity code was refused.
public enum IdentityCodeError: Error, Equatable, CustomStringConvertible {
    case malformed(String)
    case doesNotVerify

    public var description: String {
        switch self {
        case .malformed(let why): "not an identity code: \(why)"
        case .doesNotVerify:
            "the identity code does not check out: its signature does not match its keys and name (altered, or "
                + "pieces of two codes)"
        }
    }
}

/// Base64url without padding (RFC 4648 §5), strict: a text that is not the one encoding of its
/// bytes is refused.
enum Base64URL {
    static func encode(_ data: Data) -> String {
        data.base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    static func decode(_ text: String) -> Data? {
        guard
            text.utf8.allSatisfy({
                $0 == 0x2D || $0 == 0x5F || (0x30...0x39).contains($0) || (0x41...0x5A).contains($0)
                    || (0x61...0x7A).contains($0)
            })
        else { return nil }
        var standard = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        standard += String(repeating: "=", count: (4 - standard.utf8.count % 4) % 4)
        guard let data = Data(base64Encoded: standard), encode(data) == text else { return nil }
        return data
    }
}
