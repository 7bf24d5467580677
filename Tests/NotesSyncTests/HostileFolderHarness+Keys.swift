import CloudFolder
import Crypto
import Foundation
import NotesCore
import NotesTestSupport

/// The attacker's keys files and encryption markers (issue 21 item 2): it plants keys files
/// asking for any scrypt parameters at any generation after the genuine one, and forged
/// `encrypted.json` and `encrypted/<dev>.json` at the root. Invariants: the genuine passphrase
/// still unlocks the genuine key at once (nothing planted is derived first, nothing above the
/// ceiling at all), a pointer that is not exactly ours is never followed, a forged marker never
/// counts as a device moved, and the devices' syncs go on (checked by the harness).
extension HostileFolderHarness {
    static let passphrase = "harness passphrase"

    func attackKeysAndMarkers(_ run: Run) throws {
        let folder = run.folder
        let containerID = folder.seal?.containerID ?? "2aa3300b-2b71-4343-a20d-672b15ad9a9d"
        let hlc = HLC(millis: 1_700_000_000_000)
        let owner = DeviceID("keysownerxxxxxxx") ?? forgedDevice(run)
        if try folder.keysFiles().files.first(where: { $0.generation == 1 }) == nil {
            let genuine = try KeysFile.wrap(
                SymmetricKey(size: .bits256), passphrase: Self.passphrase, generation: 1, containerID: containerID,
                cost: KeysFile.Cost(logN: 10))
            try folder.publishKeys(genuine, device: owner, hlc: hlc)
        }
        let generation = Int64(2 + run.random.below(1000))
        let cost = KeysFile.Cost(
            logN: 10 + run.random.below(11), r: 1 + run.random.below(16), p: 1 + run.random.below(4))
        let planted = KeysFile(
            generation: generation, containerID: containerID, cost: cost,
            salt: (0..<16).map { _ in UInt8(run.random.below(256)) },
            wrapped: (0..<60).map { _ in UInt8(run.random.below(256)) })
        var envelope = Envelope(
            kind: .keys, device: owner.rawValue, seq: generation, hlc: hlc, body: planted.json)
        envelope.format = Envelope.encryptedFormat
        run.io.plantFile(folder.layout.keysFile(generation: generation), envelope.encoded)
        run.outcome.planted += 1

        let clock = ContinuousClock()
        let start = clock.now
        let genuine = try folder.keysFiles().files.first { $0.generation == 1 }
        let expected = try genuine?.unwrap(passphrase: Self.passphrase, containerID: containerID)
        let unlocked = try? folder.unlock(passphrase: Self.passphrase, containerID: containerID)
        if unlocked == nil || unlocked != expected {
            run.outcome.failures.append("\(label): the genuine passphrase no longer unlocks after \(planted.cost)")
        }
        if clock.now - start > .seconds(1) {
            run.outcome.failures.append("\(label): an unlock took \(clock.now - start) with a planted \(cost)")
        }

        // Root markers: a forged pointer and a forged moved marker.
        let root = folder.layout.root
        let pointer = Array(#"{"containerID":"\#(containerID)","sealedIn":"sealed"}"#.utf8)
        let forgedPointer = ByteMutator(corpus: [pointer]).mutate(pointer, using: &run.random)
        run.io.plantFile(root + "/" + DirectoryCloudFolder.encryptedFileName, forgedPointer)
        if let id = folder.encryptedContainerID(),
            Array(#"{"containerID":"\#(id)","sealedIn":"sealed"}"#.utf8) != forgedPointer
        {
            run.outcome.failures.append("\(label): a forged encrypted.json was followed: \(forgedPointer)")
        }
        let victim = run.devices[run.random.below(run.devices.count)].store.deviceID
        run.io.plantDirectory(root + "/" + DirectoryCloudFolder.movedDevicesFolderName)
        let marker = Array(#"{"movedAt":1700000000000}"#.utf8)
        let forgedMarker = ByteMutator(corpus: [marker]).mutate(marker, using: &run.random)
        run.io.plantFile(root + "/encrypted/\(victim).json", forgedMarker)
        let waiting = try folder.devicesNotMovedToSealed(now: 1_700_000_000_000, inactiveAfter: Int64.max / 2)
        if let device = DeviceID(victim), try folder.devices().items.contains(device), !waiting.contains(device),
            DirectoryCloudFolder.movedMarker(in: forgedMarker) == nil
        {
            run.outcome.failures.append("\(label): a forged marker counted \(victim) as moved")
        }
        try? run.io.remove(root + "/encrypted/\(victim).json")
    }
}
