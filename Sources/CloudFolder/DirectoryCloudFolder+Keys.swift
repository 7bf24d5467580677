import Crypto
import NotesCore

/// The keys files of an encrypted container (SYNC-FORMAT rule 14).
extension DirectoryCloudFolder {
    /// Publishes a keys file (write-once: a generation is never rewritten).
    public func publishKeys(_ keys: KeysFile, device: DeviceID, hlc: HLC) throws {
        try requireContainer()
        try publishKeysFile(keys, device: device, hlc: hlc)
    }

    /// Publishes a keys file whether or not `container.json` is there yet: a new encrypted
    /// container's keys file comes first ("Encrypting in place"), so a container is never
    /// announced without one.
    func publishKeysFile(_ keys: KeysFile, device: DeviceID, hlc: HLC) throws {
        try io.ensureDirectory(layout.keysDirectory)
        _ = try publishOnce(
            keysEnvelope(keys, device: device, hlc: hlc), at: layout.keysFile(generation: keys.generation),
            device: device)
    }

    func keysEnvelope(_ keys: KeysFile, device: DeviceID, hlc: HLC) -> [UInt8] {
        var envelope = Envelope(kind: .keys, device: device.rawValue, seq: keys.generation, hlc: hlc, body: keys.json)
        envelope.format = keys.keyCount > 1 ? Envelope.keyringFormat : Envelope.encryptedFormat
        return envelope.encoded
    }

    /// The keys files that check out, oldest generation first, and the names of those that do not.
    public func keysFiles() throws -> (files: [KeysFile], refused: [String]) {
        try requireContainer()
        return try readKeysFiles()
    }

    /// `keysFiles()` without asking for `container.json` first.
    func readKeysFiles() throws -> (files: [KeysFile], refused: [String]) {
        var files: [KeysFile] = []
        var refused: [String] = []
        for name in try io.listIfPresent(layout.keysDirectory).sorted() {
            guard let generation = CloudName.logFile(name) else {
                if !Self.mayBeInAnEmptyFolder(name) { refused.append("keys/" + name) }
                continue
            }
            let path = layout.keysFile(generation: generation)
            // A keys file that cannot be read or parsed is refused and named (`refused`), never used.
            guard let bytes = try? io.readIfPresent(path, maxBytes: Self.maxSmallFileBytes),
                case .valid(let envelope) = Envelope.verify(bytes, expecting: .init(kind: .keys, seq: generation)),
                let file = try? KeysFile(json: envelope.body, generation: generation)
            else {
                refused.append("keys/" + name)
                continue
            }
            files.append(file)
        }
        return (files, refused)
    }

    /// The newest data key the passphrase opens (`unlockKeyring`).
    public func unlock(passphrase: String, containerID: String) throws -> SymmetricKey {
        let keys = try unlockKeyring(passphrase: passphrase, containerID: containerID).keys
        return keys[keys.count - 1]
    }

    /// The data keys the passphrase opens. Files asking for scrypt work above the ceiling are
    /// refused unread (`KeysFile.Cost.ceiling`); of the rest, the cheapest are tried first and,
    /// among equals, the newest: a planted file costs at most the ceiling, and one that asks for
    /// more work than the genuine ones is tried only after them. Throws `notAuthenticated`
    /// ("wrong passphrase") when none opens, `badContainer` when there is no keys file.
    public func unlockKeyring(passphrase: String, containerID: String) throws -> Keyring {
        let (files, refused) = try keysFiles()
        let usable = files.filter(\.cost.isAcceptable)
        guard !usable.isEmpty else {
            let tampered = files.map { "keys/" + CloudLayout.padded($0.generation) + ".json" }
            var detail = refused.isEmpty ? "" : " (\(refused.joined(separator: ", ")) do not check out)"
            if !tampered.isEmpty {
                detail +=
                    "; \(tampered.joined(separator: ", ")) ask for scrypt work above the ceiling and were "
                    + "refused as tampering, nothing derived"
            }
            throw CloudError(
                .badContainer, "the encrypted cloud folder has no keys file that checks out\(detail)",
                path: layout.keysDirectory)
        }
        for file in Self.unlockOrder(usable) {
            // Not this passphrase: the next file is tried; none opening is "wrong passphrase" below.
            if let keyring = try? file.unwrapKeyring(passphrase: passphrase, containerID: containerID) {
                return keyring
            }
        }
        throw CloudError(.notAuthenticated, "wrong passphrase for this encrypted cloud folder")
    }

    /// The number of keys the folder's keys files say its ring holds (the most any says; 0
    /// without keys files): more than a device holds means the key was changed on another device
    /// (`sync passphrase --new-key`). Read without the passphrase: a planted file can claim more,
    /// which stops this device's writing (a denial of service, as deleting files is), never
    /// makes it write with a key others do not hold.
    public func keyCountInForce() throws -> Int {
        try keysFiles().files.map(\.keyCount).max() ?? 0
    }

    /// The order keys files are tried in: least scrypt work first, then newest generation first.
    public static func unlockOrder(_ files: [KeysFile]) -> [KeysFile] {
        files.sorted { ($0.cost.work, -$0.generation) < ($1.cost.work, -$1.generation) }
    }
}
