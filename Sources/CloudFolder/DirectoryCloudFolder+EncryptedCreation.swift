import Crypto
import Foundation
import NotesCore

/// Creating an encrypted container so that no instant of it strands anyone (SYNC-FORMAT rule 14,
/// "Encrypting in place"): keys file 1 first, naming its container; `container.json` second; the
/// caller announces the container (`encrypted.json`) only after both. Keys file 1 is where two
/// devices creating at once meet: the one whose file stands wins, the other follows it with its
/// passphrase, and a run cut short anywhere is completed by the next one with the passphrase.
extension DirectoryCloudFolder {
    /// What establishing an encrypted container did: made a new one, or took up one that an
    /// earlier run (cut short, or another device's at the same time) had started.
    public enum EncryptedCreation: Sendable, Equatable {
        case created
        case followed
    }

    /// Creates an encrypted container in this (plain view of an) empty folder, or completes the
    /// one whose keys file 1 is already here when `passphrase` opens it. `replacingOrphan`: a
    /// `container.json` with no keys file (left by a build before 0.16 cut short between the
    /// two; nobody can have joined it) is removed first; only where the container has not been
    /// announced.
    public func establishEncryptedContainer(
        passphrase: String, device: DeviceID, hlc: HLC, cost: KeysFile.Cost = .standard,
        replacingOrphan: Bool = false
    ) throws -> (dataKey: SymmetricKey, seal: FolderSeal, outcome: EncryptedCreation) {
        if replacingOrphan, try readKeysFiles().files.isEmpty,
            case .regular = try io.kind(layout.containerFile)
        {
            try io.remove(layout.containerFile)
            try io.fsyncDirectory(layout.root)
        }
        for _ in 0..<3 {
            if let first = try firstKeysFile() {
                let dataKey = try follow(first, passphrase: passphrase, device: device, hlc: hlc)
                return (dataKey, FolderSeal(dataKey: dataKey, containerID: first.containerID ?? ""), .followed)
            }
            try requireEmptyForEncryption()
            let dataKey = SymmetricKey(size: .bits256)
            let containerID = UUID().uuidString.lowercased()
            let keys = try KeysFile.wrap(
                dataKey, passphrase: passphrase, generation: 1, containerID: containerID, cost: cost)
            do {
                try publishKeysFile(keys, device: device, hlc: hlc)
            } catch let error as CloudError where error.code == .serverRecordChanged {
                continue  // another device's keys file 1 stands: follow it
            }
            // Read back: a writer racing in the same instant may have replaced ours.
            guard let standing = try firstKeysFile(), standing == keys else { continue }
            let seal = FolderSeal(dataKey: dataKey, containerID: containerID)
            try completeContainer(seal, device: device, hlc: hlc)
            return (dataKey, seal, .created)
        }
        throw CloudError(
            .serverRecordChanged,
            "another device keeps changing the encrypted container being created; nothing was written",
            path: layout.keysDirectory)
    }

    /// Keys file 1 as it stands, when it checks out and names its container.
    func firstKeysFile() throws -> KeysFile? {
        let (files, refused) = try readKeysFiles()
        if let first = files.first(where: { $0.generation == 1 }), first.containerID != nil { return first }
        if !files.isEmpty || !refused.isEmpty {
            throw CloudError(
                .badContainer,
                "the folder's keys/ holds files that are not a new encrypted container's keys file 1; nothing was written",
                path: layout.keysDirectory)
        }
        return nil
    }

    /// Opens keys file 1 with the passphrase and completes its container; returns the data key.
    private func follow(_ first: KeysFile, passphrase: String, device: DeviceID, hlc: HLC) throws -> SymmetricKey {
        guard let containerID = first.containerID else {
            throw CloudError(.badContainer, "keys file 1 names no container", path: layout.keysDirectory)
        }
        let dataKey: SymmetricKey
        do {
            dataKey = try first.unwrap(passphrase: passphrase, containerID: containerID)
        } catch let error as CloudError where error.code == .notAuthenticated {
            throw CloudError(
                .notAuthenticated,
                "another device started this encrypted container with a different passphrase; nothing was written: "
                    + "run the command again with that passphrase to finish and join it",
                path: layout.keysDirectory)
        }
        try completeContainer(FolderSeal(dataKey: dataKey, containerID: containerID), device: device, hlc: hlc)
        return dataKey
    }

    /// Writes `container.json` for `seal` when it is missing; one that names another container
    /// is refused.
    private func completeContainer(_ seal: FolderSeal, device: DeviceID, hlc: HLC) throws {
        let info = ContainerInfo(containerID: seal.containerID, version: Envelope.encryptedFormat, encrypted: true)
        func check() throws {
            let standing = try readContainer(boundTo: nil)
            guard standing.encrypted, standing.containerID == seal.containerID else {
                throw CloudError(
                    .badContainer,
                    "container.json names container \(standing.containerID), not the one its keys file 1 names; "
                        + "nothing was written",
                    path: layout.containerFile)
            }
        }
        guard try io.readIfPresent(layout.containerFile, maxBytes: Self.maxSmallFileBytes) == nil else {
            return try check()
        }
        do {
            try publishContainerFile(info, device: device, hlc: hlc)
        } catch let error as CloudError where error.code == .serverRecordChanged {
            try check()  // completed by another device at the same time
        }
    }

    /// Refuses a folder holding anything besides hidden names and an empty `keys/`.
    private func requireEmptyForEncryption() throws {
        let names: [String]
        do {
            names = try io.list(layout.root)
        } catch let error as CloudError where error.code == .unknownItem {
            throw CloudError(.accountTemporarilyUnavailable, "the cloud folder does not exist", path: layout.root)
        }
        let content = names.filter { !Self.mayBeInAnEmptyFolder($0) && $0 != "keys" }
        guard content.isEmpty else {
            throw CloudError(
                .badContainer,
                "a container is created only in an empty folder; this one holds \(content.count) item(s)",
                path: layout.root)
        }
    }
}
