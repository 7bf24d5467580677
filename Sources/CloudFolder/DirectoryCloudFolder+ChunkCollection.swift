import NotesCore

/// What one collection of this device's own chunks did (SYNC-FORMAT rule 15).
public struct ChunkCollection: Sendable, Equatable {
    /// Own chunks deleted now.
    public var deleted = 0
    /// Own chunks kept: a file in the folder or one of this device's notes names them, or
    /// nothing has named them for less than the grace period.
    public var kept = 0
    /// Of those kept, the ones named by nothing, waiting out the grace period.
    public var unreferenced = 0
    /// Why nothing was deleted, for people (a file whose references could not be read).
    public var waiting: String?

    public init() {}
}

/// Garbage collection of chunks (SYNC-FORMAT rule 15): a device deletes chunks it wrote itself
/// (remembered as its own when its write created the file) that no file in the folder names and
/// no note's head on this device names. Every log file and snapshot of every device is read for
/// the chunk names it carries, so a chunk named by a record some device may still need to read
/// stays: a log file stays until every active device has acknowledged it (rule 11), and a
/// snapshot names the chunks of its heads. Nothing is deleted while a file's names cannot be read.
/// A chunk goes only once it has been named by nothing at collections `unreferencedFor` apart
/// (`now` and the grace in ms): a device that names the same content again meanwhile (it finds
/// the chunk present, so it does not write it) has that long for its log file to show.
extension DirectoryCloudFolder {
    public func collectOwnChunks(device: DeviceID, now: Int64, unreferencedFor: Int64) throws -> ChunkCollection {
        try requireContainer()
        var result = ChunkCollection()
        guard let attachments else { return result }
        let identity = attachmentFolderIdentity
        let own = try attachments.ownChunks(folder: identity)
        var candidates = own
        // The content of a note's head is named again by its next publication or snapshot.
        for content in try attachments.liveAttachmentContents() {
            for name in try attachments.cloudChunks(sha256: content, folder: identity) ?? [] { candidates.remove(name) }
        }
        result.kept = own.count
        let named: Set<String>
        switch candidates.isEmpty ? .success([]) : try chunksNamedInFolder() {
        case .failure(let reason):
            result.waiting = reason.message
            return result
        case .success(let names): named = names
        }
        let unreferenced = candidates.filter { !named.contains($0) && AssetRef.isChunkName($0) }
        let since = try attachments.ownChunksUnreferenced(folder: identity)
        try attachments.markOwnChunksUnreferenced(unreferenced, since: now, folder: identity)
        let due = unreferenced.filter { name in
            since[name].map { now - $0 >= unreferencedFor } ?? (unreferencedFor <= 0)
        }
        result.unreferenced = unreferenced.count - due.count
        var deleted: [String] = []
        var gone: [String] = []
        var folders = Set<String>()
        for name in due.sorted() {
            let path = assetFile(name)
            switch try io.kind(path) {
            case .regular:
                try io.remove(path)
                deleted.append(name)
                folders.insert(CloudPath.parent(of: path))
            case nil: gone.append(name)
            default: continue  // a planted folder or symlink is not a chunk of ours
            }
        }
        for folder in folders.sorted() { try io.fsyncDirectory(folder) }
        try attachments.forgetOwnChunks(deleted + gone, folder: identity)
        result.deleted = deleted.count
        result.kept = own.count - deleted.count - gone.count
        return result
    }

    /// Every chunk name the folder's log files and snapshots name; nil when a file's names
    /// could not be read (for checks and tests).
    public func chunkNamesInFolder() throws -> Set<String>? {
        if case .success(let names) = try chunksNamedInFolder() { return names }
        return nil
    }

    /// The chunks present under `private/assets/`, by name.
    public func chunksPresent() throws -> Set<String> {
        var names = Set<String>()
        let assets = layout.privateDirectory + "/assets"
        for prefix in try io.listIfPresent(assets) where try io.isFolder(assets + "/" + prefix) {
            for name in try io.list(assets + "/" + prefix) where AssetRef.isChunkName(name) {
                if case .regular = try io.kind(assets + "/" + prefix + "/" + name) { names.insert(name) }
            }
        }
        return names
    }

    /// A reason the folder's references could not all be read.
    struct UnreadReferences: Error {
        var message: String
    }

    /// Every chunk name that a log file or snapshot in the folder names (`fieldsAsset` and
    /// `attachmentChunks`), or why a file's could not be read.
    func chunksNamedInFolder() throws -> Result<Set<String>, UnreadReferences> {
        var names = Set<String>()
        for zone in try zones().items {
            let log = layout.logDirectory(zone)
            for deviceName in try io.listIfPresent(log) {
                guard let device = DeviceID(deviceName),
                    try io.isFolder(layout.deviceLogDirectory(zone, device: device))
                else { continue }
                let deviceFolder = layout.deviceLogDirectory(zone, device: device)
                for segmentName in try io.list(deviceFolder) where CloudName.segment(segmentName) != nil {
                    for fileName in try io.listIfPresent(deviceFolder + "/" + segmentName) {
                        guard let seq = CloudName.logFile(fileName) else { continue }
                        let path = layout.logFile(zone, device: device, seq: seq)
                        let expected = Envelope.Expectation(
                            kind: .changes, zone: zone.rawValue, device: device.rawValue, seq: seq)
                        guard let body = try envelopeBody(path, expected, maxBytes: Self.maxLogFileBytes) else {
                            return .failure(UnreadReferences(message: "log file \(path) does not check out"))
                        }
                        for record in body.arrayValue ?? [] { Self.chunkNames(of: record, into: &names) }
                    }
                }
            }
            for name in try snapshots(zone: zone).items {
                let path = layout.snapshotFile(zone, device: name.device, seq: name.seq)
                let expected = Envelope.Expectation(
                    kind: .snapshot, zone: zone.rawValue, device: name.device.rawValue, seq: name.seq)
                guard let body = try envelopeBody(path, expected, maxBytes: Self.maxSnapshotBytes) else {
                    return .failure(UnreadReferences(message: "snapshot \(path) does not check out"))
                }
                for record in body["state"]?["revisions"]?.arrayValue ?? [] {
                    Self.chunkNames(of: record, into: &names)
                }
            }
        }
        return .success(names)
    }

    /// The body of a file that checks out; nil when it does not (a file gone meanwhile names
    /// nothing: an empty body).
    private func envelopeBody(_ path: String, _ expected: Envelope.Expectation, maxBytes: Int) throws -> JSONValue? {
        let bytes: [UInt8]?
        do {
            bytes = try readOpened(path, maxBytes: maxBytes)
        } catch let error as CloudError where [.invalidArguments, .limitExceeded].contains(error.code) {
            return nil
        }
        guard let bytes else { return .array([]) }
        guard case .valid(let envelope) = Envelope.verify(bytes, expecting: expected) else { return nil }
        return envelope.body
    }

    /// The chunk names a record carries, whether or not they are well formed.
    static func chunkNames(of record: JSONValue, into names: inout Set<String>) {
        var refs: [JSONValue] = []
        if let ref = record["fieldsAsset"] { refs.append(ref) }
        if case .object(let byContent)? = record["attachmentChunks"] { refs += byContent.values }
        for ref in refs {
            for chunk in ref["chunks"]?.arrayValue ?? [] {
                if let name = chunk.stringValue { names.insert(name) }
            }
        }
    }
}
