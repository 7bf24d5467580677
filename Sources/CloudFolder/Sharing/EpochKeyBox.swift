import Crypto
import Foundation
import NotesCore

/// An epoch's key sealed to one member (SYNC-FORMAT rule 19): HPKE base mode (RFC 9180) with
/// DHKEM(X25519, HKDF-SHA256), HKDF-SHA256 and ChaCha20-Poly1305, to the member's X25519 key, the
/// info binding the share, the epoch and the member, so a box moved to another member's or
/// epoch's path does not open.
public struct EpochKeyBox: Sendable, Equatable {
    public static let ciphersuite = HPKE.Ciphersuite.Curve25519_SHA256_ChachaPoly
    static let infoContext = Array("cloudnotes epoch key v1".utf8)
    static let keyBytes = 32

    /// The entry the box was written under (its epoch is the box's).
    public let entry: Int64
    /// HPKE's encapsulated key.
    let enc: [UInt8]
    /// The key's ciphertext and tag.
    let sealed: [UInt8]

    /// The HPKE info: `cloudnotes epoch key v1` 0 share 0 epoch (decimal) 0 member.
    static func info(share: String, epoch: Int64, member: String) -> Data {
        Data(infoContext + [0] + Array(share.utf8) + [0] + Array(String(epoch).utf8) + [0] + Array(member.utf8))
    }

    /// Seals `key` to `member`'s X25519 key.
    public static func seal(
        _ key: SymmetricKey, to member: IdentityCode, share: String, epoch: Int64, entry: Int64
    ) throws(ShareError) -> EpochKeyBox {
        do {
            var sender = try HPKE.Sender(
                recipientKey: member.agreementKey, ciphersuite: ciphersuite,
                info: info(share: share, epoch: epoch, member: member.memberID))
            let sealed = try key.withUnsafeBytes { try sender.seal(Array($0)) }
            return EpochKeyBox(entry: entry, enc: Array(sender.encapsulatedKey), sealed: Array(sealed))
        } catch {
            throw ShareError(
                .invalid, "the epoch key could not be sealed for \(member.name): \(CloudError.sentence(for: error))")
        }
    }

    init(entry: Int64, enc: [UInt8], sealed: [UInt8]) {
        self.entry = entry
        self.enc = enc
        self.sealed = sealed
    }

    /// Opens the box with `identity`'s X25519 key; throws `notForYou` when it does not open
    /// (another member's box, another epoch's, or tampered).
    public func open(with identity: AccountIdentity, share: String, epoch: Int64) throws(ShareError) -> SymmetricKey {
        do {
            var recipient = try HPKE.Recipient(
                privateKey: identity.agreement, ciphersuite: Self.ciphersuite,
                info: Self.info(share: share, epoch: epoch, member: identity.memberID), encapsulatedKey: Data(enc))
            let key = try recipient.open(sealed)
            guard key.count == Self.keyBytes else { throw ShareError(.notForYou, "wrong length") }
            return SymmetricKey(data: key)
        } catch {
            throw ShareError(
                .notForYou,
                "the key box of epoch \(epoch) does not open with this account's key (it is for someone else, "
                    + "or was altered)")
        }
    }

    var body: JSONValue {
        .object(["enc": .string(FolderSeal.hex(enc)), "entry": .int(entry), "sealed": .string(FolderSeal.hex(sealed))])
    }

    init(body: JSONValue) throws(ShareError) {
        guard case .object(let fields) = body, fields.count == 3, let entry = body["entry"]?.intValue,
            (1...CloudLayout.maxSeq).contains(entry), let enc = body["enc"]?.stringValue.flatMap(FolderSeal.unhex),
            enc.count == 32, let sealed = body["sealed"]?.stringValue.flatMap(FolderSeal.unhex),
            sealed.count == Self.keyBytes + 16
        else { throw ShareError(.malformed, "an epoch key box is not of the format") }
        self.init(entry: entry, enc: enc, sealed: sealed)
    }
}
