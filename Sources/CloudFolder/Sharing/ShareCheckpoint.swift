import NotesCore

/// What a reader remembers of a membership log (SYNC-FORMAT rule 18): the highest entry it has
/// checked and the SHA-256 of that file, so a log cut back, or another version of it, is
/// refused rather than followed.
public struct ShareCheckpoint: Sendable, Equatable {
    public var entry: Int64
    public var sha256: String

    public init(entry: Int64, sha256: String) {
        self.entry = entry
        self.sha256 = sha256
    }

    public var json: JSONValue { .object(["entry": .int(entry), "sha256": .string(sha256)]) }

    public init(json: JSONValue) throws(ShareError) {
        guard case .object(let fields) = json, fields.count == 2, let entry = json["entry"]?.intValue, entry >= 1,
            let sha256 = json["sha256"]?.stringValue, sha256.utf8.count == 64, FolderSeal.unhex(sha256) != nil
        else { throw ShareError(.malformed, "a remembered membership checkpoint is damaged") }
        self.init(entry: entry, sha256: sha256)
    }
}
