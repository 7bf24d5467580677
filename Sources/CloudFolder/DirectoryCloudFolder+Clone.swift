/// What device-id clone detection needs from the folder (SYNC-FORMAT rule 10).
extension DirectoryCloudFolder {
    /// The highest seq of `device`'s log in `zone` reachable by probing from `after + 1`, or
    /// `after` when nothing follows it. Files are only checked for existence here.
    ///
    /// At start, the engine asks this for its own device with the last seq its database
    /// recorded as published: anything higher was written by someone else under our id (a
    /// restored backup, a copied data directory), so it rotates to a new device id and
    /// re-publishes its pending changes under it.
    public func logHead(zone: ZoneID, device: DeviceID, after: Int64) throws -> Int64 {
        try requireContainer()
        var seq = after
        // On a bucket, one listing from the next file on answers what a HEAD per file would.
        // The fetch that follows lists the same (`PassSightings`).
        if let lister = io as? any KeyListingFileIO {
            let folder = layout.deviceLogDirectory(zone, device: device)
            let startAfter = String(Self.listedName(after + 1).dropLast(5))
            let names = try lister.listFiles(under: folder, startAfter: startAfter)
            sightings?.keep(names, under: folder, startAfter: startAfter)
            let present = Set(names)
            while present.contains(Self.listedName(seq + 1)) { seq += 1 }
            return seq
        }
        while true {
            guard try io.fileExists(layout.logFile(zone, device: device, seq: seq + 1)) else { return seq }
            seq += 1
        }
    }
}
