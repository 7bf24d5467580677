import Crypto
import NotesCore

/// Content-addressed chunks of records too large to travel inline (SYNC-FORMAT rule 15):
/// `private/assets/<first two characters>/<name>`, write-once, named by the SHA-256 of the
/// chunk's bytes (an HMAC under the container's asset key when it is encrypted, so a name
/// reveals nothing), sealed like every file under `private/`.
extension DirectoryCloudFolder: AssetStore {
    /// The name of a chunk written now: its (keyed) hash in hex.
    func chunkName(_ bytes: ArraySlice<UInt8>) -> String {
        if let seal { return FolderSeal.hex(HMAC<SHA256>.authenticationCode(for: bytes, using: seal.assetKey)) }
        return FolderSeal.hex(SHA256.hash(data: bytes))
    }

    /// The names a chunk may have: under each key of the ring, the newest first (a chunk keeps
    /// the name of the key in force when it was written, rule 14).
    func chunkNames(_ bytes: ArraySlice<UInt8>) -> [String] {
        guard let seal, seal.keyNumber > 1 else { return [chunkName(bytes)] }
        return seal.assetKeys.map { FolderSeal.hex(HMAC<SHA256>.authenticationCode(for: bytes, using: $0)) }
    }

    public func assetFile(_ name: String) -> String {
        layout.privateDirectory + "/assets/" + String(name.prefix(2)) + "/" + name
    }

    public func storeAsset(_ bytes: [UInt8], device: DeviceID) throws -> AssetRef {
        var names: [String] = []
        var written: [String] = []
        var start = 0
        do {
            repeat {
                let chunk = bytes[start..<min(bytes.count, start + AssetRef.chunkSize)]
                let name = chunkName(chunk)
                let path = assetFile(name)
                try io.ensureDirectory(layout.privateDirectory + "/assets")
                try io.ensureDirectory(CloudPath.parent(of: path))
                // Equal content is equal bytes, sealed or not: a chunk another device or an earlier
                // attempt wrote is already there.
                if try publishChunk(Array(chunk), name: name, device: device) == .published {
                    try attachments?.rememberOwnChunks([name], folder: attachmentFolderIdentity)
                    written.append(name)
                }
                names.append(name)
                start += AssetRef.chunkSize
            } while start < bytes.count
        } catch let error as CloudError where error.code == .quotaExceeded {
            removeChunksOfWhatDidNotFit(written)
            throw error
        }
        return AssetRef(chunks: names, size: bytes.count)
    }

    /// Removes the chunks this device has just written for content that did not fit whole in a
    /// full cloud folder (issue 21 item 13): no record names them, and the room they take is
    /// what smaller changes need. Only chunks this write created (`.published`), never one
    /// that was already there. Best effort: a chunk left is this device's own, which chunk
    /// collection deletes once nothing has named it for the grace period (rule 15).
    func removeChunksOfWhatDidNotFit(_ names: [String]) {
        guard !names.isEmpty else { return }
        var removed: [String] = []
        for name in names {
            // A chunk that cannot be removed now stays one of this device's own (see above).
            if (try? io.remove(assetFile(name))) != nil { removed.append(name) }
        }
        // Not forgotten (a failed write): the next collection finds them gone and forgets them.
        try? attachments?.forgetOwnChunks(removed, folder: attachmentFolderIdentity)
    }

    /// Writes a chunk once (rule 15). A chunk is named by its content, so a file at its path
    /// that does not check out against its name (damaged, cut short) is nobody's content: this
    /// device, which holds the content, writes it in its place. Something else at a chunk's
    /// path is therefore never another writer with this device's id (rule 10); a chunk that
    /// checks out is already published.
    func publishChunk(_ plain: [UInt8], name: String, device: DeviceID) throws -> PublishOutcome {
        let path = assetFile(name)
        do {
            return try publishOnce(plain, at: path, device: device)
        } catch let error as CloudError where error.code == .serverRecordChanged {
            do {
                _ = try readChunk(name)
                return .alreadyPublished
            } catch is AssetUnavailable {
                // Damaged: repaired from the content this device holds (readers check it by name).
                if case .regular = try io.kind(path) { try io.remove(path) }
                return try publishOnce(plain, at: path, device: device)
            }
        }
    }

    public func readAsset(_ ref: AssetRef) throws -> [UInt8] {
        // Grown chunk by chunk: a forged reference's size reserves nothing before its chunks are read.
        var bytes: [UInt8] = []
        for name in ref.chunks { bytes += try readChunk(name) }
        guard bytes.count == ref.size else {
            throw AssetUnavailable(chunk: ref.chunks.last ?? "", reason: "sizes do not add up to the reference")
        }
        return bytes
    }

    /// One chunk's bytes, checked against its name; `AssetUnavailable` when missing or damaged.
    func readChunk(_ name: String) throws -> [UInt8] {
        let path = assetFile(name)
        let read: [UInt8]?
        do {
            read = try io.readIfPresent(path, maxBytes: readCap(AssetRef.chunkSize, at: path))
        } catch let error as CloudError where [.invalidArguments, .limitExceeded].contains(error.code) {
            throw AssetUnavailable(chunk: name, reason: "is not a file of ours (\(error.message))")
        }
        guard let read else { throw AssetUnavailable(chunk: name, reason: "has not arrived yet") }
        guard case .success(let chunk) = opened(read, at: path), chunkNames(chunk[...]).contains(name) else {
            throw AssetUnavailable(chunk: name, reason: "does not match its hash (damaged or partial)")
        }
        return chunk
    }
}
