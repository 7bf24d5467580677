import NotesCore

/// Incremental fetch and salvage: SYNC-FORMAT rules 4 (change tokens, probe-next, gaps are
/// waited for) and 9 (salvage of renamed copies, unknown files ignored and counted).
extension DirectoryCloudFolder {
    public func fetchChanges(zone: ZoneID, since token: ChangeToken, limit: FetchLimit) throws -> FetchedChanges {
        try requireContainer()
        guard try zoneIsThere(zone) else {
            throw CloudError(.zoneNotFound, "zone \(zone) is not in the cloud folder", path: layout.zoneDirectory(zone))
        }
        var result = FetchedChanges(token: token)
        var snapshotHeads: [DeviceID: Int64]?
        let listing = Self.parse(try io.listIfPresent(layout.logDirectory(zone)), as: DeviceID.init)
        result.ignored = listing.ignored.map { "log/" + $0 }
        let lister = io as? any KeyListingFileIO
        for device in listing.items {
            let stream: (seq: Int64, missing: Bool)?
            if let lister {
                stream = try fetchListed(
                    lister, zone: zone, device: device, after: token[device], limit: limit, into: &result)
            } else {
                stream = try fetchProbed(
                    zone: zone, device: device, after: token[device], limit: limit, into: &result)
            }
            guard let (seq, missing) = stream else {
                result.ignored.append("log/\(device)")
                continue
            }
            result.token[device] = seq
            // Rule 11: a device compacts only files its own snapshot covers, so a missing next
            // file below the device's newest own snapshot may be gone for good: the token has
            // expired (loading that snapshot is right even when the file is only late). One
            // listing of snapshots/ per fetch, only once a stream ends at a missing file.
            // A file that does not check out (damaged, or torn and late) below such a snapshot is
            // served by the snapshot too, rather than waited for forever.
            let damaged = result.notArrived.last.flatMap { $0.device == device && $0.seq == seq + 1 ? $0 : nil }
            if missing || damaged != nil {
                if snapshotHeads == nil { snapshotHeads = ownSnapshotHeads(zone: zone) }
                if let head = snapshotHeads?[device], head > seq {
                    result.expired[device] = head
                    if let damaged { result.coveredDamage.append(damaged) }
                }
            }
            if result.moreComing { break }
        }
        return result
    }

    /// One device's stream by probing (rule 4): the next seq's segment folder and file, one by
    /// one, then the renamed copies of rule 9 in the segment folders of the token and the new
    /// end. Nil when the device's folder is not a real folder (a planted symlink is never followed).
    func fetchProbed(
        zone: ZoneID, device: DeviceID, after start: Int64, limit: FetchLimit, into result: inout FetchedChanges
    ) throws -> (seq: Int64, missing: Bool)? {
        guard try io.isFolder(layout.deviceLogDirectory(zone, device: device)) else { return nil }
        var seq = start
        var checkedSegment: Int64?
        var missing = false
        while true {
            if limit.isReached(by: result) {
                result.moreComing = true
                break
            }
            let next = seq + 1
            let segment = CloudLayout.segment(of: next)
            if checkedSegment != segment {
                let folder = layout.segmentDirectory(zone, device: device, seq: next)
                let kind = try io.kind(folder)
                if kind == nil {
                    missing = true
                    break
                }
                guard kind == .directory else {
                    result.notArrived.append(
                        NotArrivedFile(device: device, seq: next, path: folder, reason: "segment is not a folder"))
                    break
                }
                checkedSegment = segment
            }
            let path = layout.logFile(zone, device: device, seq: next)
            let count = result.notArrived.count
            guard let fetched = try readLogFile(at: path, zone: zone, device: device, seq: next, into: &result)
            else {
                missing = result.notArrived.count == count
                break
            }
            result.batches.append(fetched)
            seq = next
        }
        // Rule 9: a replicator's renamed copies sit beside the files just read; their
        // segment folders are listed on every fetch (one or two listings per device).
        let segments = Set([start, seq].map { CloudLayout.segment(of: max($0, 1)) })
        for segment in segments.sorted() {
            try renamedCopies(zone: zone, device: device, segment: segment, into: &result)
        }
        return (seq, missing)
    }

    /// One device's stream from one listing of its log prefix after the token's file (a bucket,
    /// SYNC-FORMAT "On S3"): an idle device costs that one request. The files read are the ones
    /// probing would read, whatever order the server lists in (the next name is looked up, not
    /// taken in listing order). Renamed copies (rule 9) are those the listing shows, of the
    /// token's seq and later: a bucket's conditional PUT never makes one, and older ones were
    /// looked at by the fetches that read past them.
    func fetchListed(
        _ lister: any KeyListingFileIO, zone: ZoneID, device: DeviceID, after start: Int64, limit: FetchLimit,
        into result: inout FetchedChanges
    ) throws -> (seq: Int64, missing: Bool)? {
        let folder = layout.deviceLogDirectory(zone, device: device)
        // After the token's file name without `.json`: that file and its renamed copies
        // (`… (conflicted copy).json` sorts before `.json`) come back, older ones do not.
        let startAfter = start > 0 ? String(Self.listedName(start).dropLast(5)) : ""
        let names =
            try sightings?.take(under: folder, startAfter: startAfter)
            ?? lister.listFiles(under: folder, startAfter: startAfter)
        if names.isEmpty, start == 0 {
            // Nothing under it: a real (empty) folder, or an object where a folder should be.
            guard try io.isFolder(folder) else { return nil }
        }
        let present = Set(names)
        var seq = start
        var missing = false
        while true {
            if limit.isReached(by: result) {
                result.moreComing = true
                break
            }
            let next = seq + 1
            guard present.contains(Self.listedName(next)) else {
                missing = true
                break
            }
            let count = result.notArrived.count
            guard
                let fetched = try readLogFile(
                    at: layout.logFile(zone, device: device, seq: next), zone: zone, device: device, seq: next,
                    into: &result)
            else {
                missing = result.notArrived.count == count
                break
            }
            result.batches.append(fetched)
            seq = next
        }
        // The stream's last file is listed and no later one is: the device's log ends there, so
        // no snapshot of its can be past it (a device deletes its own files oldest first, only
        // those its snapshot covers, rule 11), and the caller need not list snapshots/.
        if missing, seq > 0, present.contains(Self.listedName(seq)),
            !present.contains(where: { Self.listedSeq($0).map { $0 > seq } ?? false })
        {
            missing = false
        }
        let segments = Set([start, seq].map { CloudLayout.padded(CloudLayout.segment(of: max($0, 1))) })
        var copies: [String: [String]] = [:]
        for name in present {
            let parts = name.split(separator: "/", omittingEmptySubsequences: false)
            guard parts.count == 2, segments.contains(String(parts[0])), CloudName.logFile(String(parts[1])) == nil
            else { continue }
            copies[String(parts[0]), default: []].append(String(parts[1]))
        }
        for (segment, files) in copies.sorted(by: { $0.key < $1.key }) {
            guard let number = Int64(segment) else { continue }
            try renamedCopies(zone: zone, device: device, segment: number, names: files, into: &result)
        }
        return (seq, missing)
    }

    /// A log file's name as `KeyListingFileIO.listFiles` lists it under its device's folder.
    static func listedName(_ seq: Int64) -> String {
        CloudLayout.padded(CloudLayout.segment(of: seq)) + "/" + CloudLayout.padded(seq) + ".json"
    }

    /// The seq of a listed log file (`<segment>/<seq>.json`); nil for anything else.
    static func listedSeq(_ relative: String) -> Int64? {
        let parts = relative.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2 else { return nil }
        return CloudName.logFile(String(parts[1]))
    }

    /// The renamed copies in one segment folder of a device (rule 9): those that check out go to
    /// `copies`, those that do not to `refusedCopies`.
    func renamedCopies(zone: ZoneID, device: DeviceID, segment: Int64, into result: inout FetchedChanges) throws {
        let folder = layout.segmentDirectory(zone, device: device, seq: max(segment * CloudLayout.segmentSize, 1))
        guard try io.isFolder(folder) else { return }
        try renamedCopies(
            zone: zone, device: device, segment: segment, names: try io.listIfPresent(folder), into: &result)
    }

    /// The renamed copies among `names`, file names in one segment folder of a device (rule 9).
    func renamedCopies(
        zone: ZoneID, device: DeviceID, segment: Int64, names: [String], into result: inout FetchedChanges
    ) throws {
        let folder = layout.segmentDirectory(zone, device: device, seq: max(segment * CloudLayout.segmentSize, 1))
        for name in names.sorted() where CloudName.logFile(name) == nil {
            guard let salvage = SalvageName(name), let seq = CloudName.logFile(salvage.original),
                CloudLayout.segment(of: seq) == segment
            else { continue }
            let read = try readVerified(
                path: folder + "/" + name, zone: zone, device: device, seq: seq,
                sealedAs: layout.logFile(zone, device: device, seq: seq))
            guard case .batch(let fetched) = read else {
                if case .notArrived(let reason) = read {
                    result.refusedCopies.append(
                        NotArrivedFile(device: device, seq: seq, path: folder + "/" + name, reason: reason))
                }
                continue
            }
            let original = try readVerified(
                path: layout.logFile(zone, device: device, seq: seq), zone: zone, device: device, seq: seq)
            // Only two versions that both check out are two writers; a missing or torn original
            // says nothing.
            var differs = false
            if case .batch(let first) = original { differs = first != fetched }
            result.copies.append(
                RenamedCopy(
                    batch: fetched, name: "log/\(device)/\(CloudLayout.padded(segment))/\(name)",
                    differsFromOriginal: differs))
        }
    }

    public func ownSnapshotHeads(zone: ZoneID) -> [DeviceID: Int64] {
        var heads: [DeviceID: Int64] = [:]
        // An unlistable snapshots/ offers no snapshot: the stream waits at its file, as without one.
        for name in (try? snapshots(zone: zone).items) ?? [] {
            heads[name.device] = max(heads[name.device] ?? 0, name.seq)
        }
        return heads
    }

    /// One probe: the batch, or nil when the file is missing (a gap: wait) or does not check
    /// out (recorded in `notArrived`, the device's stream stops; never skipped past).
    private func readLogFile(
        at path: String, zone: ZoneID, device: DeviceID, seq: Int64, into result: inout FetchedChanges
    ) throws -> FetchedBatch? {
        let outcome = try readVerified(path: path, zone: zone, device: device, seq: seq)
        switch outcome {
        case .missing: return nil
        case .notArrived(let reason):
            result.notArrived.append(NotArrivedFile(device: device, seq: seq, path: path, reason: reason))
            return nil
        case .batch(let fetched): return fetched
        }
    }

    enum LogFileRead {
        case missing
        case notArrived(String)
        case batch(FetchedBatch)
    }

    /// Reads and checks a log file against the path it is expected at. Errors that concern this
    /// one file (a symlink, not a regular file, over the cap, unreadable, an I/O error) make it
    /// "not arrived", so one bad file never stops other devices' streams (ARCHITECTURE §4); errors
    /// that concern the folder or the process (unmounted, out of descriptors) are thrown.
    func readVerified(
        path: String, zone: ZoneID, device: DeviceID, seq: Int64, sealedAs original: String? = nil
    ) throws -> LogFileRead {
        let bytes: [UInt8]
        do {
            guard let read = try io.readIfPresent(path, maxBytes: readCap(Self.maxLogFileBytes, at: path)) else {
                return .missing
            }
            switch opened(read, at: path, sealedAs: original) {
            case .success(let plain): bytes = plain
            case .failure(.newerKey(let number, let held)): throw keyChanged(number, held: held)
            case .failure(let error): return .notArrived(error.description)
            }
        } catch let error as CloudError
            where [.invalidArguments, .limitExceeded, .permissionFailure, .zoneBusy, .networkFailure].contains(
                error.code)
        {
            return .notArrived(error.message)
        }
        let expected = Envelope.Expectation(kind: .changes, zone: zone.rawValue, device: device.rawValue, seq: seq)
        switch Envelope.verify(bytes, expecting: expected) {
        case .notArrivedYet(let reason): return .notArrived(reason)
        case .unsupportedFormat(let format): return .notArrived("written in format \(format), newer than this build")
        case .valid(let envelope):
            do {
                let batch = try ChangeBatch(body: envelope.body, assets: self)
                return .batch(FetchedBatch(device: device, seq: seq, hlc: envelope.hlc, batch: batch))
            } catch {
                return .notArrived("batch body does not decode: \(CloudError.sentence(for: error))")
            }
        }
    }

    /// Walks every log folder of a zone for files a replicator renamed (rule 9). Valid log names
    /// are skipped; renamed copies whose envelope checks out against
    /// the name they copy are returned; everything else is ignored and counted.
    public func salvageScan(zone: ZoneID) throws -> SalvageReport {
        try requireContainer()
        var report = SalvageReport()
        let logFolder = layout.logDirectory(zone)
        for deviceName in try io.listIfPresent(logFolder).sorted() {
            guard let device = DeviceID(deviceName),
                try io.isFolder(layout.deviceLogDirectory(zone, device: device))
            else {
                report.ignored.append("log/\(deviceName)")
                continue
            }
            let deviceFolder = layout.deviceLogDirectory(zone, device: device)
            for segmentName in try io.list(deviceFolder).sorted() {
                let relative = "log/\(device)/\(segmentName)"
                guard let segment = CloudName.segment(segmentName),
                    try io.isFolder(deviceFolder + "/" + segmentName)
                else {
                    report.ignored.append(relative)
                    continue
                }
                for name in try io.list(deviceFolder + "/" + segmentName).sorted() {
                    if CloudName.logFile(name) != nil { continue }
                    guard let salvage = SalvageName(name), let seq = CloudName.logFile(salvage.original),
                        CloudLayout.segment(of: seq) == segment,
                        case .batch(let fetched) = try readVerified(
                            path: deviceFolder + "/" + segmentName + "/" + name, zone: zone, device: device, seq: seq,
                            sealedAs: layout.logFile(zone, device: device, seq: seq))
                    else {
                        report.ignored.append(relative + "/" + name)
                        continue
                    }
                    report.salvaged.append(fetched)
                }
            }
        }
        return report
    }
}
