import NotesCore

/// A record of a log file whose chunk is missing or does not check out (SYNC-FORMAT rule 15).
///
/// It waits on its own: the rest of its file is applied and its device's stream goes on. The
/// reader keeps the record as read and tries it again at later syncs (`ChangeRecord(json:assets:)`),
/// so it applies once the chunk arrives or its writer repairs it, whatever became of the log file.
public struct WaitingRecord: Sendable, Equatable {
    /// The record as it was read (untrusted; checked again when it is tried).
    public var record: JSONValue
    /// The note it is a revision of, and the revision id it claims.
    public var recordID: String
    public var rev: String
    /// Why it waits, in a few words: which chunk, of what, and what is wrong with it.
    public var reason: String
    /// The chunk it waits for (64 hex), and the attachment whose chunk it is (nil: a large
    /// note's fields).
    public var chunk: String
    public var attachment: String?

    public init(record: JSONValue, recordID: String, rev: String, unavailable: AssetUnavailable) {
        self.record = record
        self.recordID = recordID
        self.rev = rev
        self.chunk = unavailable.chunk
        self.attachment = unavailable.attachment
        self.reason = Self.reason(unavailable)
    }

    /// A waiting record as kept: nil unless `record` names a note and a revision.
    public init?(record: JSONValue, reason: String, chunk: String, attachment: String?) {
        guard let recordID = record["recordID"]?.stringValue, let rev = record["rev"]?.stringValue,
            AssetRef.isChunkName(chunk)
        else { return nil }
        self.record = record
        self.recordID = recordID
        self.rev = rev
        self.reason = reason
        self.chunk = chunk
        self.attachment = attachment
    }

    /// What the user reads: "attachment a.bin: chunk 1f2e… does not match its hash (damaged or
    /// partial)", or "the note's text: chunk … has not arrived yet".
    public static func reason(_ unavailable: AssetUnavailable) -> String {
        let what = unavailable.attachment.map { "attachment \(TerminalSafeText.sanitize($0))" } ?? "the note's text"
        return "\(what): chunk \(unavailable.chunk.prefix(12))… \(unavailable.reason)"
    }

    /// The same revision applied without its attachments' content, as a snapshot's history
    /// record is (rule 15); nil when its fields are in the missing chunks themselves. Used once
    /// a later revision of the note names it as a parent: it is then history, never the note's
    /// text, and the later revision carries (and waits for) the content it shows.
    public func withoutContent(assets: (any AssetStore)?) throws -> ChangeRecord? {
        guard case .object(var object) = record, object["fields"] != nil else { return nil }
        object["attachmentChunks"] = nil
        return try ChangeRecord(json: .object(object), assets: assets, contentOptional: true)
    }
}
