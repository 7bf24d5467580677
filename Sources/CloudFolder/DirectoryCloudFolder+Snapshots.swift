import NotesCore

/// Snapshot files (SYNC-FORMAT rule 11). What goes into a snapshot and when log files are
/// deleted is the sync engine's decision (`SyncEngine+Compaction.swift`); the deletion itself is
/// in `DirectoryCloudFolder+Compaction.swift`.
extension DirectoryCloudFolder {
    /// Snapshots can hold a whole zone; still capped so a junk file is refused unread.
    public static let maxSnapshotBytes = 256 * 1_048_576

    public func publishSnapshot(_ snapshot: Snapshot, zone: ZoneID) throws -> PublishOutcome {
        try requireContainer()
        guard try io.isFolder(layout.zoneDirectory(zone)) else {
            throw CloudError(.zoneNotFound, "zone \(zone) is not in the cloud folder", path: layout.zoneDirectory(zone))
        }
        let bytes = snapshot.envelope(zone: zone).encoded
        // Readers refuse a larger file unread, so one is never written.
        guard bytes.count <= Self.maxSnapshotBytes else {
            throw CloudError(
                .limitExceeded,
                "a snapshot of zone \(zone) would be \(bytes.count) bytes, over \(Self.maxSnapshotBytes)")
        }
        try io.ensureDirectory(layout.snapshotsDirectory(zone))
        let path = layout.snapshotFile(zone, device: snapshot.device, seq: snapshot.seq)
        return try publishOnce(bytes, at: path, device: snapshot.device)
    }

    /// The snapshot files of a zone by name (device, seq), oldest seq first; others ignored.
    public func snapshots(zone: ZoneID) throws -> Listing<SnapshotName> {
        try requireContainer()
        let listing = Self.parse(try io.listIfPresent(layout.snapshotsDirectory(zone))) { name in
            CloudName.snapshotFile(name).map { SnapshotName(device: $0.device, seq: $0.seq) }
        }
        return Listing(items: listing.items.sorted { $0.seq < $1.seq }, ignored: listing.ignored)
    }

    /// A snapshot, or nil when it is missing or does not check out (not arrived yet).
    public func readSnapshot(zone: ZoneID, device: DeviceID, seq: Int64) throws -> Snapshot? {
        let path = layout.snapshotFile(zone, device: device, seq: seq)
        let bytes: [UInt8]?
        do {
            bytes = try readOpened(path, maxBytes: Self.maxSnapshotBytes)
        } catch let error as CloudError where [.invalidArguments, .limitExceeded].contains(error.code) {
            return nil
        }
        let expected = Envelope.Expectation(kind: .snapshot, zone: zone.rawValue, device: device.rawValue, seq: seq)
        guard let bytes, case .valid(let envelope) = Envelope.verify(bytes, expecting: expected) else { return nil }
        // A snapshot whose body does not parse is not offered (as one that does not verify).
        return try? Snapshot(envelope: envelope, device: device)
    }
}

/// A snapshot file's name: who wrote it, at which of its seqs.
public struct SnapshotName: Sendable, Equatable {
    public var device: DeviceID
    public var seq: Int64

    public init(device: DeviceID, seq: Int64) {
        self.device = device
        self.seq = seq
    }
}
