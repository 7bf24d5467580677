/// Deletion of a device's own files by compaction (SYNC-FORMAT rules 1 and 11).
///
/// Only paths built from the caller's own device id are touched: another device's log or
/// snapshot is never deleted. Only regular files are removed (a planted symlink or folder at
/// one of our paths stays). Nothing is deleted while `container.json` is missing.
extension DirectoryCloudFolder {
    public func removeOwnLogFiles(zone: ZoneID, device: DeviceID, seqs: ClosedRange<Int64>) throws -> Int {
        try requireContainer()
        guard seqs.lowerBound >= 1 else { throw CloudError(.invalidArguments, "a log seq starts at 1") }
        sightings?.forgetListings()
        var removed = 0
        var segment: (number: Int64, exists: Bool, removed: Bool)?
        for seq in seqs {
            let number = CloudLayout.segment(of: seq)
            if segment?.number != number {
                if let done = segment, done.removed { try syncSegment(zone, device: device, seq: seq - 1) }
                let folder = layout.segmentDirectory(zone, device: device, seq: seq)
                segment = (number, try io.isFolder(folder), false)
            }
            guard segment?.exists == true else { continue }
            let path = layout.logFile(zone, device: device, seq: seq)
            guard case .regular = try io.kind(path) else { continue }
            try io.remove(path)
            segment?.removed = true
            removed += 1
        }
        if let done = segment, done.removed { try syncSegment(zone, device: device, seq: seqs.upperBound) }
        return removed
    }

    public func removeOwnSnapshot(zone: ZoneID, device: DeviceID, seq: Int64) throws {
        try requireContainer()
        let path = layout.snapshotFile(zone, device: device, seq: seq)
        guard case .regular = try io.kind(path) else { return }
        try io.remove(path)
        try io.fsyncDirectory(layout.snapshotsDirectory(zone))
    }

    /// Makes the deletions in the segment folder of `seq` durable.
    private func syncSegment(_ zone: ZoneID, device: DeviceID, seq: Int64) throws {
        try io.fsyncDirectory(layout.segmentDirectory(zone, device: device, seq: seq))
    }
}
