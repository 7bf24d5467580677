import NotesCore

/// One `RecordZoneChangeBatch`: the body of a log file, atomic by zone (SYNC-FORMAT rule 3).
///
/// The body is a JSON array of `ChangeRecord`s, at most 400 records and 2 MB of canonical bytes.
public struct ChangeBatch: Sendable, Equatable {
    public static let maxRecords = 400
    public static let maxBodyBytes = 2 * 1_048_576

    public var records: [ChangeRecord]
    /// Records of the file refused for a value outside its range (`ChangeRecord.OutOfRange`):
    /// the rest of the file is applied; the reader warns, naming the file.
    public var refused: [ChangeRecord.OutOfRange]
    /// Records whose chunk is missing or does not check out (rule 15): they wait on their own,
    /// the rest of the file is applied.
    public var waiting: [WaitingRecord]

    public init(records: [ChangeRecord], refused: [ChangeRecord.OutOfRange] = [], waiting: [WaitingRecord] = []) {
        self.records = records
        self.refused = refused
        self.waiting = waiting
    }

    public var revisions: [Revision] { records.map(\.revision) }

    /// The body as it goes into an envelope; large fields go to `assets` (rule 15).
    public func body(assets: (any AssetStore)? = nil, device: DeviceID? = nil) throws -> JSONValue {
        .array(try records.map { try $0.json(assets: assets, device: device) })
    }

    /// The body's canonical bytes and whether it needs format 3, put together from the records'
    /// `encoded` bytes (a JSON array is `[`, its items' bytes between commas, `]`); nil unless
    /// every record has them.
    func encodedBody() -> (bytes: [UInt8], needsFormat3: Bool)? {
        var bytes: [UInt8] = [UInt8(ascii: "[")]
        var needsFormat3 = false
        for (index, record) in records.enumerated() {
            guard let encoded = record.encoded else { return nil }
            if index > 0 { bytes.append(UInt8(ascii: ",")) }
            bytes += encoded.bytes
            needsFormat3 = needsFormat3 || encoded.needsFormat3
        }
        bytes.append(UInt8(ascii: "]"))
        return (bytes, needsFormat3)
    }

    /// Reads a body; throws when any record is malformed (the whole file is then not arrived yet).
    /// A record whose asset has not arrived or does not check out goes to `waiting`.
    public init(body: JSONValue, assets: (any AssetStore)? = nil) throws {
        guard let items = body.arrayValue else { throw CloudError(.invalidArguments, "a change batch is not a list") }
        guard items.count <= Self.maxRecords else {
            throw CloudError(.limitExceeded, "a change batch holds \(items.count) records, over \(Self.maxRecords)")
        }
        var records: [ChangeRecord] = []
        var refused: [ChangeRecord.OutOfRange] = []
        var waiting: [WaitingRecord] = []
        records.reserveCapacity(items.count)
        for item in items {
            do {
                records.append(try ChangeRecord(json: item, assets: assets))
            } catch let error as ChangeRecord.OutOfRange {
                refused.append(error)
            } catch let missing as AssetUnavailable {
                // Thrown only after the record's keys were read: these two are strings.
                guard let recordID = item["recordID"]?.stringValue, let rev = item["rev"]?.stringValue else {
                    throw CloudError(.invalidArguments, "a change record is malformed")
                }
                waiting.append(WaitingRecord(record: item, recordID: recordID, rev: rev, unavailable: missing))
            }
        }
        self.init(records: records, refused: refused, waiting: waiting)
    }

    /// A split of revisions into batches; records refused by the 1 MB limit are listed apart
    /// (they stay local, the others go out: a partial failure, not a failed send).
    public struct Plan: Sendable {
        public var batches: [ChangeBatch] = []
        public var rejected: [(revision: Revision, error: CloudError)] = []
    }

    /// Splits revisions, in order, into batches of at most 400 records and 2 MB of body.
    public static func plan(_ revisions: [Revision], maxRecordBytes: Int = ChangeRecord.maxFieldsBytes) -> Plan {
        plan(revisions.map { ChangeRecord($0) }, maxRecordBytes: maxRecordBytes)
    }

    /// `plan` of records, some perhaps `encodedOnce` (then measured by their bytes).
    public static func plan(_ records: [ChangeRecord], maxRecordBytes: Int = ChangeRecord.maxFieldsBytes) -> Plan {
        var plan = Plan()
        var current: [ChangeRecord] = []
        var size = 2  // "[" and "]"
        for record in records {
            let revision = record.revision
            let bytes: Int
            do {
                if let encoded = record.encoded, encoded.fieldsBytes <= maxRecordBytes {
                    bytes = encoded.bytes.count
                } else {
                    bytes = try record.json(estimating: true, maxBytes: maxRecordBytes).canonicalBytes.count
                }
            } catch let error as CloudError {
                plan.rejected.append((revision, error))
                continue
            } catch let error as ChangeRecord.OutOfRange {
                plan.rejected.append((revision, CloudError(.invalidArguments, error.description)))
                continue
            } catch {
                plan.rejected.append((revision, CloudError.wrapping(error)))
                continue
            }
            let added = bytes + (current.isEmpty ? 0 : 1)  // a comma between records
            if !current.isEmpty && (current.count == maxRecords || size + added > maxBodyBytes) {
                plan.batches.append(ChangeBatch(records: current))
                current = []
                size = 2
            }
            size += bytes + (current.isEmpty ? 0 : 1)
            current.append(record)
        }
        if !current.isEmpty { plan.batches.append(ChangeBatch(records: current)) }
        return plan
    }
}
