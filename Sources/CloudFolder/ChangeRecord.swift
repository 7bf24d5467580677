import Foundation
import NotesCore

/// One revision as it travels in a change batch (SYNC-FORMAT rule 3).
///
/// `{deleted: true | fields, device, hlc, parents, recordID, recordType, rev}`, where `rev` is the
/// content-addressed revision id. `hlc` and `device` are carried per record
/// because rule 7 orders revisions by them and a batch may hold revisions stamped at different
/// times. A decoded record's `rev` must equal the id recomputed from its content (rule 6).
public struct ChangeRecord: Sendable, Equatable {
    public static let recordType = "Note"
    /// A record's canonical fields may be at most this many bytes (rule 13): 1 GiB.
    public static let maxFieldsBytes = AssetRef.maxChunks * AssetRef.chunkSize
    /// Fields larger than this travel as an asset (rule 15), not inline in the log file.
    public static let inlineFieldsBytes = 256 * 1024

    public var revision: Revision
    public var recordType: String
    /// The record's canonical bytes when `json` gives the same in every mode (no attachment,
    /// fields inline): encoded once, where the engine reads ahead (`encodedOnce`), for the plan
    /// and the log file. Not part of the record's value (`==`).
    public private(set) var encoded: Encoded?

    /// A record's canonical bytes, the size of its fields within them, and whether it needs
    /// format 3 (`needsFormat3`).
    public struct Encoded: Sendable {
        public let bytes: [UInt8]
        public let fieldsBytes: Int
        public let needsFormat3: Bool
    }

    public init(_ revision: Revision, recordType: String = ChangeRecord.recordType) {
        self.revision = revision
        self.recordType = recordType
    }

    public static func == (lhs: ChangeRecord, rhs: ChangeRecord) -> Bool {
        lhs.revision == rhs.revision && lhs.recordType == rhs.recordType
    }

    /// The record with `encoded` filled when its JSON names no asset: no attachment and fields
    /// of at most `inlineFieldsBytes`, or a deletion (else as it is; so is one `json` refuses).
    public func encodedOnce() -> ChangeRecord {
        guard revision.fields.map({ $0.attachments.isEmpty }) ?? true,
            let (value, fieldsBytes) = try? encode(), fieldsBytes <= Self.inlineFieldsBytes
        else { return self }
        var record = self
        record.encoded = Encoded(
            bytes: value.canonicalBytes, fieldsBytes: fieldsBytes, needsFormat3: Self.needsFormat3(value))
        return record
    }

    /// The record as JSON; throws `limitExceeded` when the fields are over the limit, `OutOfRange`
    /// when a time is outside its range (never written, as it would be refused on reading).
    /// Fields over `inlineFieldsBytes` go to `assets` when given (a log file); without it, or
    /// with `inlineFields` (a snapshot), they are inline, and `estimating` sizes them as a
    /// reference would be. Attachments' chunks always go to `assets` (rule 15).
    public func json(
        assets: (any AssetStore)? = nil, device: DeviceID? = nil, estimating: Bool = false,
        maxBytes: Int = ChangeRecord.maxFieldsBytes, inlineFields: Bool = false, attachmentContent: Bool = true
    ) throws -> JSONValue {
        try encode(
            assets: assets, device: device, estimating: estimating, maxBytes: maxBytes, inlineFields: inlineFields,
            attachmentContent: attachmentContent
        ).json
    }

    /// `json`, and the size of the record's canonical fields (0 for a deletion).
    private func encode(
        assets: (any AssetStore)? = nil, device: DeviceID? = nil, estimating: Bool = false,
        maxBytes: Int = ChangeRecord.maxFieldsBytes, inlineFields: Bool = false, attachmentContent: Bool = true
    ) throws -> (json: JSONValue, fieldsBytes: Int) {
        var fieldsBytes = 0
        if let reason = revision.fields?.timeOutOfRange {
            throw OutOfRange(recordID: revision.recordID.lowercasedString, reason: reason)
        }
        var object: [String: JSONValue] = [
            "recordID": .string(revision.recordID.lowercasedString),
            "recordType": .string(recordType),
            "rev": .string(revision.id),
            "parents": .array(revision.parents.map(JSONValue.string)),
            "hlc": .string(revision.hlc.description),
            "device": .string(revision.device),
        ]
        if let fields = revision.fields {
            let bytes = fields.canonicalBytes
            fieldsBytes = bytes.count
            guard bytes.count <= min(maxBytes, Self.maxFieldsBytes) else {
                throw CloudError(
                    .limitExceeded,
                    "note \(revision.recordID.lowercasedString) is \(bytes.count) bytes, over the "
                        + "\(Self.describe(min(maxBytes, Self.maxFieldsBytes))) limit, so it stays on this device")
            }
            if bytes.count > Self.inlineFieldsBytes, !inlineFields, let assets, let device {
                object["fieldsAsset"] = try assets.storeAsset(bytes, device: device).json
            } else if bytes.count > Self.inlineFieldsBytes, estimating {
                let chunks = (bytes.count + AssetRef.chunkSize - 1) / AssetRef.chunkSize
                object["fieldsAsset"] =
                    AssetRef(
                        chunks: Array(repeating: String(repeating: "0", count: 64), count: chunks), size: bytes.count
                    )
                    .json
            } else {
                object["fields"] = fields.json
            }
            // A snapshot's history record goes without its attachments' chunks (rule 15).
            if !fields.attachments.isEmpty, attachmentContent {
                object["attachmentChunks"] = try Self.attachmentChunks(
                    fields.attachments, assets: assets, device: device, estimating: estimating)
            }
        } else {
            object["deleted"] = .bool(true)
        }
        return (.object(object), fieldsBytes)
    }

    /// A byte count as people read a limit: "1 MB", "1 GB", "300 KB" (powers of 1024).
    public static func describe(_ bytes: Int) -> String {
        if bytes >= 1 << 30, bytes % (1 << 30) == 0 { return "\(bytes >> 30) GB" }
        if bytes >= 1 << 20, bytes % (1 << 20) == 0 { return "\(bytes >> 20) MB" }
        if bytes >= 1 << 10, bytes % (1 << 10) == 0 { return "\(bytes >> 10) KB" }
        return "\(bytes)-byte"
    }

    /// A well-formed record carrying a value outside its documented range (a stamp past the HLC
    /// range, a time outside `RevisionFields.timeRange`): refused on its own, with the reason.
    public struct OutOfRange: Error, Sendable, Equatable, CustomStringConvertible {
        public var recordID: String
        public var reason: String
        public var description: String { "record \(recordID): \(reason) is out of range" }
    }

    /// Reads a record; throws when it is malformed or its `rev` does not match its content, and
    /// `OutOfRange` when it is well formed but carries a value outside its range. Fields in an
    /// asset are read from `assets` (`AssetUnavailable` when a chunk is missing or damaged).
    /// `contentOptional` (a snapshot's records): a record naming attachments without
    /// `attachmentChunks` is a history record, applied without its content (rule 15).
    public init(json: JSONValue, assets: (any AssetStore)? = nil, contentOptional: Bool = false) throws {
        guard let idText = json["recordID"]?.stringValue, let recordID = UUID(uuidString: idText),
            idText == idText.lowercased(),
            let recordType = json["recordType"]?.stringValue, let rev = json["rev"]?.stringValue,
            let parents = json["parents"]?.arrayValue, let hlcText = json["hlc"]?.stringValue,
            let device = json["device"]?.stringValue, DeviceID(device) != nil
        else { throw CloudError(.invalidArguments, "a change record is malformed") }
        let hlc: HLC
        switch HLC.parse(hlcText) {
        case .valid(let parsed): hlc = parsed
        case .outOfRange: throw OutOfRange(recordID: idText, reason: "hlc \(hlcText)")
        case .malformed: throw CloudError(.invalidArguments, "a change record is malformed")
        }
        let parentIDs = parents.compactMap(\.stringValue)
        guard parentIDs.count == parents.count else {
            throw CloudError(.invalidArguments, "a parent id is not a string")
        }
        let fields: RevisionFields?
        switch (json["fields"], json["fieldsAsset"], json["deleted"]) {
        case (let value?, nil, nil): fields = try RevisionFields(json: value)
        case (nil, let value?, nil):
            let ref = try AssetRef(json: value)
            guard let assets else {
                throw CloudError(.invalidArguments, "a record's fields are in an asset here unread")
            }
            let bytes = try assets.readAsset(ref)
            // Not JSON is said in the error below, with the record named.
            guard let parsed = try? JSONValue(parsing: Data(bytes)) else {
                throw CloudError(.invalidArguments, "record \(idText): its asset is not JSON")
            }
            fields = try RevisionFields(json: parsed)
        case (nil, nil, .bool(true)?): fields = nil
        default:
            throw CloudError(.invalidArguments, "a change record needs exactly one of fields, fieldsAsset and deleted")
        }
        let revision = Revision(recordID: recordID, parents: parentIDs, fields: fields, hlc: hlc, device: device)
        guard revision.id == rev else {
            throw CloudError(.invalidArguments, "record \(idText): rev \(rev) does not match its content")
        }
        if let reason = fields?.timeOutOfRange { throw OutOfRange(recordID: idText, reason: reason) }
        if !(contentOptional && json["attachmentChunks"] == nil) {
            try Self.readAttachments(
                fields?.attachments ?? [], json["attachmentChunks"], assets: assets, record: idText)
        }
        self.init(revision, recordType: recordType)
    }

    /// `attachmentChunks` (rule 15): for each distinct content a record's attachments name, its
    /// SHA-256 → `{chunks, size}`. The chunks are written (by `assets`) before the record.
    static func attachmentChunks(
        _ attachments: [Attachment], assets: (any AssetStore)?, device: DeviceID?, estimating: Bool
    ) throws -> JSONValue {
        var refs: [String: JSONValue] = [:]
        for attachment in attachments where refs[attachment.sha256] == nil {
            if let assets, let device {
                refs[attachment.sha256] = try assets.storeAttachment(attachment, device: device).json
            } else if estimating {
                let chunks = max(1, Int((attachment.size + Int64(AssetRef.chunkSize) - 1) / Int64(AssetRef.chunkSize)))
                refs[attachment.sha256] =
                    AssetRef(
                        chunks: Array(repeating: String(repeating: "0", count: 64), count: chunks),
                        size: Int(attachment.size)
                    )
                    .json
            } else {
                throw CloudError(.invalidArguments, "a record with attachments is written only to a cloud folder")
            }
        }
        return .object(refs)
    }

    /// Checks `attachmentChunks` against the fields' attachments and reads every chunk into the
    /// device's content before the record is applied (rule 15).
    static func readAttachments(
        _ attachments: [Attachment], _ json: JSONValue?, assets: (any AssetStore)?, record: String
    ) throws {
        guard !attachments.isEmpty else {
            guard json == nil else {
                throw CloudError(.invalidArguments, "record \(record): attachmentChunks without attachments")
            }
            return
        }
        guard case .object(let refs)? = json, Set(refs.keys) == Set(attachments.map(\.sha256)) else {
            throw CloudError(.invalidArguments, "record \(record): attachmentChunks do not match its attachments")
        }
        let parsed = try refs.mapValues(AssetRef.init(json:))
        guard let assets else {
            throw CloudError(.invalidArguments, "record \(record): its attachments are in assets here unread")
        }
        for attachment in attachments {
            guard let ref = parsed[attachment.sha256], Int64(ref.size) == attachment.size else {
                throw CloudError(.invalidArguments, "record \(record): attachment sizes do not match their chunks")
            }
            try assets.fetchAttachment(attachment, ref: ref)
        }
    }

    /// Whether a record's file must be written in format 3: the record names attachments, or
    /// its fields carry `frontMatter`. Builds before both would drop either key, compute another
    /// revision id and refuse the file as not matching its content; format 3 makes them say
    /// "newer than this build" instead (and wait there, never applying the note without them).
    static func needsFormat3(_ json: JSONValue) -> Bool {
        json["attachmentChunks"] != nil || json["fields"]?["frontMatter"] != nil
    }

    /// Whether a snapshot record names attachments without their chunks (a history record):
    /// the snapshot is then written in format 4 (rule 15).
    static func isHistoryWithoutContent(_ json: JSONValue) -> Bool {
        json["attachmentChunks"] == nil && json["fields"]?["attachments"] != nil
    }
}
