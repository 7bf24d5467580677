import Crypto
import CryptoExtras
import Foundation
import NotesCore
import NotesTestSupport
import Testing

@testable import CloudFolder

/// The primitives of SYNC-FORMAT rule 14 against published vectors, so a wrong wiring of a
/// correct library fails: scrypt (RFC 7914 §12), ChaCha20-Poly1305 (RFC 8439 §2.8.2); then the
/// seal, the zone names, the padding and the keys file built on them.
@Suite("Encryption primitives")
struct EncryptionPrimitiveTests {
    static func bytes(_ hex: String) -> [UInt8] { FolderSeal.unhex(hex.filter { !$0.isWhitespace })! }

    @Test("scrypt: RFC 7914 §12 test vectors")
    func scryptVectors() throws {
        let cases: [(String, String, Int, Int, Int, String)] = [
            (
                "", "", 16, 1, 1,
                "77d6576238657b203b19ca42c18a0497f16b4844e3074ae8dfdffa3fede21442"
                    + "fcd0069ded0948f8326a753a0fc81f17e8d3e0fb2e0d3628cf35e20c38d18906"
            ),
            (
                "password", "NaCl", 1024, 8, 16,
                "fdbabe1c9d3472007856e7190d01e9fe7c6ad7cbc8237830e77376634b373162"
                    + "2eaf30d92e22a3886ff109279d9830dac727afb94a83ee6d8360cbdfa2cc0640"
            ),
        ]
        for (password, salt, n, r, p, expected) in cases {
            let key = try KDF.Scrypt.deriveKey(
                from: Array(password.utf8), salt: Array(salt.utf8), outputByteCount: 64, rounds: n, blockSize: r,
                parallelism: p)
            #expect(key.withUnsafeBytes { Array($0) } == Self.bytes(expected), "scrypt(\(password), \(salt), N=\(n))")
        }
    }

    @Test("ChaCha20-Poly1305: the RFC 8439 §2.8.2 AEAD vector")
    func chachaPolyVector() throws {
        let key = SymmetricKey(data: Array(UInt8(0x80)...UInt8(0x9f)))
        let nonce = try ChaChaPoly.Nonce(data: Self.bytes("070000004041424344454647"))
        let aad = Self.bytes("50515253c0c1c2c3c4c5c6c7")
        let plaintext = Array(
            "Ladies and Gentlemen of the class of '99: If I could offer you only one tip for the future, sunscreen would be it."
                .utf8)
        let box = try ChaChaPoly.seal(plaintext, using: key, nonce: nonce, authenticating: aad)
        #expect(
            Array(box.ciphertext)
                == Self.bytes(
                    """
                    d31a8d34648e60db7b86afbc53ef7ec2a4aded51296e08fea9e2b5a736ee62d63dbea45e8ca9671282fafb69da92728b
                    1a71de0a9e060b2905d6a5b67ecd3b3692ddbd7f2d778b8c9803aee328091b58fab324e4fad675945585808b4831d7bc
                    3ff4def08e4b7a9de576d26586cec64b6116
                    """))
        #expect(Array(box.tag) == Self.bytes("1ae10b594f09e26a7e902ecbd0600691"))
        #expect(Array(try ChaChaPoly.open(box, using: key, authenticating: aad)) == plaintext)
    }

    static let seal = FolderSeal(dataKey: SymmetricKey(data: [UInt8](repeating: 7, count: 32)), containerID: "c1")

    @Test("a sealed file opens under its own name only, and any flipped byte or cut is refused")
    func sealRefusesTampering() throws {
        let plain = Array("{\"body\":\"oat milk\"}\n".utf8)
        let name = "private/zones/x/log/abcdefghijklmnop/000000000000/000000000001.json"
        let sealed = Self.seal.seal(plain, name: name)
        #expect(try Self.seal.open(sealed, name: name) == plain)
        // Deterministic: a retried publication writes identical bytes (rule 1).
        #expect(Self.seal.seal(plain, name: name) == sealed)
        #expect(Self.seal.seal(plain, name: name + "x") != sealed)
        #expect(throws: SealError.doesNotVerify) {
            try Self.seal.open(sealed, name: name.replacingOccurrences(of: "1.json", with: "2.json"))
        }
        var random = SeededRandom(seed: SeededRandom.seed(default: 14))
        for _ in 0..<200 {
            var flipped = sealed
            let index = random.below(flipped.count)
            flipped[index] ^= UInt8(1 + random.below(255))
            #expect(throws: SealError.self, "flipped byte \(index)") { try Self.seal.open(flipped, name: name) }
            let cut = Array(sealed.prefix(random.below(sealed.count)))
            #expect(throws: SealError.self, "cut at \(cut.count)") { try Self.seal.open(cut, name: name) }
        }
        #expect(throws: SealError.notSealed) { try Self.seal.open(plain, name: name) }
        let other = FolderSeal(dataKey: SymmetricKey(data: [UInt8](repeating: 8, count: 32)), containerID: "c1")
        #expect(throws: SealError.doesNotVerify) { try other.open(sealed, name: name) }
    }

    @Test("zone folder names are opaque, of one length, and come back with the key only")
    func zoneFolderNames() throws {
        let short = ZoneID("a")!
        let long = ZoneID(String(repeating: "z", count: 64))!
        let names = [short, long, ZoneID("recipes")!].map(Self.seal.folderName)
        #expect(Set(names.map(\.count)) == [184])
        #expect(names.allSatisfy { !$0.contains("recipes") && !$0.contains("zzz") })
        #expect(Self.seal.zone(folderName: names[2]) == ZoneID("recipes"))
        #expect(Self.seal.zone(folderName: names[0]) == short)
        let other = FolderSeal(dataKey: SymmetricKey(data: [UInt8](repeating: 8, count: 32)), containerID: "c1")
        #expect(other.zone(folderName: names[2]) == nil)
        #expect(Self.seal.zone(folderName: "recipes") == nil)
        #expect(Self.seal.zone(folderName: String(repeating: "0", count: 184)) == nil)
    }

    @Test("Padmé padding: the smallest length at least L whose low bits are zero, under 12% over")
    func padmeAgainstItsDefinition() {
        for length in 0...20_000 {
            let padded = Padding.paddedSize(length)
            let l = max(length, Padding.minimum)
            let e = Int.bitWidth - 1 - l.leadingZeroBitCount
            let s = Int.bitWidth - e.leadingZeroBitCount
            let zeroBits = e - s
            // The definition, by brute force: the first value ≥ L with its low `zeroBits` bits clear.
            var expected = l
            while expected & ((1 << zeroBits) - 1) != 0 { expected += 1 }
            #expect(padded == expected, "L=\(length)")
            #expect(Double(padded - l) <= 0.12 * Double(l), "L=\(length)")
        }
        let framed = Padding.frame(Array("abc".utf8))
        #expect(framed.count == 256)
        #expect(Padding.unframe(framed) == Array("abc".utf8))
        var bad = framed
        bad[200] = 1
        #expect(Padding.unframe(bad) == nil)
        #expect(Padding.unframe([0, 0, 1, 0]) == nil)
    }

    @Test("a keys file opens with its passphrase only, and not under another generation's name")
    func keysFileWrapsTheDataKey() throws {
        let dataKey = SymmetricKey(size: .bits256)
        let cheap = KeysFile.Cost(logN: 10)
        let keys = try KeysFile.wrap(
            dataKey, passphrase: "correct horse", generation: 1, containerID: "c1", cost: cheap)
        let opened = try keys.unwrap(passphrase: "correct horse", containerID: "c1")
        #expect(opened == dataKey)
        #expect { try keys.unwrap(passphrase: "wrong", containerID: "c1") } throws: {
            ($0 as? CloudError)?.code == .notAuthenticated
        }
        var replayed = keys
        replayed.generation = 2
        #expect { try replayed.unwrap(passphrase: "correct horse", containerID: "c1") } throws: {
            ($0 as? CloudError)?.code == .notAuthenticated
        }
        #expect(try KeysFile(json: keys.json, generation: 1) == keys)
        var greedy = keys
        greedy.cost = KeysFile.Cost(logN: 40)
        #expect { try greedy.unwrap(passphrase: "correct horse", containerID: "c1") } throws: {
            ($0 as? CloudError)?.code == .badContainer
        }
    }
}
