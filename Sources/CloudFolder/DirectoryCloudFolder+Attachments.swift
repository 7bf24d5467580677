import NotesCore

/// Attachment content as chunks (SYNC-FORMAT rule 15): the same content-addressed chunks under
/// `private/assets/` as large fields, streamed a chunk at a time between the device's content
/// (`attachments`) and the folder, so memory stays bounded whatever the file's size.
extension DirectoryCloudFolder {
    /// What names this folder in the device's memory of where content already sits: the
    /// container of an encrypted folder (its chunk names are keyed by it), else its root.
    var attachmentFolderIdentity: String { seal.map { "container " + $0.containerID } ?? "plain " + layout.root }

    public func storeAttachment(_ attachment: Attachment, device: DeviceID) throws -> AssetRef {
        let identity = attachmentFolderIdentity
        // Written before (and remembered): every chunk still there is enough; a stat each.
        if let names = try attachments?.cloudChunks(sha256: attachment.sha256, folder: identity),
            let ref = try? AssetRef(json: AssetRef(chunks: names, size: Int(attachment.size)).json),
            try names.allSatisfy({ name in
                if case .regular = try io.kind(assetFile(name)) { return true }
                return false
            })
        {
            return ref
        }
        guard let attachments else {
            throw CloudError(.invalidArguments, "attachment \(attachment.name): no attachment content on this device")
        }
        try io.ensureDirectory(layout.privateDirectory + "/assets")
        var names: [String] = []
        var written: [String] = []
        let found: Bool
        do {
            found = try attachments.readAttachmentContent(sha256: attachment.sha256, chunkSize: AssetRef.chunkSize) {
                piece in
                let name = chunkName(piece)
                let path = assetFile(name)
                try io.ensureDirectory(CloudPath.parent(of: path))
                // Equal content is equal bytes, sealed or not: a chunk already there is harmless.
                // Only a chunk this device wrote is its own, to delete when nothing names it (rule 15).
                if try publishChunk(Array(piece), name: name, device: device) == .published {
                    try attachments.rememberOwnChunks([name], folder: identity)
                    written.append(name)
                }
                names.append(name)
            }
        } catch let error as CloudError where error.code == .quotaExceeded {
            removeChunksOfWhatDidNotFit(written)
            throw error
        }
        guard found else {
            throw CloudError(
                .invalidArguments,
                "attachment \(attachment.name): its content (\(attachment.sha256)) is not in this data directory")
        }
        let ref = AssetRef(chunks: names, size: Int(attachment.size))
        try attachments.rememberCloudChunks(names, sha256: attachment.sha256, folder: identity)
        return ref
    }

    public func fetchAttachment(_ attachment: Attachment, ref: AssetRef) throws {
        let identity = attachmentFolderIdentity
        guard Int64(ref.size) == attachment.size else {
            throw CloudError(.invalidArguments, "attachment \(attachment.name): its chunks do not add up to its size")
        }
        if let attachments, attachments.hasAttachmentContent(sha256: attachment.sha256) {
            try restoreMissingChunks(of: attachment, ref: ref)
            try attachments.rememberCloudChunks(ref.chunks, sha256: attachment.sha256, folder: identity)
            return
        }
        func unavailable(_ chunk: String, _ reason: String) -> AssetUnavailable {
            AssetUnavailable(chunk: chunk, reason: reason, attachment: attachment.name)
        }
        func stream(_ append: (ArraySlice<UInt8>) throws -> Void) throws {
            for name in ref.chunks {
                do {
                    try append(try readChunk(name)[...])
                } catch var missing as AssetUnavailable {
                    missing.attachment = attachment.name
                    throw missing
                }
            }
        }
        guard let attachments else {
            // Nowhere to keep it: the chunks are still read and checked before the record applies.
            var hasher = ContentHasher()
            var total: Int64 = 0
            try stream { piece in
                hasher.update(piece)
                total += Int64(piece.count)
            }
            guard total == attachment.size, hasher.finalize() == attachment.sha256 else {
                throw unavailable(ref.chunks.last ?? "", "does not add up to the attachment's SHA-256")
            }
            return
        }
        do {
            try attachments.receiveAttachmentContent(sha256: attachment.sha256, size: attachment.size) { append in
                try stream(append)
            }
        } catch let missing as AssetUnavailable {
            throw missing
        } catch {
            let why = CloudError.sentence(for: error)
            throw unavailable(
                ref.chunks.last ?? "",
                "does not add up to the attachment's size and SHA-256, or could not be kept (\(why))")
        }
        try attachments.rememberCloudChunks(ref.chunks, sha256: attachment.sha256, folder: identity)
    }

    public func repairAttachmentChunks(device: DeviceID) throws -> Int {
        guard let attachments else { return 0 }
        var written = 0
        for sha256 in try attachments.liveAttachmentContents().sorted()
        where attachments.hasAttachmentContent(sha256: sha256) {
            var names: [String] = []
            // The names the cloud's records use, which may be under an older key of the ring.
            let known = try attachments.cloudChunks(sha256: sha256, folder: attachmentFolderIdentity) ?? []
            _ = try attachments.readAttachmentContent(sha256: sha256, chunkSize: AssetRef.chunkSize) { piece in
                let candidates = chunkNames(piece)
                let index = names.count
                let name =
                    index < known.count && candidates.contains(known[index]) ? known[index] : chunkName(piece)
                names.append(name)
                if try rewriteChunkIfUnreadable(piece, name: name, device: device) { written += 1 }
            }
            try attachments.rememberCloudChunks(names, sha256: sha256, folder: attachmentFolderIdentity)
        }
        return written
    }

    public func damagedChunks(among names: Set<String>) throws -> [DamagedChunk] {
        guard let attachments, !names.isEmpty else { return [] }
        let identity = attachmentFolderIdentity
        var live = Set<String>()
        for sha256 in try attachments.liveAttachmentContents() where attachments.hasAttachmentContent(sha256: sha256) {
            live.formUnion(try attachments.cloudChunks(sha256: sha256, folder: identity) ?? [])
        }
        let own = try attachments.ownChunks(folder: identity)
        var damaged: [DamagedChunk] = []
        for name in names.sorted() where own.contains(name) || live.contains(name) {
            do {
                _ = try readChunk(name)
            } catch let unavailable as AssetUnavailable {
                let reason = try io.kind(assetFile(name)) == nil ? "is missing" : "is damaged (\(unavailable.reason))"
                damaged.append(DamagedChunk(name: name, reason: reason, repairable: live.contains(name)))
            }
        }
        return damaged
    }

    /// A device holding the content of a record it reads writes again any of its chunks that
    /// are missing (collected while another device named them, rule 15), so readers without the
    /// content stop waiting; the chunk is then its own. A stat per chunk.
    func restoreMissingChunks(of attachment: Attachment, ref: AssetRef) throws {
        guard let attachments, let device = DeviceID(attachments.deviceID) else { return }
        var missing = Set<String>()
        for name in ref.chunks where try !io.fileExists(assetFile(name)) { missing.insert(name) }
        guard !missing.isEmpty else { return }
        let identity = attachmentFolderIdentity
        _ = try attachments.readAttachmentContent(sha256: attachment.sha256, chunkSize: AssetRef.chunkSize) { piece in
            guard let name = chunkNames(piece).first(where: { missing.remove($0) != nil }) else { return }
            let path = assetFile(name)
            try io.ensureDirectory(layout.privateDirectory + "/assets")
            try io.ensureDirectory(CloudPath.parent(of: path))
            if try publishChunk(Array(piece), name: name, device: device) == .published {
                try attachments.rememberOwnChunks([name], folder: identity)
            }
        }
    }
}
