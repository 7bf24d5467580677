import Crypto
import Foundation
import NotesCore
import NotesTestSupport
import Testing

@testable import CloudFolder

/// The primitives of a shared place (SYNC-FORMAT rules 17–20): HPKE and Ed25519 against their
/// published vectors, the key boxes, signed files and change signatures.
@Suite("Sharing: HPKE, signatures, signed files")
struct ShareCryptoTests {
    static func bytes(_ hex: String) -> [UInt8] { FolderSeal.unhex(hex)! }
    static let share = "0d6bb3e6-5b4e-4b0a-9a54-8f1c2f3b9e10"

    /// RFC 9180 Appendix A.2.1 (DHKEM(X25519, HKDF-SHA256), HKDF-SHA256, ChaCha20-Poly1305, base
    /// mode), as published in github.com/cfrg/draft-irtf-cfrg-hpke test-vectors.json (mode 0,
    /// kem_id 32, kdf_id 1, aead_id 3): the recipient's key, the sender's encapsulated key, and
    /// the first two encryptions and first export.
    enum RFC9180A21 {
        static let info = "4f6465206f6e2061204772656369616e2055726e"
        static let skRm = "8057991eef8f1f1af18f4a9491d16a1ce333f695d4db8e38da75975c4478e0fb"
        static let pkRm = "4310ee97d88cc1f088a5576c77ab0cf5c3ac797f3d95139c6c84b5429c59662a"
        static let enc = "1afa08d3dec047a643885163f1180476fa7ddb54c6a8029ea33f95796bf2ac4a"
        static let pt = "4265617574792069732074727574682c20747275746820626561757479"
        static let aad0 = "436f756e742d30"
        static let ct0 = "1c5250d8034ec2b784ba2cfd69dbdb8af406cfe3ff938e131f0def8c8b60b4db21993c62ce81883d2dd1b51a28"
        static let aad1 = "436f756e742d31"
        static let ct1 = "6b53c051e4199c518de79594e1c4ab18b96f081549d45ce015be002090bb119e85285337cc95ba5f59992dc98c"
        static let exported32 = "4bbd6243b8bb54cec311fac9df81841b6fd61f56538a775e7c80a9f40160606e"
    }

    @Test("HPKE: swift-crypto opens the RFC 9180 A.2.1 vector with the suite the key boxes use")
    func hpkeVector() throws {
        let key = try Curve25519.KeyAgreement.PrivateKey(rawRepresentation: Self.bytes(RFC9180A21.skRm))
        #expect(Array(key.publicKey.rawRepresentation) == Self.bytes(RFC9180A21.pkRm))
        var recipient = try HPKE.Recipient(
            privateKey: key, ciphersuite: EpochKeyBox.ciphersuite, info: Data(Self.bytes(RFC9180A21.info)),
            encapsulatedKey: Data(Self.bytes(RFC9180A21.enc)))
        let first = try recipient.open(Self.bytes(RFC9180A21.ct0), authenticating: Self.bytes(RFC9180A21.aad0))
        #expect(Array(first) == Self.bytes(RFC9180A21.pt))
        let second = try recipient.open(Self.bytes(RFC9180A21.ct1), authenticating: Self.bytes(RFC9180A21.aad1))
        #expect(Array(second) == Self.bytes(RFC9180A21.pt))
        let exported = try recipient.exportSecret(context: Data(), outputByteCount: 32)
        #expect(exported.withUnsafeBytes { Array($0) } == Self.bytes(RFC9180A21.exported32))
    }

    @Test("Ed25519: the RFC 8032 §7.1 test 2 vector verifies, and a changed message does not")
    func ed25519Vector() throws {
        let key = try Curve25519.Signing.PrivateKey(
            rawRepresentation: Self.bytes("4ccd089b28ff96da9db6c346ec114e0f5b8a319f35aba624da8cf6ed4fb8a6fb"))
        #expect(
            Array(key.publicKey.rawRepresentation)
                == Self.bytes("3d4017c3e843895a92b70aa74d1b7ebc9c982ccf2ec4968cc0cd55f12af4660c"))
        let signature = Self.bytes(
            "92a009a9f0d4cab8720e820b5f642540a2b27b5416503f8fb3762223ebdb69da085ac1e43e15996e458f3613d0f11d8c387b2eaeb4302aeeb00d291612bb0c00"
        )
        #expect(key.publicKey.isValidSignature(signature, for: [0x72]))
        #expect(!key.publicKey.isValidSignature(signature, for: [0x73]))
    }

    @Test("a key box opens for its member only, in its epoch only, and is plain RFC 9180 HPKE")
    func keyBox() throws {
        let bo = AccountIdentity.generate(name: "Bo")
        let cy = AccountIdentity.generate(name: "Cy")
        let key = SymmetricKey(size: .bits256)
        let box = try EpochKeyBox.seal(key, to: bo.code, share: Self.share, epoch: 3, entry: 5)
        #expect(try box.open(with: bo, share: Self.share, epoch: 3) == key)
        #expect(throws: ShareError.self) { try box.open(with: cy, share: Self.share, epoch: 3) }
        #expect(throws: ShareError.self) { try box.open(with: bo, share: Self.share, epoch: 4) }
        #expect(throws: ShareError.self) {
            try box.open(with: bo, share: "11111111-2222-3333-4444-555555555555", epoch: 3)
        }
        // Another program opens it with the info SYNC-FORMAT spells out.
        let info =
            Array("cloudnotes epoch key v1".utf8) + [0] + Array(Self.share.utf8) + [0] + Array("3".utf8) + [0]
            + Array(bo.memberID.utf8)
        var recipient = try HPKE.Recipient(
            privateKey: bo.agreement, ciphersuite: .Curve25519_SHA256_ChachaPoly, info: Data(info),
            encapsulatedKey: Data(box.enc))
        #expect(try recipient.open(box.sealed) == key.withUnsafeBytes { Data($0) })
        // Its body round-trips through the strict reader.
        #expect(try EpochKeyBox(body: JSONValue(parsing: box.body.canonicalData)) == box)
    }

    @Test("a signed file verifies under its signer's key only, and any changed byte is refused")
    func signedFile() throws {
        let ana = AccountIdentity.generate(name: "Ana")
        let bo = AccountIdentity.generate(name: "Bo")
        let file = SignedFile(
            kind: .answer, share: Self.share, body: .object(["answer": .string("accepted"), "entry": .int(2)]),
            signedBy: ana)
        let read = try SignedFile(parsing: file.bytes, kind: .answer, share: Self.share, path: "a")
        #expect(read == file && read.isSigned(by: ana.code) && !read.isSigned(by: bo.code))
        #expect(throws: ShareError.self) {
            try SignedFile(parsing: file.bytes, kind: .member, share: Self.share, path: "a")
        }
        #expect(throws: ShareError.self) {
            try SignedFile(parsing: file.bytes, kind: .answer, share: "11111111-2222-3333-4444-555555555555", path: "a")
        }
        // The same body under another signer id, or another entry number: the signature fails.
        let text = String(decoding: file.bytes, as: UTF8.self)
        for forged in [
            text.replacingOccurrences(of: ana.memberID, with: bo.memberID),
            text.replacingOccurrences(of: "\"entry\":2", with: "\"entry\":3"),
        ] {
            let forgedFile = try SignedFile(parsing: Array(forged.utf8), kind: .answer, share: Self.share, path: "a")
            #expect(!forgedFile.isSigned(by: ana.code) && !forgedFile.isSigned(by: bo.code))
        }
        let newer = text.replacingOccurrences(of: "\"format\":1", with: "\"format\":2")
        #expect(
            throws: ShareError(.newerFormat, "a was written by a newer program (shared format 2); update cloudnotes")
        ) {
            try SignedFile(parsing: Array(newer.utf8), kind: .answer, share: Self.share, path: "a")
        }
    }

    @Test("a change signature names its entry; a read-only, removed or unknown signer is refused")
    func batchSignature() throws {
        let (owner, writer, reader) = (
            AccountIdentity.generate(name: "Ana"), AccountIdentity.generate(name: "Bo"),
            AccountIdentity.generate(name: "Cy")
        )
        let io = InMemoryFileIO()
        let device = DeviceID("aaaaaaaaaaaaaaaa")!
        let place = SharedPlace(io: io, root: "/s", device: device)
        var state = try SharedPlace.create(io: io, root: "/s", device: device, owner: owner, hlc: HLC(millis: 1))
        state = try place.invite(writer.code, role: .readWrite, by: owner, after: state.log.checkpoint)
        state = try place.invite(reader.code, role: .readOnly, by: owner, after: state.log.checkpoint)
        let body = Array("[{\"a\":1}]".utf8)
        let entry = state.log.head.number
        let signed = BatchSignature(signing: body, share: state.share, entry: entry, by: writer)
        try signed.check(body, log: state.log, device: "bbbbbbbbbbbbbbbb", seq: 1)
        #expect(try BatchSignature(json: JSONValue(parsing: signed.json.canonicalData)) == signed)
        // Other bytes, a read-only member, someone not in the share, an entry not checked here.
        #expect(throws: ShareError.self) {
            try signed.check(body + [0x20], log: state.log, device: "bbbbbbbbbbbbbbbb", seq: 1)
        }
        let byReader = BatchSignature(signing: body, share: state.share, entry: entry, by: reader)
        #expect(throws: ShareError.self) {
            try byReader.check(body, log: state.log, device: "cccccccccccccccc", seq: 1)
        }
        let byStranger = BatchSignature(
            signing: body, share: state.share, entry: entry, by: AccountIdentity.generate(name: "Dee"))
        #expect(throws: ShareError.self) {
            try byStranger.check(body, log: state.log, device: "dddddddddddddddd", seq: 1)
        }
        let ahead = BatchSignature(signing: body, share: state.share, entry: entry + 1, by: writer)
        #expect(throws: ShareError.self) { try ahead.check(body, log: state.log, device: "bbbbbbbbbbbbbbbb", seq: 1) }
        // Removed with a cutoff of seq 4 on their device: seq 4 still applies, seq 5 is refused,
        // even naming the entry where they could write.
        state = try place.remove(
            writer.memberID, by: owner, cutoff: ["bbbbbbbbbbbbbbbb": 4], after: state.log.checkpoint)
        try signed.check(body, log: state.log, device: "bbbbbbbbbbbbbbbb", seq: 4)
        #expect(throws: ShareError.self) { try signed.check(body, log: state.log, device: "bbbbbbbbbbbbbbbb", seq: 5) }
        let late = BatchSignature(signing: body, share: state.share, entry: state.log.head.number, by: writer)
        #expect(throws: ShareError.self) { try late.check(body, log: state.log, device: "bbbbbbbbbbbbbbbb", seq: 1) }
    }
}
