import NotesCore

/// Notebook display names (SYNC-FORMAT rule 16): one write-once file per rename,
/// `names/<dev>-<hlc>.json` in the zone folder; the newest by `(hlc, device)` is the name.
/// Builds before rule 16 never list `names/`, so they ignore these files (their fetch reads only
/// `log/`, `deleted/` and `snapshots/`).
extension DirectoryCloudFolder {
    public func publishNotebookName(_ name: NotebookName, zone: ZoneID, device: DeviceID) throws {
        try requireContainer()
        guard try io.isFolder(layout.zoneDirectory(zone)) else {
            throw CloudError(.zoneNotFound, "zone \(zone) is not in the cloud folder")
        }
        try io.ensureDirectory(layout.namesDirectory(zone))
        let envelope = Envelope(
            kind: .name, zone: zone.rawValue, device: device.rawValue, hlc: name.hlc,
            body: .object(["zone": .string(zone.rawValue), "displayName": .string(name.displayName)]))
        _ = try publishOnce(
            envelope.encoded, at: layout.nameFile(zone, device: device, hlc: name.hlc), device: device)
    }

    public func latestNotebookName(zone: ZoneID, after: NotebookName?) throws -> NotebookName? {
        try requireContainer()
        // Names carry their order (rule 7): newest first, and only files newer than `after` are read.
        let candidates = try io.listIfPresent(layout.namesDirectory(zone)).compactMap(CloudName.deletedMarker)
            .filter { candidate in
                after.map { (candidate.hlc, candidate.device.rawValue) > ($0.hlc, $0.device) } ?? true
            }
            .sorted { ($0.hlc, $0.device.rawValue) > ($1.hlc, $1.device.rawValue) }
        for (device, hlc) in candidates {
            guard
                // A name file that cannot be read is skipped: the next newest name is taken.
                let bytes = try? readOpened(
                    layout.nameFile(zone, device: device, hlc: hlc), maxBytes: Self.maxSmallFileBytes),
                case .valid(let envelope) = Envelope.verify(
                    bytes, expecting: .init(kind: .name, zone: zone.rawValue, device: device.rawValue)),
                envelope.hlc == hlc, let name = Self.notebookName(in: envelope)
            else { continue }
            return name
        }
        return nil
    }

    /// The name a `name` envelope carries: `{"displayName": "…", "zone": "<zone>"}` with the
    /// envelope's zone, and a display name as `NotebookName.cleaned` keeps it; nil otherwise.
    public static func notebookName(in envelope: Envelope) -> NotebookName? {
        guard envelope.kind == .name, case .object(let body) = envelope.body, body.count == 2,
            body["zone"]?.stringValue == envelope.zone, ZoneID(envelope.zone) != nil,
            let text = body["displayName"]?.stringValue, NotebookName.cleaned(text) == text
        else { return nil }
        return NotebookName(zone: envelope.zone, displayName: text, hlc: envelope.hlc, device: envelope.device)
    }
}
