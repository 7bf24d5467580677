import Crypto
import CryptoExtras
import Foundation
import NotesCore

/// A keys file of an encrypted container, `keys/<generation>.json` (SYNC-FORMAT rule 14): the
/// container's data keys (`Keyring`) wrapped by a key derived from the passphrase with scrypt.
/// Write-once; a passphrase change writes the next generation wrapping the same keys (with
/// `--new-key`, one more), so nothing else is re-encrypted. The newest generation that checks
/// out is the one in force.
///
/// Body: `{containerID, kdf: "scrypt", logN, r, p, salt (hex), wrapped (hex: nonce, ciphertext,
/// tag)}`, and `keys: n` when it wraps more than one key (then in envelope format 6). The wrap's
/// associated data names the container, the generation and (past one) the number of keys, so a
/// keys file copied to another generation's name (a replayed old passphrase) or claiming another
/// number of keys does not open. `containerID` (since 0.16) lets a keys file be written before
/// its `container.json` ("Encrypting in place").
public struct KeysFile: Sendable, Equatable {
    /// scrypt's cost parameters, stored with the salt so they can change between generations.
    public struct Cost: Sendable, Equatable {
        public var logN: Int
        public var r: Int
        public var p: Int

        public init(logN: Int, r: Int = 8, p: Int = 1) {
            self.logN = logN
            self.r = r
            self.p = p
        }

        /// About half a second on this project's 2-core test machine (N = 2^16, r = 8: 64 MB).
        /// `CLOUDNOTES_SCRYPT_LOG_N` lowers or raises N for tests and slow machines (10…18).
        public static var standard: Cost {
            let logN = ProcessInfo.processInfo.environment["CLOUDNOTES_SCRYPT_LOG_N"].flatMap { Int($0) }
            return Cost(logN: min(max(logN ?? 16, 10), 18))
        }

        /// The most work a keys file may ask for, in units of 128-byte scrypt blocks (r · N · p):
        /// 2^21, which is N = 2^18, r = 8, p = 1: 256 MB of memory and about 1.6 s (optimized) on this
        /// project's 2-core test machine (docs/DECISIONS.md D-93), four times `standard`.
        public static let ceiling = 1 << 21

        /// What deriving costs, in 128-byte blocks (memory is r · N blocks, time r · N · p).
        var work: Int { (r << logN) * p }

        /// What a file may ask for: anything past the ceiling is refused as tampering before any
        /// work (a planted keys file must not make every unlock take a minute and gigabytes).
        var isAcceptable: Bool {
            (10...18).contains(logN) && (1...16).contains(r) && (1...4).contains(p) && work <= Self.ceiling
        }
    }

    public var generation: Int64
    /// The container the wrap is bound to, when the file says (files before 0.16 do not).
    public var containerID: String?
    public var cost: Cost
    public var salt: [UInt8]
    public var wrapped: [UInt8]
    /// How many data keys it wraps (readable before unwrapping, bound by the wrap): a device
    /// holding fewer learns the key was changed (`sync passphrase --new-key`).
    public var keyCount: Int

    /// Wraps `dataKey` under `passphrase` for generation `generation` of `containerID`.
    public static func wrap(
        _ dataKey: SymmetricKey, passphrase: String, generation: Int64, containerID: String, cost: Cost = .standard
    ) throws -> KeysFile {
        try wrap(Keyring(dataKey), passphrase: passphrase, generation: generation, containerID: containerID, cost: cost)
    }

    /// Wraps the keys of `keyring` under `passphrase` for generation `generation` of `containerID`.
    public static func wrap(
        _ keyring: Keyring, passphrase: String, generation: Int64, containerID: String, cost: Cost = .standard
    ) throws -> KeysFile {
        var salt = [UInt8](repeating: 0, count: 16)
        var random = SystemRandomNumberGenerator()
        for index in salt.indices { salt[index] = random.next() }
        let wrapping = try derive(passphrase, salt: salt, cost: cost)
        let count = keyring.keys.count
        let box = try ChaChaPoly.seal(
            keyring.bytes, using: wrapping,
            authenticating: associatedData(generation: generation, containerID: containerID, keyCount: count))
        return KeysFile(
            generation: generation, containerID: containerID, cost: cost, salt: salt, wrapped: Array(box.combined),
            keyCount: count)
    }

    /// The newest data key, or `wrongPassphrase` when the passphrase does not open this file (or
    /// the file was copied from another generation's name).
    public func unwrap(passphrase: String, containerID: String) throws -> SymmetricKey {
        let keys = try unwrapKeyring(passphrase: passphrase, containerID: containerID).keys
        return keys[keys.count - 1]
    }

    /// The data keys, or `wrongPassphrase` when the passphrase does not open this file (or the
    /// file was copied from another generation's name).
    public func unwrapKeyring(passphrase: String, containerID: String) throws -> Keyring {
        guard cost.isAcceptable else {
            throw CloudError(
                .badContainer,
                "keys file \(generation) asks for scrypt parameters above the ceiling (logN \(cost.logN), r \(cost.r), "
                    + "p \(cost.p)); refused as tampering, nothing derived")
        }
        let wrapping = try Self.derive(passphrase, salt: salt, cost: cost)
        do {
            let box = try ChaChaPoly.SealedBox(combined: Data(wrapped))
            let bytes = try ChaChaPoly.open(
                box, using: wrapping,
                authenticating: Self.associatedData(
                    generation: generation, containerID: containerID, keyCount: keyCount))
            guard bytes.count == 32 * keyCount, let keyring = Keyring(bytes: Array(bytes)) else {
                throw SealError.doesNotVerify
            }
            return keyring
        } catch {
            throw CloudError(.notAuthenticated, "wrong passphrase for this encrypted cloud folder")
        }
    }

    /// The wrapping key scrypt derives from a passphrase.
    static func derive(_ passphrase: String, salt: [UInt8], cost: Cost) throws -> SymmetricKey {
        do {
            return try KDF.Scrypt.deriveKey(
                from: Array(passphrase.utf8), salt: salt, outputByteCount: 32, rounds: 1 << cost.logN,
                blockSize: cost.r, parallelism: cost.p)
        } catch {
            throw CloudError(.internalError, "the passphrase could not be derived (scrypt: \(error))")
        }
    }

    /// What the wrap authenticates: the container, the generation and, past one, the number of
    /// keys (a file wrapping one key reads as it did before there were more).
    static func associatedData(generation: Int64, containerID: String, keyCount: Int = 1) -> [UInt8] {
        let keys = keyCount > 1 ? " \(keyCount) keys" : ""
        return Array("cloudnotes keys \(containerID) \(generation)\(keys)".utf8)
    }

    // MARK: JSON

    public var json: JSONValue {
        var fields: [String: JSONValue] = [
            "kdf": .string("scrypt"), "logN": .int(Int64(cost.logN)), "r": .int(Int64(cost.r)),
            "p": .int(Int64(cost.p)), "salt": .string(FolderSeal.hex(salt)),
            "wrapped": .string(FolderSeal.hex(wrapped)),
        ]
        if let containerID { fields["containerID"] = .string(containerID) }
        if keyCount > 1 { fields["keys"] = .int(Int64(keyCount)) }
        return .object(fields)
    }

    public init(
        generation: Int64, containerID: String? = nil, cost: Cost, salt: [UInt8], wrapped: [UInt8], keyCount: Int = 1
    ) {
        self.generation = generation
        self.containerID = containerID
        self.cost = cost
        self.salt = salt
        self.wrapped = wrapped
        self.keyCount = keyCount
    }

    public init(json: JSONValue, generation: Int64) throws {
        guard json["kdf"]?.stringValue == "scrypt", let logN = json["logN"]?.intValue, let r = json["r"]?.intValue,
            let p = json["p"]?.intValue, let salt = json["salt"]?.stringValue.flatMap(FolderSeal.unhex),
            let wrapped = json["wrapped"]?.stringValue.flatMap(FolderSeal.unhex),
            (0...64).contains(logN), (0...64).contains(r), (0...64).contains(p), !salt.isEmpty
        else { throw CloudError(.badContainer, "keys file \(generation) is not a keys file of ours") }
        // `keys` is absent for one key; when present it says more than one (canonical: one way only).
        let keyCount = json["keys"] == nil ? 1 : (json["keys"]?.intValue).map(Int.init) ?? 0
        guard json["keys"] == nil || keyCount > 1, keyCount <= Keyring.maximumCount,
            wrapped.count == 12 + 32 * keyCount + 16
        else { throw CloudError(.badContainer, "keys file \(generation) is not a keys file of ours") }
        let containerID = json["containerID"]?.stringValue
        if let containerID,
            containerID.isEmpty || containerID.utf8.count > 64
                || !containerID.utf8.allSatisfy({
                    (0x61...0x7A).contains($0) || (0x30...0x39).contains($0) || $0 == 0x2D
                })
        {
            throw CloudError(.badContainer, "keys file \(generation) names no container of ours")
        }
        self.init(
            generation: generation, containerID: containerID, cost: Cost(logN: Int(logN), r: Int(r), p: Int(p)),
            salt: salt, wrapped: wrapped, keyCount: keyCount)
    }
}
