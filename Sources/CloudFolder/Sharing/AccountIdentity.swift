import Crypto
import Foundation
import NotesCore

/// An account's identity for sharing (issue 24, SYNC-FORMAT "Identities"): a key pair for
/// encryption (X25519) and one for signing (Ed25519), from swift-crypto, and a display name.
/// Every device of the account holds the same one, so they act as the same person: it is kept
/// in the encrypted container (`private/identity.json`, sealed) and in each device's data
/// directory; a plain container never holds it (anyone with the folder could read it).
public struct AccountIdentity: Sendable {
    public let agreement: Curve25519.KeyAgreement.PrivateKey
    public let signing: Curve25519.Signing.PrivateKey
    public let name: String

    public init(agreement: Curve25519.KeyAgreement.PrivateKey, signing: Curve25519.Signing.PrivateKey, name: String) {
        self.agreement = agreement
        self.signing = signing
        self.name = name
    }

    /// A new identity with fresh random keys.
    public static func generate(name: String) -> AccountIdentity {
        AccountIdentity(agreement: .init(), signing: .init(), name: name)
    }

    /// The same keys under another display name.
    public func renamed(_ name: String) -> AccountIdentity {
        AccountIdentity(agreement: agreement, signing: signing, name: name)
    }

    /// The code to hand to others: the public keys and the name, signed.
    public var code: IdentityCode {
        let signed = IdentityCode.signed(
            agreement: agreement.publicKey, signing: signing.publicKey, name: name)
        let signature: Data
        do {
            signature = try signing.signature(for: signed)
        } catch {
            // Ed25519 signing over bytes in memory has no failure mode in swift-crypto's backends.
            preconditionFailure("Ed25519 signing failed: \(error)")
        }
        return IdentityCode(
            agreementKey: agreement.publicKey, signingKey: signing.publicKey, name: name, signature: signature)
    }

    /// Whether both identities hold the same keys (names aside).
    public func sameKeys(as other: AccountIdentity) -> Bool {
        agreement.rawRepresentation == other.agreement.rawRepresentation
            && signing.rawRepresentation == other.signing.rawRepresentation
    }

    // MARK: JSON

    /// `{"agreement": hex, "name": …, "signing": hex}`: private keys, so only ever written sealed
    /// or into a file only its owner can read.
    public var json: JSONValue {
        .object([
            "agreement": .string(FolderSeal.hex(agreement.rawRepresentation)), "name": .string(name),
            "signing": .string(FolderSeal.hex(signing.rawRepresentation)),
        ])
    }

    public init(json: JSONValue) throws {
        guard let agreementHex = json["agreement"]?.stringValue.flatMap(FolderSeal.unhex), agreementHex.count == 32,
            let signingHex = json["signing"]?.stringValue.flatMap(FolderSeal.unhex), signingHex.count == 32,
            let name = json["name"]?.stringValue, IdentityCode.isAcceptableName(name)
        else { throw CloudError(.badContainer, "the identity file is not one of ours") }
        do {
            self.init(
                agreement: try .init(rawRepresentation: agreementHex),
                signing: try .init(rawRepresentation: signingHex),
                name: name)
        } catch {
            throw CloudError(.badContainer, "the identity file holds keys that are not keys")
        }
    }
}
