import Crypto
import Foundation
import NotesCore
import Testing

@testable import CloudFolder

/// The ring of data keys `sync passphrase --new-key` grows (SYNC-FORMAT rule 14): files sealed
/// with a later key name it in their header, every key opens what it sealed, zone names stay
/// those of the first key, and a keys file binds how many keys it wraps.
@Suite("Keyring: a new data key for what follows")
struct KeyringTests {
    static let first = SymmetricKey(data: [UInt8](repeating: 7, count: 32))
    static let one = FolderSeal(dataKey: first, containerID: "c1")
    static let ring = Keyring([first, SymmetricKey(data: [UInt8](repeating: 9, count: 32))])!
    static let two = FolderSeal(keyring: ring, containerID: "c1")
    static let name = "private/zones/x/log/abcdefghijklmnop/000000000000/000000000001.json"

    @Test("a file sealed with key 2 names it, opens with the ring only, and says why to a device holding key 1")
    func numberedSeal() throws {
        let plain = Array("{\"body\":\"after the new key\"}\n".utf8)
        let sealed = Self.two.seal(plain, name: Self.name)
        #expect(sealed.starts(with: Array("CNSEAL2\n".utf8) + [0, 0, 0, 2]))
        #expect(try Self.two.open(sealed, name: Self.name) == plain)
        #expect(throws: SealError.newerKey(2, held: 1)) { try Self.one.open(sealed, name: Self.name) }
        // What key 1 sealed still opens with the ring, and is still `CNSEAL1`.
        let old = Self.one.seal(plain, name: Self.name)
        #expect(old.starts(with: Array("CNSEAL1\n".utf8)))
        #expect(try Self.two.open(old, name: Self.name) == plain)
        // The header cannot be pointed at another key: key 1's subkeys do not open key 2's box.
        var relabelled = sealed
        relabelled[11] = 1
        #expect(throws: SealError.doesNotVerify) { try Self.two.open(relabelled, name: Self.name) }
        for number: UInt8 in [0, 65, 255] {
            var wild = sealed
            wild[11] = number
            #expect(throws: SealError.doesNotVerify) { try Self.two.open(wild, name: Self.name) }
        }
        #expect(throws: SealError.truncated) { try Self.two.open(Array(sealed.prefix(10)), name: Self.name) }
        #expect(Self.one != Self.two && Self.two.keyNumber == 2)
    }

    @Test("zone folder names stay those of the first key, so no notebook folder changes name")
    func zoneNamesStay() throws {
        let zone = try #require(ZoneID("recipes"))
        #expect(Self.two.folderName(zone) == Self.one.folderName(zone))
        #expect(Self.two.zone(folderName: Self.one.folderName(zone)) == zone)
    }

    @Test("a keys file wraps every key, and the count it states is bound by the wrap")
    func keysFileWrapsTheRing() throws {
        let keys = try KeysFile.wrap(
            Self.ring, passphrase: "p", generation: 3, containerID: "c1", cost: KeysFile.Cost(logN: 10))
        #expect(keys.keyCount == 2 && keys.json["keys"] == .int(2))
        #expect(try keys.unwrapKeyring(passphrase: "p", containerID: "c1") == Self.ring)
        #expect(try KeysFile(json: keys.json, generation: 3) == keys)
        // A file claiming another count is not ours, or does not open.
        guard case .object(var fields) = keys.json else {
            Issue.record("not an object")
            return
        }
        for claimed: Int64 in [1, 3, 65] {
            fields["keys"] = .int(claimed)
            #expect(throws: CloudError.self) {
                try KeysFile(json: .object(fields), generation: 3).unwrapKeyring(passphrase: "p", containerID: "c1")
            }
        }
        var lying = keys
        lying.keyCount = 3
        lying.wrapped += [UInt8](repeating: 0, count: 32)
        #expect { try lying.unwrapKeyring(passphrase: "p", containerID: "c1") } throws: {
            ($0 as? CloudError)?.code == .notAuthenticated
        }
    }

    @Test("a ring holds 1 to 64 keys of 256 bits, and no more")
    func ringBounds() throws {
        #expect(Keyring([]) == nil)
        #expect(Keyring([SymmetricKey(size: .bits128)]) == nil)
        let full = try #require(Keyring((0..<64).map { _ in SymmetricKey(size: .bits256) }))
        #expect(full.addingRandomKey() == nil)
        #expect(Keyring(bytes: full.bytes) == full)
        #expect(Keyring(bytes: Array(full.bytes.dropLast())) == nil)
    }

    @Test("a publication retried after a new key finds its file sealed under the old key as its own")
    func retriedPublicationUnderANewKey() throws {
        let io = InMemoryFileIO()
        io.plantDirectory("/cloud")
        let device = try #require(DeviceID("aaaaaaaaaaaaaaaa"))
        let before = DirectoryCloudFolder(root: "/cloud", io: io, seal: Self.one)
        let after = DirectoryCloudFolder(root: "/cloud", io: io, seal: Self.two)
        let path = "/cloud/private/names/x.json"
        try io.ensureDirectory("/cloud/private")
        try io.ensureDirectory("/cloud/private/names")
        let plain = Array("the same bytes\n".utf8)
        #expect(try before.publishOnce(plain, at: path, device: device) == .published)
        #expect(try after.publishOnce(plain, at: path, device: device) == .alreadyPublished)
        #expect(throws: CloudError.self) { try after.publishOnce(Array("other\n".utf8), at: path, device: device) }
    }
}
