import Crypto
import NotesCore

/// The signature a change batch or snapshot of a shared container carries: who wrote it, the
/// membership entry it relies on (SYNC-FORMAT rule 20), and the Ed25519 signature of
/// `cloudnotes shared batch v1` LF and the canonical JSON of `{entry, sha256, share, signer}`.
public struct BatchSignature: Sendable, Equatable {
    static let context = Array("cloudnotes shared batch v1\n".utf8)

    public let entry: Int64
    /// The hex SHA-256 of the signed bytes (a body's canonical bytes).
    public let sha256: String
    public let signer: String
    let signature: [UInt8]

    static func signed(share: String, entry: Int64, sha256: String, signer: String) -> [UInt8] {
        let object: JSONValue = .object([
            "entry": .int(entry), "sha256": .string(sha256), "share": .string(share), "signer": .string(signer),
        ])
        return context + object.canonicalBytes
    }

    /// Signs `bytes` as `identity`, relying on entry `entry` of `share`'s log.
    public init(signing bytes: [UInt8], share: String, entry: Int64, by identity: AccountIdentity) {
        self.entry = entry
        self.sha256 = Envelope.sha256(bytes)
        self.signer = identity.memberID
        self.signature = identity.signature(
            of: Self.signed(share: share, entry: entry, sha256: sha256, signer: signer))
    }

    public var json: JSONValue {
        .object([
            "entry": .int(entry), "sha256": .string(sha256), "signature": .string(FolderSeal.hex(signature)),
            "signer": .string(signer),
        ])
    }

    public init(json: JSONValue) throws(ShareError) {
        guard case .object(let fields) = json, fields.count == 4, let entry = json["entry"]?.intValue,
            (1...CloudLayout.maxSeq).contains(entry), let sha256 = json["sha256"]?.stringValue,
            sha256.utf8.count == 64, FolderSeal.unhex(sha256) != nil, let signer = json["signer"]?.stringValue,
            IdentityCode.isMemberID(signer), let signature = json["signature"]?.stringValue.flatMap(FolderSeal.unhex),
            signature.count == 64
        else { throw ShareError(.malformed, "a change's signature is not of the format") }
        self.entry = entry
        self.sha256 = sha256
        self.signer = signer
        self.signature = signature
    }

    /// Checks that `bytes` (a device file) are signed by a member of the entry named who is not
    /// removed there nor since: any role keeps a device file, read-only members too.
    public func checkMember(_ bytes: [UInt8], log: MembershipLog, device: String) throws(ShareError) {
        guard Envelope.sha256(bytes) == sha256 else {
            throw ShareError(.notAllowed, "a file's signature is for other bytes")
        }
        guard let entry = log.entry(entry) else {
            throw ShareError(.missing, "a file relies on membership entry \(self.entry), not checked here yet")
        }
        guard let member = entry.member(signer), member.status != .removed,
            log.head.member(signer)?.status != .removed
        else { throw ShareError(.notAllowed, "a device file is signed by someone who is not a member") }
        guard
            member.code.signingKey.isValidSignature(
                signature, for: Self.signed(share: log.share, entry: self.entry, sha256: sha256, signer: signer))
        else { throw ShareError(.notAllowed, "a device file's signature by \(member.code.name) does not verify") }
    }

    /// Checks that `bytes`, written by `device` at `seq`, may be applied (rule 20): the entry is
    /// one `log` has checked, the signer may write there, the signature verifies, and a signer
    /// removed since is held to their removal's cutoff.
    public func check(_ bytes: [UInt8], log: MembershipLog, device: String, seq: Int64) throws(ShareError) {
        guard Envelope.sha256(bytes) == sha256 else {
            throw ShareError(.notAllowed, "a change's signature is for other bytes")
        }
        guard let entry = log.entry(entry) else {
            throw ShareError(.missing, "a change relies on membership entry \(self.entry), not checked here yet")
        }
        guard let member = entry.member(signer) else {
            throw ShareError(.notAllowed, "a change is signed by someone who is not a member")
        }
        guard member.canWrite else {
            throw ShareError(
                .notAllowed,
                "a change signed by \(member.code.name) was refused: they are \(member.status == .removed ? "removed" : member.role.rawValue) at entry \(self.entry)"
            )
        }
        guard
            member.code.signingKey.isValidSignature(
                signature, for: Self.signed(share: log.share, entry: self.entry, sha256: sha256, signer: signer))
        else { throw ShareError(.notAllowed, "a change's signature by \(member.code.name) does not verify") }
        if let now = log.head.member(signer), now.status == .removed, seq > now.cutoff?[device] ?? 0 {
            throw ShareError(
                .notAllowed,
                "a change by \(member.code.name) was refused: written after their removal (entry \(log.head.number))")
        }
    }
}
