import Crypto
import Foundation
import NotesCore
import NotesTestSupport
import Testing

@testable import CloudFolder

/// An account's identity for sharing (issue 24): the curves against their published vectors,
/// then the identity code a person pastes and the fingerprint they compare aloud.
@Suite("Identity: keys, code and fingerprint")
struct IdentityTests {
    static func bytes(_ hex: String) -> [UInt8] { FolderSeal.unhex(hex)! }

    @Test("X25519: the RFC 7748 §6.1 vector")
    func x25519Vector() throws {
        let alice = try Curve25519.KeyAgreement.PrivateKey(
            rawRepresentation: Self.bytes("77076d0a7318a57d3c16c17251b26645df4c2f87ebc0992ab177fba51db92c2a"))
        let bob = try Curve25519.KeyAgreement.PrivateKey(
            rawRepresentation: Self.bytes("5dab087e624a8a4b79e17f8b83800ee66f3bb1292618b6fd1c2f8b27ff88e0eb"))
        #expect(
            Array(alice.publicKey.rawRepresentation)
                == Self.bytes("8520f0098930a754748b7ddcb43ef75a0dbf3a0d26381af4eba4a98eaa9b4e6a"))
        #expect(
            Array(bob.publicKey.rawRepresentation)
                == Self.bytes("de9edb7d7b7dc1b4d35b61c2ece435373f8343c85b78674dadfc7e146f882b4f"))
        let shared = try alice.sharedSecretFromKeyAgreement(with: bob.publicKey)
        #expect(
            shared.withUnsafeBytes { Array($0) }
                == Self.bytes("4a5d9d5ba4ce2de1728e3bf480350f25e07e21c947d19e3376f09b3c1e161742"))
    }

    @Test("Ed25519: the RFC 8032 §7.1 test 1 vector")
    func ed25519Vector() throws {
        let key = try Curve25519.Signing.PrivateKey(
            rawRepresentation: Self.bytes("9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60"))
        #expect(
            Array(key.publicKey.rawRepresentation)
                == Self.bytes("d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a"))
        let signature = Self.bytes(
            "e5564300c360ac729086e2cc806e828a84877f1eb8e5d974d873e065224901555fb8821590a33bacc61e39701cf9b46bd25bf5f0595bbe24655141438e7a100b"
        )
        // Ed25519 is deterministic: swift-crypto's signature of the empty message is the RFC's.
        #expect(Array(try key.signature(for: Data())) == signature)
        #expect(key.publicKey.isValidSignature(signature, for: Data()))
    }

    @Test("an identity code round-trips, and any change to it is refused with a sentence")
    func codeRefusesTampering() throws {
        let identity = AccountIdentity.generate(name: "Ana Müller")
        let text = identity.code.text
        #expect(text.hasPrefix("cnid1.") && !text.contains(" ") && text.utf8.count < 250, "\(text)")
        let read = try IdentityCode(text: "  " + text + "\n")
        #expect(read == identity.code && read.name == "Ana Müller")
        // Another name under the same keys, another's encryption key, or a changed character.
        let other = AccountIdentity.generate(name: "Bo").code.text.split(separator: ".")
        let parts = text.split(separator: ".")
        let swaps = [
            "\(parts[0]).\(parts[1]).\(other[2])",
            "\(parts[0]).\(other[1].prefix(43))\(parts[1].dropFirst(43)).\(parts[2])",
        ]
        for swapped in swaps {
            #expect(throws: IdentityCodeError.doesNotVerify) { try IdentityCode(text: swapped) }
        }
        var random = SeededRandom(seed: SeededRandom.seed(default: 24))
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_.= é")
        for _ in 0..<300 {
            var characters = Array(text)
            let index = random.below(characters.count)
            switch random.below(3) {
            case 0: characters[index] = alphabet[random.below(alphabet.count)]
            case 1: characters.remove(at: index)
            default: characters.insert(alphabet[random.below(alphabet.count)], at: index)
            }
            let mangled = String(characters)
            guard mangled != text else { continue }
            #expect(throws: IdentityCodeError.self, "\(mangled)") { try IdentityCode(text: mangled) }
        }
        for junk in ["", "cnid1", "cnid1..", "cnid2.\(parts[1]).\(parts[2])", String(repeating: "A", count: 5000)] {
            #expect(throws: IdentityCodeError.self) { try IdentityCode(text: junk) }
        }
        #expect("\(IdentityCodeError.doesNotVerify)".contains("does not check out"))
    }

    @Test("the fingerprint is six groups of four digits of both public keys, the same under any name")
    func fingerprint() throws {
        let identity = try AccountIdentity(
            agreement: .init(rawRepresentation: [UInt8](repeating: 1, count: 32)),
            signing: .init(rawRepresentation: [UInt8](repeating: 2, count: 32)), name: "Ana")
        let fingerprint = identity.code.fingerprint
        #expect(fingerprint.wholeMatch(of: /\d{4}( \d{4}){5}/) != nil, "\(fingerprint)")
        #expect(identity.renamed("Someone else").code.fingerprint == fingerprint)
        #expect(AccountIdentity.generate(name: "Ana").code.fingerprint != fingerprint)
        // An oracle: the same digits computed here from SHA-256 by the rule SYNC-FORMAT states.
        let digest = Array(
            SHA256.hash(
                data: Array(identity.agreement.publicKey.rawRepresentation)
                    + Array(identity.signing.publicKey.rawRepresentation)))
        let groups = (0..<6).map { group in
            var value: UInt64 = 0
            for byte in digest[(group * 5)..<(group * 5 + 5)] { value = value * 256 + UInt64(byte) }
            return String(format: "%04llu", value % 10_000)
        }
        #expect(fingerprint == groups.joined(separator: " "))
    }

    @Test("an encrypted container keeps one identity, write-once; a plain one never holds private keys")
    func identityInTheContainer() throws {
        let io = InMemoryFileIO()
        io.plantDirectory("/cloud")
        let device = try #require(DeviceID("aaaaaaaaaaaaaaaa"))
        let hlc = HLC(millis: 1_700_000_000_000)
        let seal = FolderSeal.withRandomKey(containerID: UUID().uuidString.lowercased())
        let folder = DirectoryCloudFolder(root: "/cloud", io: io, seal: seal)
        _ = try folder.createContainer(device: device, hlc: hlc)
        #expect(try folder.readIdentity() == nil)
        let first = AccountIdentity.generate(name: "Ana")
        #expect(try folder.publishIdentity(first, device: device, hlc: hlc).sameKeys(as: first))
        // A second device that made its own meanwhile gets the one that stands.
        let second = AccountIdentity.generate(name: "Ana")
        let standing = try folder.publishIdentity(second, device: try #require(DeviceID("bbbbbbbbbbbbbbbb")), hlc: hlc)
        #expect(standing.sameKeys(as: first))
        let sealed = try #require(io.contents("/cloud/private/identity.json"))
        #expect(sealed.starts(with: Array("CNSEAL1\n".utf8)))
        let secret = Array(FolderSeal.hex(first.signing.rawRepresentation).utf8)
        #expect(
            !(0...(sealed.count - secret.count)).contains { sealed[$0..<($0 + secret.count)].elementsEqual(secret) })
        io.plantFile("/cloud/private/identity.json", Array(sealed.dropLast(3)))
        #expect(throws: CloudError.self) { try folder.readIdentity() }

        let plainIO = InMemoryFileIO()
        plainIO.plantDirectory("/plain")
        let plain = DirectoryCloudFolder(root: "/plain", io: plainIO)
        _ = try plain.createContainer(device: device, hlc: hlc)
        #expect(throws: CloudError.self) { try plain.publishIdentity(first, device: device, hlc: hlc) }
        #expect(plainIO.contents("/plain/private/identity.json") == nil)
    }
}
