import Crypto
import Foundation

/// The synced fields of a note at one revision; what the revision id hashes.
public struct RevisionFields: Sendable, Equatable {
    /// Equal when every byte is: Swift's `String ==` is canonical equivalence, under which an
    /// edit that only changes normalization (NFD to NFC) would count as no change and be lost.
    public static func == (a: RevisionFields, b: RevisionFields) -> Bool {
        func same(_ x: String, _ y: String) -> Bool { x.utf8.elementsEqual(y.utf8) }
        return same(a.zone, b.zone) && same(a.title, b.title) && same(a.body, b.body)
            && a.tags.count == b.tags.count && zip(a.tags, b.tags).allSatisfy(same)
            && a.isFavorite == b.isFavorite && a.createdAt == b.createdAt && a.modifiedAt == b.modifiedAt
            && a.deletedAt == b.deletedAt && a.attachments == b.attachments
            && a.frontMatter.map { Array($0.utf8) } == b.frontMatter.map { Array($0.utf8) }
    }

    /// The times a note may carry, in ms since 1970: 0001-01-01 through 9999-12-31 (SYNC-FORMAT
    /// "Bodies"). Read from the cloud, a record outside it is refused; every value in it converts
    /// to a `Date` and back, and prints as an ISO date, without trapping.
    public static let timeRange: ClosedRange<Int64> = -62_135_596_800_000...253_402_300_799_999

    /// The first time field outside `timeRange`, as "createdAt 9223372036854775807", or nil.
    public var timeOutOfRange: String? {
        for (name, value) in [("createdAt", createdAt), ("modifiedAt", modifiedAt), ("deletedAt", deletedAt)] {
            if let value, !Self.timeRange.contains(value) { return "\(name) \(value)" }
        }
        return nil
    }

    public var zone: String
    public var title: String
    public var body: String
    public var tags: [String]
    public var isFavorite: Bool
    public var createdAt: Int64
    public var modifiedAt: Int64
    public var deletedAt: Int64?
    /// `Note.frontMatter`: absent from the JSON when nil, so notes without it keep their ids.
    public var frontMatter: String?
    /// Sorted by the UTF-8 bytes of their names, names unique; `attachments` in the JSON only
    /// when there is one, so the ids of revisions without any are what they always were.
    public var attachments: [Attachment] = []

    public init(note: Note) {
        zone = note.zone
        title = note.title
        body = note.body
        tags = Note.normalizedTags(note.tags)
        isFavorite = note.isFavorite
        createdAt = note.createdAt.millisecondsSince1970
        modifiedAt = note.modifiedAt.millisecondsSince1970
        deletedAt = note.deletedAt?.millisecondsSince1970
        frontMatter = note.frontMatter
        attachments = Attachment.sorted(note.attachments)
    }

    public var json: JSONValue {
        var d: [String: JSONValue] = [
            "zone": .string(zone), "title": .string(title), "body": .string(body),
            "tags": .array(tags.map(JSONValue.string)), "isFavorite": .bool(isFavorite),
            "createdAt": .int(createdAt), "modifiedAt": .int(modifiedAt),
        ]
        if let deletedAt { d["deletedAt"] = .int(deletedAt) }
        if let frontMatter { d["frontMatter"] = .string(frontMatter) }
        if !attachments.isEmpty { d["attachments"] = .array(attachments.map(\.json)) }
        return .object(d)
    }

    public init(json: JSONValue) throws {
        guard let zone = json["zone"]?.stringValue, let title = json["title"]?.stringValue,
            let body = json["body"]?.stringValue, let tags = json["tags"]?.arrayValue,
            let isFavorite = json["isFavorite"]?.boolValue,
            let createdAt = json["createdAt"]?.intValue, let modifiedAt = json["modifiedAt"]?.intValue
        else { throw JSONValueError.notCanonical("revision fields are incomplete") }
        self.zone = zone
        self.title = title
        self.body = body
        self.tags = Note.normalizedTags(tags.compactMap(\.stringValue))
        self.isFavorite = isFavorite
        self.createdAt = createdAt
        self.modifiedAt = modifiedAt
        self.deletedAt = json["deletedAt"]?.intValue
        self.frontMatter = json["frontMatter"]?.stringValue
        if let list = json["attachments"] {
            // Rule 15: a list of at least one, sorted by name, names unique.
            guard let items = list.arrayValue, !items.isEmpty, items.count <= 10_000 else {
                throw JSONValueError.notCanonical("attachments must be a non-empty list")
            }
            let parsed = try items.map(Attachment.init(json:))
            guard
                zip(parsed, parsed.dropFirst()).allSatisfy({ $0.name.utf8.lexicographicallyPrecedes($1.name.utf8) })
            else { throw JSONValueError.notCanonical("attachments must be sorted by name, each name once") }
            self.attachments = parsed
        }
    }

    /// The note these fields describe.
    public func note(id: UUID, headRev: String?, syncState: Note.SyncState) -> Note {
        Note(
            id: id, zone: zone, title: title, body: body, tags: tags, isFavorite: isFavorite,
            createdAt: Date(millisecondsSince1970: createdAt),
            modifiedAt: Date(millisecondsSince1970: modifiedAt),
            deletedAt: deletedAt.map(Date.init(millisecondsSince1970:)), headRev: headRev,
            syncState: syncState, frontMatter: frontMatter, attachments: attachments)
    }
}

/// One version of a record: the unit of history, of sync and of three-way merge.
///
/// The id is content-addressed (SYNC-FORMAT rule 6): SHA-256 of the sorted parent ids, the
/// record id and the canonical fields. Same content and parents give the same id on every
/// device, which is what makes duplicate deliveries and concurrent identical merges harmless.
public struct Revision: Sendable, Equatable, Identifiable {
    public var id: String
    public var recordID: UUID
    public var parents: [String]
    /// nil for a tombstone (the record was purged).
    public var fields: RevisionFields?
    public var hlc: HLC
    public var device: String

    public init(recordID: UUID, parents: [String], fields: RevisionFields?, hlc: HLC, device: String) {
        self.recordID = recordID
        self.parents = parents.sorted()
        self.fields = fields
        self.hlc = hlc
        self.device = device
        self.id = Revision.computeID(recordID: recordID, parents: parents, fieldsJSON: fields?.canonicalBytes)
    }

    /// Like `init(recordID:parents:fields:hlc:device:)` for a caller that already holds the
    /// canonical JSON of `fields` (`fields.canonicalBytes`), so it is not built twice.
    public init(
        recordID: UUID, parents: [String], fields: RevisionFields, canonicalFields: [UInt8], hlc: HLC, device: String
    ) {
        self.recordID = recordID
        self.parents = parents.sorted()
        self.fields = fields
        self.hlc = hlc
        self.device = device
        self.id = Revision.computeID(recordID: recordID, parents: parents, fieldsJSON: canonicalFields)
    }

    /// A revision as a store holds it, with the `id` it was stored under (computed from these
    /// fields when it was written) rather than computed again, which serializes the fields (most
    /// often a whole body) and hashes them: reading what a publish sends did that for every note.
    public init(
        storedID id: String, recordID: UUID, parents: [String], fields: RevisionFields?, hlc: HLC, device: String
    ) {
        self.id = id
        self.recordID = recordID
        self.parents = parents.sorted()
        self.fields = fields
        self.hlc = hlc
        self.device = device
    }

    public var isTombstone: Bool { fields == nil }

    public static func computeID(recordID: UUID, parents: [String], fields: RevisionFields?) -> String {
        computeID(recordID: recordID, parents: parents, fieldsJSON: fields?.canonicalBytes)
    }

    /// The id from the canonical bytes of the fields (nil for a tombstone). The hashed object
    /// is `{"deleted":true | "fields":F, "parents":[…], "recordID":"…"}`, keys in canonical
    /// order, assembled around F so the fields (often the whole body) are serialized once.
    static func computeID(recordID: UUID, parents: [String], fieldsJSON: [UInt8]?) -> String {
        // Hashed in pieces: the fields are not copied into one buffer with the rest.
        var hash = SHA256()
        if let fieldsJSON {
            hash.update(data: Array("{\"fields\":".utf8))
            hash.update(data: fieldsJSON)
        } else {
            hash.update(data: Array("{\"deleted\":true".utf8))
        }
        var rest = Array(",\"parents\":".utf8)
        rest += JSONValue.array(parents.sorted().map(JSONValue.string)).canonicalBytes
        rest += Array(",\"recordID\":".utf8)
        rest += JSONValue.string(recordID.lowercasedString).canonicalBytes
        rest.append(UInt8(ascii: "}"))
        hash.update(data: rest)
        let hex = Array("0123456789abcdef".utf8)
        var out: [UInt8] = []
        out.reserveCapacity(64)
        for byte in hash.finalize() { out += [hex[Int(byte >> 4)], hex[Int(byte & 0xF)]] }
        return String(decoding: out, as: UTF8.self)
    }

    /// The total order of SYNC-FORMAT rule 7, (HLC, device), with the revision id as the last
    /// tie-break so that two revisions never compare equal.
    public static func isEarlier(_ a: Revision, _ b: Revision) -> Bool {
        (a.hlc, a.device, a.id) < (b.hlc, b.device, b.id)
    }
}
