import Crypto
import NotesCore

/// The keys files of an encrypted container (SYNC-FORMAT rule 14).
extension DirectoryCloudFolder {
    /// Publishes a keys file (write-once: a generation is never rewritten).
    public func publishKeys(_ keys: KeysFile, device: DeviceID, hlc: HLC) throws {
        try requireContainer()
        try io.ensureDirectory(layout.keysDirectory)
        var envelope = Envelope(kind: .keys, device: device.rawValue, seq: keys.generation, hlc: hlc, body: keys.json)
        envelope.format = Envelope.encryptedFormat
        _ = try publishOnce(envelope.encoded, at: layout.keysFile(generation: keys.generation), device: device)
    }

    /// The keys files that check out, oldest generation first, and the names of those that do not.
    public func keysFiles() throws -> (files: [KeysFile], refused: [String]) {
        try requireContainer()
        var files: [KeysFile] = []
        var refused: [String] = []
        for name in try io.listIfPresent(layout.keysDirectory).sorted() {
            guard let generation = CloudName.logFile(name) else {
                if !Self.mayBeInAnEmptyFolder(name) { refused.append("keys/" + name) }
                continue
            }
            let path = layout.keysFile(generation: generation)
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

    /// The data key the passphrase opens, trying the newest generation first (a passphrase
    /// change does not revoke the older ones: the data key is the same). Throws
    /// `notAuthenticated` ("wrong passphrase") when none opens, `badContainer` when there is
    /// no keys file.
    public func unlock(passphrase: String, containerID: String) throws -> SymmetricKey {
        let (files, refused) = try keysFiles()
        guard !files.isEmpty else {
            let detail = refused.isEmpty ? "" : " (\(refused.joined(separator: ", ")) do not check out)"
            throw CloudError(
                .badContainer, "the encrypted cloud folder has no keys file that checks out\(detail)",
                path: layout.keysDirectory)
        }
        var lastError: any Error = CloudError(.notAuthenticated, "wrong passphrase for this encrypted cloud folder")
        for file in files.reversed() {
            do {
                return try file.unwrap(passphrase: passphrase, containerID: containerID)
            } catch {
                lastError = error
            }
        }
        throw lastError
    }
}
