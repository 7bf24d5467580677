import NotesCore

/// A record's fields stored as content-addressed chunks under `private/assets/` (SYNC-FORMAT
/// rule 15): `{"chunks": [name, …], "size": n}` in place of `fields`. Chunks are at most
/// `chunkSize` bytes; each chunk's name is the hash of its bytes (keyed in an encrypted
/// container), so equal content dedups and a damaged chunk is caught by its name.
public struct AssetRef: Sendable, Equatable {
    public static let chunkSize = 1_048_576
    /// At most this many chunks (1 GiB): a reference asking for more is refused unread.
    public static let maxChunks = 1024

    public var chunks: [String]
    public var size: Int

    public init(chunks: [String], size: Int) {
        self.chunks = chunks
        self.size = size
    }

    public var json: JSONValue { .object(["chunks": .array(chunks.map(JSONValue.string)), "size": .int(Int64(size))]) }

    public init(json: JSONValue) throws {
        guard let items = json["chunks"]?.arrayValue, let size = json["size"]?.intValue,
            (1...Self.maxChunks).contains(items.count),
            (0...Int64(Self.maxChunks * Self.chunkSize)).contains(size)
        else { throw CloudError(.invalidArguments, "an asset reference is malformed") }
        let names = items.compactMap(\.stringValue)
        guard names.count == items.count, names.allSatisfy(Self.isChunkName),
            Int64((names.count - 1) * Self.chunkSize) < max(size, 1), size <= Int64(names.count * Self.chunkSize)
        else { throw CloudError(.invalidArguments, "an asset reference is malformed") }
        self.init(chunks: names, size: Int(size))
    }

    /// 64 lowercase hex digits.
    public static func isChunkName(_ name: String) -> Bool {
        name.utf8.count == 64 && name.utf8.allSatisfy { (48...57).contains($0) || (97...102).contains($0) }
    }
}

/// Why a record's asset could not be read: it has not arrived (the stream waits), or a chunk
/// does not match its name.
public struct AssetUnavailable: Error, Sendable, Equatable, CustomStringConvertible {
    public var chunk: String
    public var reason: String
    /// The attachment whose chunk this is; nil for a large record's fields.
    public var attachment: String? = nil
    public var description: String { "asset chunk \(chunk) \(reason)" }
}

/// Where a folder keeps the chunks of records too large to travel inline.
public protocol AssetStore {
    /// Writes `bytes` as chunks (write-once, deduplicated) and returns the reference.
    func storeAsset(_ bytes: [UInt8], device: DeviceID) throws -> AssetRef
    /// Reads a reference's bytes; throws `AssetUnavailable` for a missing or damaged chunk.
    func readAsset(_ ref: AssetRef) throws -> [UInt8]
    /// Writes an attachment's content as chunks (unless they are known to be there already)
    /// and returns where it is (rule 15).
    func storeAttachment(_ attachment: Attachment, device: DeviceID) throws -> AssetRef
    /// Reads an attachment's chunks, checking each, into the device's content before its
    /// record is applied; `AssetUnavailable` for a missing or damaged chunk.
    func fetchAttachment(_ attachment: Attachment, ref: AssetRef) throws
    /// Reads every chunk of the attachment content this device holds for its notes and writes
    /// again each one that is missing or does not check out (`sync --repair`, rule 15); returns
    /// how many it wrote.
    func repairAttachmentChunks(device: DeviceID) throws -> Int
    /// Of chunks other devices wait for, those this device wrote or holds the content of that
    /// do not check out in the folder now (a read each), with why (rule 15).
    func damagedChunks(among names: Set<String>) throws -> [DamagedChunk]
    /// Of `names`, the chunks of `bytes` (a record's canonical fields, which this device holds)
    /// under any key of the ring that do not check out in the folder now (a read each), with why.
    func damagedChunks(of bytes: [UInt8], among names: Set<String>) throws -> [DamagedChunk]
    /// Writes again each chunk of `bytes` (a record's canonical fields) whose name under a key
    /// of the ring is in `names` and that is missing or does not check out (`sync --repair`,
    /// rule 15); returns how many it wrote.
    func repairChunks(of bytes: [UInt8], named names: Set<String>, device: DeviceID) throws -> Int
    /// Every chunk name the folder's log files and snapshots name; nil when a file's names
    /// could not be read.
    func chunkNamesInFolder() throws -> Set<String>?
}

/// A chunk this device wrote or holds the content of that other devices wait for: missing or
/// damaged in the folder.
public struct DamagedChunk: Sendable, Equatable {
    public var name: String
    /// "is missing", or "is damaged (does not match its hash (damaged or partial))".
    public var reason: String
    /// This device holds the content (a note's current attachment): `sync --repair` writes it again.
    public var repairable: Bool

    public init(name: String, reason: String, repairable: Bool) {
        self.name = name
        self.reason = reason
        self.repairable = repairable
    }

    /// What a user reads about it, on the side of the device that wrote it or holds its content.
    public var message: String {
        let whose = repairable ? "of content this device holds" : "that this device wrote"
        let what = "chunk \(name.prefix(12))… \(whose) \(reason) in the cloud folder; other devices wait for it"
        return repairable
            ? what + ": `cloudnotes sync --repair` writes it again"
            : what + ", and this device no longer holds its content"
    }
}
