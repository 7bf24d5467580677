import NotesCore

/// Publication of change batches: SYNC-FORMAT rules 1 (one writer per path, write once),
/// 2 (atomic publication) and 3 (envelope, batch limits).
extension DirectoryCloudFolder {
    public func publish(_ batch: ChangeBatch, zone: ZoneID, device: DeviceID, seq: Int64, hlc: HLC) throws
        -> PublishOutcome
    {
        guard seq >= 1 else { throw CloudError(.invalidArguments, "a log seq starts at 1") }
        guard batch.records.count <= ChangeBatch.maxRecords else {
            throw CloudError(.limitExceeded, "a batch holds at most \(ChangeBatch.maxRecords) records")
        }
        try requireContainer()
        // The body's bytes, encoded once for the limit and the file (most of what writing a log
        // file costs): from the records' own bytes when the engine encoded them ahead (no
        // asset to write), else from the body, whose large fields go out as assets first
        // (rule 15), written before the record that names them.
        let bodyBytes: [UInt8]
        let needsFormat3: Bool
        if let encoded = batch.encodedBody() {
            (bodyBytes, needsFormat3) = encoded
        } else {
            let body = try batch.body(assets: self, device: device)
            bodyBytes = body.canonicalBytes
            needsFormat3 = (body.arrayValue ?? []).contains(where: ChangeRecord.needsFormat3)
        }
        guard bodyBytes.count <= ChangeBatch.maxBodyBytes else {
            throw CloudError(.limitExceeded, "a batch holds at most \(ChangeBatch.maxBodyBytes) bytes")
        }
        guard try io.isFolder(layout.zoneDirectory(zone)) else {
            throw CloudError(.zoneNotFound, "zone \(zone) is not in the cloud folder", path: layout.zoneDirectory(zone))
        }
        // The folders are created by the first seq of a segment (seq 1 for a device's first
        // batch); only then can an existing folder be one a failed attempt left unsynced.
        let firstOfSegment = seq == 1 || seq % CloudLayout.segmentSize == 0
        for folder in [
            layout.logDirectory(zone), layout.deviceLogDirectory(zone, device: device),
            layout.segmentDirectory(zone, device: device, seq: seq),
        ] {
            try io.ensureDirectory(folder, syncExisting: firstOfSegment)
        }
        // The header around the body's bytes (`encoded(body:)` reads the header only).
        var envelope = Envelope(
            kind: .changes, zone: zone.rawValue, device: device.rawValue, seq: seq, hlc: hlc, body: .null)
        if needsFormat3 { envelope.format = Envelope.attachmentsFormat }
        return try publishOnce(
            envelope.encoded(body: bodyBytes), at: layout.logFile(zone, device: device, seq: seq), device: device)
    }

    /// Writes a write-once file. Identical bytes already there: harmless (a retry), and the
    /// folder is fsynced again in case the first attempt failed after its rename. Different
    /// bytes: `serverRecordChanged`, never an overwrite. Under our own device id that means
    /// another writer uses our id (rule 10: the engine rotates it).
    ///
    /// Where `rename` itself refuses an existing file (a bucket's `If-None-Match: *` PUT), the
    /// file is written first and read only when refused: one request when the path is free.
    func publishOnce(_ plain: [UInt8], at path: String, device: DeviceID) throws -> PublishOutcome {
        sightings?.forgetListings()
        // Sealing is deterministic (rule 14), so a retry still finds identical bytes.
        let bytes = sealed(plain, at: path)
        var refusal: CloudError?
        if io.renameRefusesExisting(path) {
            do {
                try io.writeAtomically(bytes, to: path, device: device)
                return .published
            } catch let error as CloudError where error.code == .serverRecordChanged {
                // Taken: compared below, as when the path is checked first.
                refusal = error
            }
        }
        let existing: [UInt8]?
        do {
            existing = try io.readIfPresent(path, maxBytes: Swift.max(bytes.count, Self.maxSmallFileBytes))
        } catch let error as CloudError where [.invalidArguments, .limitExceeded].contains(error.code) {
            throw CloudError(.serverRecordChanged, "\(path) holds something else (\(error.message)); never overwritten")
        }
        // Refused, yet nothing is there: the refusal was not the path's (an EEXIST elsewhere).
        if let refusal, existing == nil { throw refusal }
        if let existing {
            // Sealed under an earlier key of the ring (a publication retried after
            // `sync passphrase --new-key`): the same file when it opens to the same bytes.
            var sameFile = existing == bytes
            if !sameFile, isSealed(path), case .success(let earlier) = opened(existing, at: path) {
                sameFile = earlier == plain
            }
            guard sameFile else {
                throw CloudError(
                    .serverRecordChanged,
                    "a different file already exists at this write-once path; it is never overwritten "
                        + "(another writer with this device id, or a file that has not fully arrived)",
                    path: path)
            }
            try io.fsyncDirectory(CloudPath.parent(of: path))
            return .alreadyPublished
        }
        try io.writeAtomically(bytes, to: path, device: device)
        return .published
    }
}
