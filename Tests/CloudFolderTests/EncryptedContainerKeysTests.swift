import Crypto
import Foundation
import NotesCore
import Testing

@testable import CloudFolder

/// Keys files an attacker planted, a key that is not the container's, and an encrypted
/// container created keys file first (SYNC-FORMAT rule 14, "Encrypting in place").
@Suite("Encrypted container: keys files and creation")
struct EncryptedContainerKeysTests {
    static let device = DeviceID("aaaaaaaaaaaaaaaa")!
    static let hlc = HLC(millis: 1_700_000_000_000)
    static let cheap = KeysFile.Cost(logN: 10)

    static func emptyFolder() -> (DirectoryCloudFolder, InMemoryFileIO) {
        let io = InMemoryFileIO()
        io.plantDirectory("/cloud")
        return (DirectoryCloudFolder(root: "/cloud", io: io), io)
    }

    /// A keys file for `containerID` under a passphrase nobody knows, asking for `cost`.
    static func planted(generation: Int64, containerID: String, cost: KeysFile.Cost) -> KeysFile {
        KeysFile(
            generation: generation, containerID: containerID, cost: cost, salt: Array(repeating: 7, count: 16),
            wrapped: Array(repeating: 9, count: 60))
    }

    @Test("scrypt parameters above the ceiling are refused as tampering, before any derivation")
    func ceilingRefusesBeforeDeriving() throws {
        // N = 2^19, r = 8: 512 MB, twice the ceiling (a build before 0.16 accepted up to 2 GB).
        let greedy = Self.planted(generation: 1, containerID: "c1", cost: KeysFile.Cost(logN: 19))
        let clock = ContinuousClock()
        let start = clock.now
        #expect { try greedy.unwrap(passphrase: "anything", containerID: "c1") } throws: {
            ($0 as? CloudError)?.code == .badContainer && "\($0)".contains("refused as tampering")
        }
        #expect(clock.now - start < .milliseconds(200), "no derivation may run")
        #expect(KeysFile.Cost(logN: 18).isAcceptable, "the ceiling itself is accepted")
        #expect(!KeysFile.Cost(logN: 17, r: 8, p: 4).isAcceptable)
        #expect(!KeysFile.Cost(logN: 18, r: 16).isAcceptable)
    }

    @Test("planted keys files cost an unlock nothing when a cheaper genuine one opens")
    func plantedGenerationsAreNotTriedFirst() throws {
        let (plain, io) = Self.emptyFolder()
        let (dataKey, seal, outcome) = try plain.establishEncryptedContainer(
            passphrase: "right", device: Self.device, hlc: Self.hlc, cost: Self.cheap)
        #expect(outcome == .created)
        // Newer generations planted by someone who can write the folder: one at the ceiling
        // (1.6 s and 256 MB each), one above it.
        for (generation, cost) in [(2, KeysFile.Cost(logN: 18)), (3, KeysFile.Cost(logN: 19))] {
            let keys = Self.planted(generation: Int64(generation), containerID: seal.containerID, cost: cost)
            try plain.publishKeys(keys, device: Self.device, hlc: Self.hlc)
        }
        #expect(try plain.keysFiles().files.count == 3)
        let clock = ContinuousClock()
        let start = clock.now
        #expect(try plain.unlock(passphrase: "right", containerID: seal.containerID) == dataKey)
        #expect(clock.now - start < .seconds(1), "the planted files were derived")
        _ = io
    }

    @Test("a key one digit off is refused against what is sealed; the right one passes")
    func checkSealRefusesAnotherKey() throws {
        let (plain, io) = Self.emptyFolder()
        let (dataKey, seal, _) = try plain.establishEncryptedContainer(
            passphrase: "right", device: Self.device, hlc: Self.hlc, cost: Self.cheap)
        let folder = DirectoryCloudFolder(root: "/cloud", io: io, seal: seal)
        try folder.checkSeal()  // nothing sealed yet: nothing to check against
        try folder.writeDevice(
            DeviceInfo(name: "laptop", lastSeen: 1), device: Self.device, hlc: Self.hlc)
        try folder.checkSeal()
        var bytes = dataKey.withUnsafeBytes { Array($0) }
        bytes[5] ^= 0x01
        let garbled = DirectoryCloudFolder(
            root: "/cloud", io: io, seal: FolderSeal(dataKey: SymmetricKey(data: bytes), containerID: seal.containerID))
        #expect { try garbled.checkSeal() } throws: { ($0 as? CloudError)?.code == .notAuthenticated }
    }

    @Test("creation cut short after keys file 1 is completed by the next run; another passphrase is told so")
    func creationCompletesAndFollows() throws {
        let (plain, io) = Self.emptyFolder()
        // A run cut short right after keys file 1: no container.json yet.
        let key = SymmetricKey(size: .bits256)
        let containerID = UUID().uuidString.lowercased()
        let first = try KeysFile.wrap(
            key, passphrase: "right", generation: 1, containerID: containerID, cost: Self.cheap)
        try plain.publishKeysFile(first, device: Self.device, hlc: Self.hlc)
        #expect(throws: CloudError.self) { try plain.readContainer(boundTo: nil) }
        #expect {
            try plain.establishEncryptedContainer(passphrase: "other", device: Self.device, hlc: Self.hlc)
        } throws: {
            ($0 as? CloudError)?.code == .notAuthenticated && "\($0)".contains("another device started")
        }
        #expect(!io.allPaths().contains("/cloud/container.json"), "nothing written with another passphrase")
        let (dataKey, seal, outcome) = try plain.establishEncryptedContainer(
            passphrase: "right", device: Self.device, hlc: Self.hlc)
        #expect(outcome == .followed)
        #expect(dataKey == key && seal.containerID == containerID)
        let info = try plain.readContainer(boundTo: nil)
        #expect(info.encrypted && info.containerID == containerID)
        #expect(try plain.unlock(passphrase: "right", containerID: containerID) == key)
    }

    @Test("a container.json with no keys file (a build before 0.16 cut short) is replaced where nothing announced it")
    func orphanContainerIsReplaced() throws {
        let (plain, _) = Self.emptyFolder()
        _ = try plain.createContainer(device: Self.device, hlc: Self.hlc, encrypted: true)
        #expect(throws: CloudError.self) {
            try plain.establishEncryptedContainer(passphrase: "p", device: Self.device, hlc: Self.hlc, cost: Self.cheap)
        }
        let (dataKey, seal, outcome) = try plain.establishEncryptedContainer(
            passphrase: "p", device: Self.device, hlc: Self.hlc, cost: Self.cheap, replacingOrphan: true)
        #expect(outcome == .created)
        #expect(try plain.readContainer(boundTo: nil).containerID == seal.containerID)
        #expect(try plain.unlock(passphrase: "p", containerID: seal.containerID) == dataKey)
    }
}
