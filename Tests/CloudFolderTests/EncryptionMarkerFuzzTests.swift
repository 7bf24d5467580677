import Crypto
import Foundation
import NotesCore
import NotesTestSupport
import Testing

@testable import CloudFolder

/// The files encrypting in place puts at the root, `encrypted.json` and `encrypted/<dev>.json`,
/// and keys files, damaged (ARCHITECTURE §7, issue 21 item 2): read through the strict
/// canonical parser, they return a value or nil, never trap; what is accepted is exactly the
/// canonical bytes of the one shape the writer writes, so two readers never disagree on a file.
@Suite struct EncryptionMarkerFuzzTests {
    static let containerID = "2aa3300b-2b71-4343-a20d-672b15ad9a9d"

    @Test("a pointer or marker that is not exactly the canonical shape is refused")
    func lookalikesAreRefused() {
        let id = Self.containerID
        #expect(DirectoryCloudFolder.encryptedPointer(in: DirectoryCloudFolder.pointerBytes(containerID: id)) == id)
        for text in [
            #"{"containerID":"\#(id)","containerID":"\#(id)","sealedIn":"sealed"}"#,  // a key twice
            #"{"containerID":"\#(id)","sealedIn":"sealed","x":1}"#,  // a field more
            #"{"containerID":"\#(id.uppercased())","sealedIn":"sealed"}"#,
            #"{"containerID":"\#(id)","sealedIn":"../elsewhere"}"#,
            #"{"sealedIn":"sealed","containerID":"\#(id)"}"#,  // not canonical: keys out of order
            #"{"containerID": "\#(id)", "sealedIn": "sealed"}"#,
            #"{"containerID":"\#(id)","sealedIn":"sealed"}garbage"#,
            #"{"containerID":"\#(id)","sealedIn":"sealed"}"# + "\n",
        ] {
            #expect(DirectoryCloudFolder.encryptedPointer(in: Array(text.utf8)) == nil, "\(text)")
        }
        #expect(DirectoryCloudFolder.movedMarker(in: Array(#"{"movedAt":1700000000000}"#.utf8)) == 1_700_000_000_000)
        for text in [
            #"{"movedAt":-1}"#, #"{"movedAt":1.5}"#, #"{"movedAt":"1"}"#, #"{"movedAt":1,"movedAt":2}"#,
            #"{"movedAt":140737488355328}"#, #"{"movedAt":1,"by":"x"}"#, "[]", "",
        ] {
            #expect(DirectoryCloudFolder.movedMarker(in: Array(text.utf8)) == nil, "\(text)")
        }
    }

    @Test("a planted pointer is not followed; a marker that does not check out keeps the plain files")
    func plantedRootFilesChangeNothing() throws {
        let io = InMemoryFileIO()
        io.plantDirectory("/cloud")
        let root = DirectoryCloudFolder(root: "/cloud", io: io)
        let device = DeviceID("aaaaaaaaaaaaaaaa")!
        _ = try root.createContainer(device: device, hlc: HLC(millis: 1))
        try root.writeDevice(DeviceInfo(name: "a", lastSeen: 1000), device: device, hlc: HLC(millis: 1))
        io.plantFile("/cloud/encrypted.json", Array(#"{"containerID":"x","sealedIn":"sealed"}"#.utf8))
        #expect(root.encryptedContainerID() == nil)
        #expect(root.encryptedPointerState() == .refused)
        io.plantDirectory("/cloud/encrypted")
        io.plantFile("/cloud/encrypted/\(device).json", Array("{}".utf8))
        #expect(try root.devicesNotMovedToSealed(now: 2000, inactiveAfter: 10_000) == [device])
        try root.markMovedToSealed(device: device, hlc: HLC(millis: 1500))  // its own: written again
        #expect(try root.devicesNotMovedToSealed(now: 2000, inactiveAfter: 10_000) == [])
    }

    @Test func damagedRootFilesAndKeysFilesNeverTrap() throws {
        let run = FuzzRun("encryption root files and keys files", defaultIterations: 20_000)
        var rng = SeededRandom(seed: run.seed)
        let keys = try KeysFile.wrap(
            SymmetricKey(size: .bits256), passphrase: "p", generation: 3, containerID: Self.containerID,
            cost: KeysFile.Cost(logN: 10))
        let corpus = [
            DirectoryCloudFolder.pointerBytes(containerID: Self.containerID),
            Array(#"{"movedAt":1700000000000}"#.utf8), keys.json.canonicalBytes,
        ]
        let mutator = ByteMutator(
            corpus: corpus,
            extraTokens: ["sealedIn", "containerID", "movedAt", "logN", "\"r\":", "\"p\":", "salt", "wrapped"].map {
                Array($0.utf8)
            })
        var accepted = 0
        for iteration in 0..<run.iterations {
            let context = run.context(iteration)
            let bytes = mutator.mutate(corpus.randomElement(using: &rng)!, using: &rng)
            if let id = DirectoryCloudFolder.encryptedPointer(in: bytes) {
                #expect(DirectoryCloudFolder.pointerBytes(containerID: id) == bytes, "\(context)")
                accepted += 1
            }
            if let millis = DirectoryCloudFolder.movedMarker(in: bytes) {
                #expect(JSONValue.object(["movedAt": .int(millis)]).canonicalBytes == bytes, "\(context)")
                accepted += 1
            }
            // Keys files with hostile parameters: decoded or refused; what decodes and asks for
            // more than the ceiling is refused before any derivation.
            guard let json = try? JSONValue(parsing: Data(bytes)), let file = try? KeysFile(json: json, generation: 3)
            else { continue }
            #expect(try KeysFile(json: file.json, generation: 3) == file, "\(context)")
            if !file.cost.isAcceptable {
                #expect(throws: CloudError.self, "\(context)") { try file.unwrap(passphrase: "p", containerID: "c") }
            }
        }
        print("fuzz encryption root files: \(accepted) of \(run.iterations) damaged files still accepted")
    }
}
