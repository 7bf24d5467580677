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
    /// A record's canonical fields may be at most this many bytes (rule 13).
    public static let maxFieldsBytes = 1_048_576

    public var revision: Revision
    public var recordType: String

    public init(_ revision: Revision, recordType: String = ChangeRecord.recordType) {
        self.revision = revision
        self.recordType = recordType
    }

    /// The record as JSON; throws `limitExceeded` when the fields are over 1 MB, `OutOfRange`
    /// when a time is outside its range (never written, as it would be refused on reading).
    public func json() throws -> JSONValue {
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
            let json = fields.json
            let size = json.canonicalBytes.count
            guard size <= Self.maxFieldsBytes else {
                throw CloudError(
                    .limitExceeded,
                    "note \(revision.recordID.lowercasedString) is \(size) bytes; a record is limited to "
                        + "\(Self.maxFieldsBytes) bytes (1 MB), so it stays on this device")
            }
            object["fields"] = json
        } else {
            object["deleted"] = .bool(true)
        }
        return .object(object)
    }

    /// A well-formed record carrying a value outside its documented range (a stamp past the HLC
    /// range, a time outside `RevisionFields.timeRange`): refused on its own, with the reason.
    public struct OutOfRange: Error, Sendable, Equatable, CustomStringConvertible {
        public var recordID: String
        public var reason: String
        public var description: String { "record \(recordID): \(reason) is out of range" }
    }

    /// Reads a record; throws when it is malformed or its `rev` does not match its content, and
    /// `OutOfRange` when it is well formed but carries a value outside its range.
    public init(json: JSONValue) throws {
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
        switch (json["fields"], json["deleted"]) {
        case (let value?, nil): fields = try RevisionFields(json: value)
        case (nil, .bool(true)?): fields = nil
        default: throw CloudError(.invalidArguments, "a change record needs exactly one of fields and deleted")
        }
        let revision = Revision(recordID: recordID, parents: parentIDs, fields: fields, hlc: hlc, device: device)
        guard revision.id == rev else {
            throw CloudError(.invalidArguments, "record \(idText): rev \(rev) does not match its content")
        }
        if let reason = fields?.timeOutOfRange { throw OutOfRange(recordID: idText, reason: reason) }
        self.init(revision, recordType: recordType)
    }
}
