import Crypto
import NotesCore

/// A passphrase change that revokes (SYNC-FORMAT rule 14): the data keys (one more with
/// `--new-key`) are wrapped again as the next generation, then every older keys file is removed, so the old passphrase opens nothing
/// left in the folder. (A copy of an old keys file kept elsewhere still opens the data key with
/// the old passphrase; README "Changing the passphrase" says what that reads.)
extension DirectoryCloudFolder {
    /// What a passphrase change did.
    public struct Rekeyed: Sendable, Equatable {
        /// The generation written.
        public var generation: Int64
        /// Files in `keys/` that did not check out (damaged or planted): skipped, and removed
        /// with the older generations when their names are generations.
        public var damaged: [String]
        /// How many keys files (older generations) were removed.
        public var removed: Int
    }

    /// Wraps the data keys of `keyring` under `passphrase` as the generation after every file in `keys/` (one
    /// that does not check out included: damage never blocks a change), checks that it stands
    /// (a change by another device at the same instant wins or loses whole), then removes every
    /// older generation. Throws `serverRecordChanged` when another device's change took the
    /// generation: nothing is removed then, and its passphrase is the one in force.
    public func rekey(
        _ keyring: Keyring, passphrase: String, device: DeviceID, hlc: HLC, cost: KeysFile.Cost = .standard
    ) throws -> Rekeyed {
        guard let containerID = seal?.containerID else {
            throw CloudError(.badContainer, "a passphrase is changed only in an encrypted container", path: layout.root)
        }
        try requireContainer()
        let names = try io.listIfPresent(layout.keysDirectory)
        let generations = names.compactMap(CloudName.logFile)
        let damaged = try keysFiles().refused
        let generation = (generations.max() ?? 0) + 1
        let keys = try KeysFile.wrap(
            keyring, passphrase: passphrase, generation: generation, containerID: containerID, cost: cost)
        let path = layout.keysFile(generation: generation)
        let lost = CloudError(
            .serverRecordChanged,
            "another device changed the passphrase at the same time and its change stands (keys file \(generation)); "
                + "yours was not set: its passphrase is the one in force now; run the change again to set yours",
            path: path)
        do {
            try publishKeys(keys, device: device, hlc: hlc)
        } catch let error as CloudError where error.code == .serverRecordChanged {
            throw lost
        }
        // Read back: on a plain directory a writer racing in the same instant replaces the file.
        guard let standing = try io.readIfPresent(path, maxBytes: Self.maxSmallFileBytes),
            standing == keysEnvelope(keys, device: device, hlc: hlc)
        else { throw lost }
        var removed = 0
        for older in generations where older < generation {
            do {
                try io.remove(layout.keysFile(generation: older))
                removed += 1
            } catch let error as CloudError where error.code == .unknownItem {
                continue  // removed by another device's change meanwhile
            }
        }
        try io.fsyncDirectory(layout.keysDirectory)
        return Rekeyed(generation: generation, damaged: damaged, removed: removed)
    }
}
