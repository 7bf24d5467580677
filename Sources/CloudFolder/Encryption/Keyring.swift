import Crypto

/// The data keys of an encrypted container (SYNC-FORMAT rule 14), oldest first: the random key
/// the container was created with, then one more for each `sync passphrase --new-key`. The
/// newest seals what is written from then on; every key opens what it sealed. Never empty.
public struct Keyring: Sendable, Equatable {
    /// The most keys a ring holds (a key file or a sealed file naming more is refused).
    public static let maximumCount = 64

    /// The keys, oldest first.
    public let keys: [SymmetricKey]

    /// A ring of the one key a container starts with.
    public init(_ first: SymmetricKey) { keys = [first] }

    /// A ring of `keys` (oldest first); nil when there are none or more than `maximumCount`, or
    /// one is not 256 bits.
    public init?(_ keys: [SymmetricKey]) {
        guard (1...Self.maximumCount).contains(keys.count), keys.allSatisfy({ $0.bitCount == 256 }) else { return nil }
        self.keys = keys
    }

    /// The ring with a new random key after the others; nil when it is full.
    public func addingRandomKey() -> Keyring? { Keyring(keys + [SymmetricKey(size: .bits256)]) }

    /// The first key, which names the zone folders.
    public var first: SymmetricKey { keys[0] }

    /// The keys' bytes, concatenated (what a keys file wraps).
    public var bytes: [UInt8] { keys.flatMap { $0.withUnsafeBytes { Array($0) } } }

    /// The ring of concatenated 32-byte keys; nil when the length is not a whole, allowed number of keys.
    public init?(bytes: [UInt8]) {
        guard !bytes.isEmpty, bytes.count % 32 == 0 else { return nil }
        self.init(stride(from: 0, to: bytes.count, by: 32).map { SymmetricKey(data: bytes[$0..<$0 + 32]) })
    }

    public static func == (lhs: Keyring, rhs: Keyring) -> Bool { lhs.keys == rhs.keys }
}
