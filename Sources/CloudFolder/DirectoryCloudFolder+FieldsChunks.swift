import NotesCore

/// The chunks of a large record's fields (`fieldsAsset`, SYNC-FORMAT rule 15) on the side of a
/// device that holds the record: its canonical fields bytes are re-derived from the revision it
/// stores, cut as the writer cut them, and each piece is checked against the names other
/// devices wait for (under every key of the ring: a chunk keeps the name of the key in force
/// when it was written, D-127). A name is only ever written with bytes that hash to it.
extension DirectoryCloudFolder {
    public func damagedChunks(of bytes: [UInt8], among names: Set<String>) throws -> [DamagedChunk] {
        var damaged: [DamagedChunk] = []
        try forEachPiece(of: bytes, named: names) { _, name in
            do {
                _ = try readChunk(name)
            } catch let unavailable as AssetUnavailable {
                let reason = try io.kind(assetFile(name)) == nil ? "is missing" : "is damaged (\(unavailable.reason))"
                damaged.append(DamagedChunk(name: name, reason: reason, repairable: true))
            }
        }
        return damaged
    }

    public func repairChunks(of bytes: [UInt8], named names: Set<String>, device: DeviceID) throws -> Int {
        var written = 0
        try forEachPiece(of: bytes, named: names) { piece, name in
            if try rewriteChunkIfUnreadable(piece, name: name, device: device) { written += 1 }
        }
        return written
    }

    /// Writes `piece` again as the chunk `name` when that chunk does not read (missing or not
    /// matching its hash, rule 15); whether it wrote. The chunk is this device's own once its
    /// write created the file (collected when nothing names it any more).
    func rewriteChunkIfUnreadable(_ piece: ArraySlice<UInt8>, name: String, device: DeviceID) throws -> Bool {
        do {
            _ = try readChunk(name)
            return false
        } catch is AssetUnavailable {
            try io.ensureDirectory(layout.privateDirectory + "/assets")
            try io.ensureDirectory(CloudPath.parent(of: assetFile(name)))
            if try publishChunk(Array(piece), name: name, device: device) == .published {
                try attachments?.rememberOwnChunks([name], folder: attachmentFolderIdentity)
            }
            return true
        }
    }

    /// Calls `body` with each piece of `bytes` as `storeAsset` cuts them and each of its names
    /// under the ring's keys that is in `names`.
    private func forEachPiece(
        of bytes: [UInt8], named names: Set<String>, _ body: (ArraySlice<UInt8>, String) throws -> Void
    ) throws {
        guard !names.isEmpty, !bytes.isEmpty else { return }
        var start = 0
        while start < bytes.count {
            let piece = bytes[start..<min(bytes.count, start + AssetRef.chunkSize)]
            for name in chunkNames(piece) where names.contains(name) { try body(piece, name) }
            start += AssetRef.chunkSize
        }
    }
}
