import Crypto
import Foundation
import NotesCore

/// A file of a shared place signed by its writer's account key (SYNC-FORMAT rule 17): one
/// canonical JSON line `{body, format, kind, share, signature, signer}`, whose signature is the
/// Ed25519 signature of `cloudnotes shared v1` LF and the canonical JSON of the same object
/// without `signature`.
///
/// Parsing checks the shape only; who may have signed a file depends on its kind and on the
/// membership log, so `verifies(by:)` is the caller's step (`MembershipLog`, `SharedPlace`).
public struct SignedFile: Sendable, Equatable {
    /// What a signed file is; also its `kind` field.
    public enum Kind: String, Sendable, CaseIterable {
        /// `shared.json`: the share and its owner.
        case shared
        /// `members/<n>.json`: a membership entry.
        case member
        /// `epochs/<epoch>/<member>.json`: an epoch key boxed for a member.
        case epochKey = "epochkey"
        /// `answers/<member>-<n>.json`: a member's answer to an invitation.
        case answer
    }

    /// The format of signed files this build writes and reads.
    public static let format: Int64 = 1
    /// The largest signed file read.
    public static let maxBytes = 1 << 20
    static let context = Array("cloudnotes shared v1\n".utf8)

    public let kind: Kind
    public let share: String
    /// The member id of the signer.
    public let signer: String
    public let body: JSONValue
    let signature: [UInt8]
    /// The file's bytes, as read or written.
    public let bytes: [UInt8]

    /// The bytes the signature covers.
    static func signed(kind: Kind, share: String, signer: String, body: JSONValue) -> [UInt8] {
        let object: JSONValue = .object([
            "body": body, "format": .int(format), "kind": .string(kind.rawValue), "share": .string(share),
            "signer": .string(signer),
        ])
        return context + object.canonicalBytes
    }

    static func encoded(kind: Kind, share: String, signer: String, body: JSONValue, signature: [UInt8]) -> [UInt8] {
        let object: JSONValue = .object([
            "body": body, "format": .int(format), "kind": .string(kind.rawValue), "share": .string(share),
            "signature": .string(FolderSeal.hex(signature)), "signer": .string(signer),
        ])
        return object.canonicalBytes + [0x0A]
    }

    /// A file of `kind` with `body`, signed by `identity`.
    public init(kind: Kind, share: String, body: JSONValue, signedBy identity: AccountIdentity) {
        let signer = identity.memberID
        let signature = identity.signature(of: Self.signed(kind: kind, share: share, signer: signer, body: body))
        self.kind = kind
        self.share = share
        self.signer = signer
        self.body = body
        self.signature = signature
        self.bytes = Self.encoded(kind: kind, share: share, signer: signer, body: body, signature: signature)
    }

    /// Reads a file that must be of `kind` in the share `share` (any share when nil: `shared.json`,
    /// which says which share it is); throws a sentence naming `path` when it is not exactly such
    /// a file. Never crashes on any bytes.
    public init(parsing bytes: [UInt8], kind: Kind, share: String?, path: String) throws(ShareError) {
        func malformed(_ why: String) -> ShareError {
            ShareError(.malformed, "\(path) is not a shared file of ours: \(why)")
        }
        guard bytes.count <= Self.maxBytes else { throw malformed("it is larger than \(Self.maxBytes) bytes") }
        guard bytes.last == 0x0A else { throw malformed("it does not end with a newline (cut short?)") }
        let json: JSONValue
        do {
            json = try JSONValue(parsing: Data(bytes.dropLast()))
        } catch {
            throw malformed("it is not valid JSON")
        }
        guard case .object(let fields) = json, fields.count == 6, let format = json["format"]?.intValue,
            let kindText = json["kind"]?.stringValue, let shareText = json["share"]?.stringValue,
            let signer = json["signer"]?.stringValue, let signatureText = json["signature"]?.stringValue,
            let body = json["body"], case .object = body
        else { throw malformed("its fields are missing, extra or of the wrong type") }
        guard format == Self.format else {
            if format > Self.format {
                throw ShareError(
                    .newerFormat, "\(path) was written by a newer program (shared format \(format)); update cloudnotes")
            }
            throw malformed("format \(format)")
        }
        guard kindText == kind.rawValue else {
            throw malformed("it is a \(kindText) file where a \(kind.rawValue) is expected")
        }
        guard share.map({ $0 == shareText }) ?? (UUID(uuidString: shareText)?.lowercasedString == shareText) else {
            throw malformed("it belongs to another share")
        }
        guard IdentityCode.isMemberID(signer) else { throw malformed("its signer is not a member id") }
        guard let signature = FolderSeal.unhex(signatureText), signature.count == 64 else {
            throw malformed("its signature is not 64 bytes of hex")
        }
        guard Self.encoded(kind: kind, share: shareText, signer: signer, body: body, signature: signature) == bytes
        else {
            throw malformed("it is not in canonical form")
        }
        self.kind = kind
        self.share = shareText
        self.signer = signer
        self.body = body
        self.signature = signature
        self.bytes = bytes
    }

    /// Whether the signature verifies under `key` (the signer's, as the membership log names it).
    public func verifies(by key: Curve25519.Signing.PublicKey) -> Bool {
        key.isValidSignature(signature, for: Self.signed(kind: kind, share: share, signer: signer, body: body))
    }

    /// Whether `code` is the signer's and the signature verifies under its key.
    public func isSigned(by code: IdentityCode) -> Bool {
        code.memberID == signer && verifies(by: code.signingKey)
    }
}
