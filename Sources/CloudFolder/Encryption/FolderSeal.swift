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
/// Keys: a container's data keys (`Keyring`: the first one, and one more for each
/// `sync passphrase --new-key`), wrapped by the passphrase in the keys file (`KeysFile`); the
/// keys used here are derived from each with HKDF-SHA256, salted with the container id, one per
/// purpose. Files are sealed with the newest key, and name the key when it is not the first
/// (`CNSEAL2\n` and its 4-byte number before the nonce); any key of the ring opens what it sealed.
/// Zone folder names stay those of the first key, so a notebook's folder never changes name.
public struct FolderSeal: Sendable, Equatable {
    static let magic = Array("CNSEAL1\n".utf8)
    /// A file sealed with a key after the first: the magic, then the key's 4-byte number.
    static let numberedMagic = Array("CNSEAL2\n".utf8)
    static let nonceSize = 12
    static let tagSize = 16
    /// The most bytes a sealed file adds to its padded plaintext (a numbered key's header).
    public static let overhead = numberedMagic.count + 4 + nonceSize + tagSize + 4

    /// The keys derived from one data key of the ring.
    struct KeySet: Sendable {
        let fileKey: SymmetricKey
        let nonceKey: SymmetricKey
        let nameKey: SymmetricKey
        let nameNonceKey: SymmetricKey
        let assetKey: SymmetricKey
        let keyID: String

        init(dataKey: SymmetricKey, containerID: String) {
            func derive(_ purpose: String) -> SymmetricKey {
                HKDF<SHA256>.deriveKey(
                    inputKeyMaterial: dataKey, salt: Data(containerID.utf8),
                    info: Data("cloudnotes \(purpose) v1".utf8), outputByteCount: 32)
            }
            fileKey = derive("file seal")
            nonceKey = derive("file nonce")
            nameKey = derive("zone name")
            nameNonceKey = derive("zone name nonce")
            assetKey = derive("asset hash")
            keyID = FolderSeal.hex(
                Array(SHA256.hash(data: Data(derive("key id").withUnsafeBytes { Array($0) }))).prefix(8))
        }
    }

    /// The key sets of the ring, the first key first; the last one seals.
    private let keySets: [KeySet]
    private var sealing: KeySet { keySets[keySets.count - 1] }
    private var naming: KeySet { keySets[0] }
    /// The data keys this seal was made from.
    public let keyring: Keyring
    /// Keys the content hash of assets written now (the newest key's), so equal content dedups
    /// within a container only.
    public var assetKey: SymmetricKey { sealing.assetKey }
    /// The asset keys of every key of the ring, the newest first: a chunk is named under the key
    /// in force when it was written (`chunkNames`).
    public var assetKeys: [SymmetricKey] { keySets.reversed().map(\.assetKey) }
    /// Which data key seals (a hash of it), for equality and for messages; reveals nothing.
    public var keyID: String { sealing.keyID }
    /// The number of the key that seals: 1 until the first `sync passphrase --new-key`.
    public var keyNumber: Int { keySets.count }
    /// The container the keys are derived for.
    public let containerID: String

    public init(keyring: Keyring, containerID: String) {
        self.keyring = keyring
        self.containerID = containerID
        keySets = keyring.keys.map { KeySet(dataKey: $0, containerID: containerID) }
    }

    public init(dataKey: SymmetricKey, containerID: String) {
        self.init(keyring: Keyring(dataKey), containerID: containerID)
    }

    /// A seal over a new random data key (benchmarks and tests).
    public static func withRandomKey(containerID: String) -> FolderSeal {
        FolderSeal(dataKey: SymmetricKey(size: .bits256), containerID: containerID)
    }

    public static func == (lhs: FolderSeal, rhs: FolderSeal) -> Bool {
        lhs.keySets.map(\.keyID) == rhs.keySets.map(\.keyID)
    }

    // MARK: Files

    /// Seals `plaintext` as the file named `name` (its path relative to the folder).
    public func seal(_ plaintext: [UInt8], name: String) -> [UInt8] {
        var framed = Padding.frame(plaintext)
        let aad = Array(name.utf8)
        var mac = HMAC<SHA256>(key: sealing.nonceKey)
        mac.update(data: Self.bigEndian(UInt64(aad.count)))
        mac.update(data: aad)
        mac.update(data: framed)
        let nonce = Array(mac.finalize()).prefix(Self.nonceSize)
        let box = Self.seal(framed, using: sealing.fileKey, nonce: nonce, authenticating: aad)
        framed.removeAll()
        guard keySets.count > 1 else { return Self.magic + Array(box.combined) }
        return Self.numberedMagic + Self.bigEndian(UInt32(keySets.count)) + Array(box.combined)
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
        let (number, start) = try Self.header(sealed)
        guard sealed.count >= start + Self.nonceSize + Self.tagSize + 4 else { throw .truncated }
        guard number <= keySets.count else { throw .newerKey(number, held: keySets.count) }
        let framed: Data
        do {
            let box = try ChaChaPoly.SealedBox(combined: Data(sealed[start...]))
            framed = try ChaChaPoly.open(box, using: keySets[number - 1].fileKey, authenticating: Array(name.utf8))
        } catch {
            throw .doesNotVerify
        }
        guard let plaintext = Padding.unframe(Array(framed)) else { throw .doesNotVerify }
        return plaintext
    }

    /// The number of the key a sealed file names (1 for `CNSEAL1`) and where its nonce starts.
    static func header(_ sealed: [UInt8]) throws(SealError) -> (number: Int, start: Int) {
        if sealed.starts(with: magic) { return (1, magic.count) }
        guard sealed.starts(with: numberedMagic) else {
            throw sealed.count < magic.count && magic.starts(with: sealed) ? .truncated : .notSealed
        }
        let start = numberedMagic.count + 4
        guard sealed.count >= start else { throw .truncated }
        let number = sealed[numberedMagic.count..<start].reduce(0) { $0 << 8 | Int($1) }
        // Key 1 is never numbered, and a ring holds at most `Keyring.maximumCount` keys.
        guard (2...Keyring.maximumCount).contains(number) else { throw .doesNotVerify }
        return (number, start)
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
        let nonce = Array(HMAC<SHA256>.authenticationCode(for: padded, using: naming.nameNonceKey)).prefix(
            Self.nonceSize)
        let box = Self.seal(padded, using: naming.nameKey, nonce: nonce, authenticating: Array("zone".utf8))
        return Self.hex(box.combined)
    }

    /// The zone a folder name stands for, or nil when it is not one of this key's names.
    public func zone(folderName: String) -> ZoneID? {
        guard folderName.utf8.count == 184, let bytes = Self.unhex(folderName),
            let box = try? ChaChaPoly.SealedBox(combined: Data(bytes)),
            // Not sealed with this key: not one of our names (nil).
            let padded = try? ChaChaPoly.open(box, using: naming.nameKey, authenticating: Array("zone".utf8))
        else { return nil }
        let name = Array(padded).prefix { $0 != 0 }
        guard padded[padded.startIndex + name.count..<padded.endIndex].allSatisfy({ $0 == 0 }),
            let text = String(validating: name, as: UTF8.self), let zone = ZoneID(text),
            self.folderName(zone) == folderName
        else { return nil }
        return zone
    }

    static func bigEndian<Value: FixedWidthInteger>(_ value: Value) -> [UInt8] {
        let bytes = Value.bitWidth / 8
        return (0..<bytes).map { UInt8(truncatingIfNeeded: value >> (8 * (bytes - 1 - $0))) }
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
    /// Sealed with key `number` of the ring, which this device does not hold yet: the key was
    /// changed on another device (`sync passphrase --new-key`).
    case newerKey(Int, held: Int)
    /// Opened, but its signature is not one the shared place allows (SYNC-FORMAT rule 20).
    case refused(String)

    public var description: String {
        switch self {
        case .refused(let reason): "refused: \(reason)"
        case .newerKey(let number, let held):
            "sealed with key \(number) of the folder, newer than the \(held) this device holds (the key was changed "
                + "on another device)"
        case .notSealed: "not a sealed file (a plain file in an encrypted folder)"
        case .truncated: "a sealed file cut short (torn or partial)"
        case .doesNotVerify: "its seal does not verify (damaged, or moved here from another name)"
        }
    }
}
