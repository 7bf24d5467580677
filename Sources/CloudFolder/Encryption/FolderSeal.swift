import Crypto
import Foundation
import NotesCore

/// The sealing of an encrypted container's files (SYNC-FORMAT rule 14): every file under
/// `private/` is the AEAD seal of its plaintext bytes, bound to the file's name, and every zone
/// folder has an opaque name.
///
/// A sealed file is `CNSEAL1\n`, a 12-byte nonce, the ChaCha20-Poly1305 ciphertext and its
/// 16-byte tag. The plaintext is the file's bytes behind a 4-byte big-endian length, zero-padded
/// to a Padmé bucket (`Padding`), so a file's size says little about its content. The associated
/// data is the file's path relative to the folder, so a file moved, swapped or replayed under
/// another name does not open. The nonce is synthetic (SIV-style: an HMAC of the name and the
/// bytes), so sealing is deterministic: a retried publication writes identical bytes, which the
/// write-once rule needs (rule 1), and two different files under one name get different nonces.
///
/// Keys: one random 256-bit data key per container (wrapped by the passphrase in the keys file,
/// `KeysFile`); the keys used here are derived from it with HKDF-SHA256, salted with the
/// container id, one per purpose.
public struct FolderSeal: Sendable, Equatable {
    static let magic = Array("CNSEAL1\n".utf8)
    static let nonceSize = 12
    static let tagSize = 16
    /// Bytes a sealed file adds to its padded plaintext.
    public static let overhead = magic.count + nonceSize + tagSize + 4

    private let fileKey: SymmetricKey
    private let nonceKey: SymmetricKey
    private let nameKey: SymmetricKey
    private let nameNonceKey: SymmetricKey
    /// Keys the content hash of assets, so equal content dedups within a container only.
    public let assetKey: SymmetricKey
    /// Which data key this is (a hash of it), for equality and for messages; reveals nothing.
    public let keyID: String
    /// The container the keys are derived for.
    public let containerID: String

    public init(dataKey: SymmetricKey, containerID: String) {
        self.containerID = containerID
        func derive(_ purpose: String) -> SymmetricKey {
            HKDF<SHA256>.deriveKey(
                inputKeyMaterial: dataKey, salt: Data(containerID.utf8), info: Data("cloudnotes \(purpose) v1".utf8),
                outputByteCount: 32)
        }
        fileKey = derive("file seal")
        nonceKey = derive("file nonce")
        nameKey = derive("zone name")
        nameNonceKey = derive("zone name nonce")
        assetKey = derive("asset hash")
        keyID = Self.hex(Array(SHA256.hash(data: Data(derive("key id").withUnsafeBytes { Array($0) }))).prefix(8))
    }

    /// A seal over a new random data key (benchmarks and tests).
    public static func withRandomKey(containerID: String) -> FolderSeal {
        FolderSeal(dataKey: SymmetricKey(size: .bits256), containerID: containerID)
    }

    public static func == (lhs: FolderSeal, rhs: FolderSeal) -> Bool { lhs.keyID == rhs.keyID }

    // MARK: Files

    /// Seals `plaintext` as the file named `name` (its path relative to the folder).
    public func seal(_ plaintext: [UInt8], name: String) -> [UInt8] {
        var framed = Padding.frame(plaintext)
        let aad = Array(name.utf8)
        var mac = HMAC<SHA256>(key: nonceKey)
        mac.update(data: Self.bigEndian(UInt64(aad.count)))
        mac.update(data: aad)
        mac.update(data: framed)
        let nonce = Array(mac.finalize()).prefix(Self.nonceSize)
        let box = Self.seal(framed, using: fileKey, nonce: nonce, authenticating: aad)
        framed.removeAll()
        return Self.magic + Array(box.combined)
    }

    /// ChaChaPoly with a 32-byte key and a 12-byte nonce, which cannot fail (swift-crypto throws
    /// only for another nonce size).
    private static func seal(
        _ plaintext: [UInt8], using key: SymmetricKey, nonce: ArraySlice<UInt8>, authenticating aad: [UInt8]
    ) -> ChaChaPoly.SealedBox {
        do {
            return try ChaChaPoly.seal(
                plaintext, using: key, nonce: ChaChaPoly.Nonce(data: nonce), authenticating: aad)
        } catch {
            preconditionFailure("ChaChaPoly.seal with a 12-byte nonce failed: \(error)")
        }
    }

    /// Opens a sealed file read under `name`; the reason in the error says why it does not check out.
    public func open(_ sealed: [UInt8], name: String) throws(SealError) -> [UInt8] {
        guard sealed.count >= Self.magic.count, Array(sealed.prefix(Self.magic.count)) == Self.magic else {
            throw sealed.isEmpty ? .truncated : .notSealed
        }
        guard sealed.count >= Self.magic.count + Self.nonceSize + Self.tagSize + 4 else { throw .truncated }
        let framed: Data
        do {
            let box = try ChaChaPoly.SealedBox(combined: Data(sealed[Self.magic.count...]))
            framed = try ChaChaPoly.open(box, using: fileKey, authenticating: Array(name.utf8))
        } catch {
            throw .doesNotVerify
        }
        guard let plaintext = Padding.unframe(Array(framed)) else { throw .doesNotVerify }
        return plaintext
    }

    /// The most bytes a sealed file of at most `plaintext` bytes can take.
    public static func sealedSize(forAtMost plaintext: Int) -> Int { Padding.paddedSize(plaintext + 4) + overhead - 4 }

    // MARK: Zone folder names

    /// The opaque folder name of a zone: the deterministic seal of its name padded to 64 bytes,
    /// in lowercase hex (184 characters), so the name and its length stay hidden and the name
    /// comes back with the key alone (no file to read per zone).
    public func folderName(_ zone: ZoneID) -> String {
        var padded = Array(zone.rawValue.utf8)
        padded += [UInt8](repeating: 0, count: 64 - padded.count)
        let nonce = Array(HMAC<SHA256>.authenticationCode(for: padded, using: nameNonceKey)).prefix(Self.nonceSize)
        let box = Self.seal(padded, using: nameKey, nonce: nonce, authenticating: Array("zone".utf8))
        return Self.hex(box.combined)
    }

    /// The zone a folder name stands for, or nil when it is not one of this key's names.
    public func zone(folderName: String) -> ZoneID? {
        guard folderName.utf8.count == 184, let bytes = Self.unhex(folderName),
            let box = try? ChaChaPoly.SealedBox(combined: Data(bytes)),
            // Not sealed with this key: not one of our names (nil).
            let padded = try? ChaChaPoly.open(box, using: nameKey, authenticating: Array("zone".utf8))
        else { return nil }
        let name = Array(padded).prefix { $0 != 0 }
        guard padded[padded.startIndex + name.count..<padded.endIndex].allSatisfy({ $0 == 0 }),
            let text = String(validating: name, as: UTF8.self), let zone = ZoneID(text),
            self.folderName(zone) == folderName
        else { return nil }
        return zone
    }

    static func bigEndian(_ value: UInt64) -> [UInt8] {
        (0..<8).map { UInt8(truncatingIfNeeded: value >> (56 - 8 * $0)) }
    }

    public static func unhex(_ text: String) -> [UInt8]? {
        let digits = Array(text.utf8)
        guard digits.count % 2 == 0 else { return nil }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(digits.count / 2)
        for index in stride(from: 0, to: digits.count, by: 2) {
            guard let high = hexValue(digits[index]), let low = hexValue(digits[index + 1]) else { return nil }
            bytes.append(high << 4 | low)
        }
        return bytes
    }

    private static func hexValue(_ digit: UInt8) -> UInt8? {
        switch digit {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): digit - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): digit - UInt8(ascii: "a") + 10
        default: nil
        }
    }

    public static func hex(_ bytes: some Sequence<UInt8>) -> String {
        bytes.map { String($0, radix: 16).count == 1 ? "0" + String($0, radix: 16) : String($0, radix: 16) }.joined()
    }
}

/// Why a sealed file does not open.
public enum SealError: Error, Equatable, CustomStringConvertible {
    case notSealed
    case truncated
    case doesNotVerify

    public var description: String {
        switch self {
        case .notSealed: "not a sealed file (a plain file in an encrypted folder)"
        case .truncated: "a sealed file cut short (torn or partial)"
        case .doesNotVerify: "its seal does not verify (damaged, or moved here from another name)"
        }
    }
}
