import Crypto

extension IdentityCode {
    /// The member id of a shared place (SYNC-FORMAT "Shared containers"): the first 16 bytes, in
    /// lowercase hex, of SHA-256(X25519 public key ‖ Ed25519 public key), the hash the
    /// fingerprint is taken from. The name is not part of it.
    public var memberID: String {
        let digest = SHA256.hash(data: Array(agreementKey.rawRepresentation) + Array(signingKey.rawRepresentation))
        return FolderSeal.hex(Array(digest).prefix(16))
    }

    /// Whether `text` is a member id: 32 lowercase hex digits.
    static func isMemberID(_ text: String) -> Bool {
        text.utf8.count == 32 && text.utf8.allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }
    }
}

extension AccountIdentity {
    /// The Ed25519 signature of `message` by this account's signing key.
    func signature(of message: [UInt8]) -> [UInt8] {
        do {
            return Array(try signing.signature(for: message))
        } catch {
            // Ed25519 signing over bytes in memory has no failure mode in swift-crypto's backends.
            preconditionFailure("Ed25519 signing failed: \(error)")
        }
    }

    /// This account's member id in a shared place.
    public var memberID: String { code.memberID }
}
