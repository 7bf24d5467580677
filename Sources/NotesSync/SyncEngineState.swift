import CloudFolder
import Foundation
import NotesCore

/// The engine's state serialization, CKSyncEngine's `State.Serialization` (ARCHITECTURE §2 `sync_state`).
///
/// Saved by the store in the same transaction as what it covers: a zone's change token with
/// the fetched changes applied up to it, the published seq with the outbox rows it sent
/// (rule 2). `inFlight` is a batch about to be published: after a crash the engine publishes
/// exactly the same batch again (same seq, records and stamp, so the same bytes), which is
/// harmless whether or not the first attempt reached the folder.
public struct SyncEngineState: Sendable, Equatable {
    /// What the engine knows of one zone.
    public struct Zone: Sendable, Equatable {
        /// The version vector read and applied (our own log included, up to `published`).
        public var token: ChangeToken
        /// The last seq of this device's log in the zone.
        public var published: Int64
        /// Compaction (rule 11): the seq through which this device announced (in its device
        /// file) that its own log files may be deleted, and through which it has deleted them.
        public var pruned: Int64
        public var deletedThrough: Int64
        /// This device's snapshots of the zone still in the folder, oldest first.
        public var snapshots: [OwnSnapshot]

        public init(
            token: ChangeToken = .empty, published: Int64 = 0, pruned: Int64 = 0, deletedThrough: Int64 = 0,
            snapshots: [OwnSnapshot] = []
        ) {
            self.token = token
            self.published = published
            self.pruned = pruned
            self.deletedThrough = deletedThrough
            self.snapshots = snapshots
        }

        var json: JSONValue {
            var object: [String: JSONValue] = ["token": token.json, "published": .int(published)]
            if pruned > 0 { object["pruned"] = .int(pruned) }
            if deletedThrough > 0 { object["deletedThrough"] = .int(deletedThrough) }
            if !snapshots.isEmpty {
                object["snapshots"] = .array(snapshots.map { .array([.int($0.seq), .int($0.written)]) })
            }
            return .object(object)
        }

        init(json value: JSONValue) throws {
            let seqs = ChangeToken.seqRange
            guard let token = value["token"], let published = value["published"]?.intValue, seqs.contains(published)
            else { throw CloudError(.internalError, "the saved sync state is damaged (a zone)") }
            let pruned = value["pruned"]?.intValue ?? 0
            let deletedThrough = value["deletedThrough"]?.intValue ?? 0
            guard seqs.contains(pruned), seqs.contains(deletedThrough) else {
                throw CloudError(.internalError, "the saved sync state is damaged (a zone's pruned seqs)")
            }
            let snapshots = (value["snapshots"]?.arrayValue ?? []).compactMap { pair -> OwnSnapshot? in
                guard let pair = pair.arrayValue, pair.count == 2, let seq = pair[0].intValue,
                    let written = pair[1].intValue
                else { return nil }
                return OwnSnapshot(seq: seq, written: written)
            }
            guard snapshots.allSatisfy({ seqs.contains($0.seq) && DeviceInfo.timeRange.contains($0.written) }) else {
                throw CloudError(.internalError, "the saved sync state is damaged (a zone's snapshots)")
            }
            self.init(
                token: try ChangeToken(json: token), published: published, pruned: pruned,
                deletedThrough: deletedThrough, snapshots: snapshots)
        }
    }

    /// A snapshot this device wrote: its seq (it covers our own log through it) and when it was
    /// written (ms since 1970, this device's clock), from which "visible for a day" is counted.
    public struct OwnSnapshot: Sendable, Equatable {
        public var seq: Int64
        public var written: Int64
    }

    /// A record waiting for a chunk, and where it was read (zone, writer, log file).
    public struct Waiting: Sendable, Equatable {
        public var zone: ZoneID
        public var device: DeviceID
        public var seq: Int64
        public var record: WaitingRecord

        var json: JSONValue {
            var object: [String: JSONValue] = [
                "zone": .string(zone.rawValue), "device": .string(device.rawValue), "seq": .int(seq),
                "record": record.record, "reason": .string(record.reason), "chunk": .string(record.chunk),
            ]
            if let attachment = record.attachment { object["attachment"] = .string(attachment) }
            return .object(object)
        }

        /// Nil for an entry that does not read back (it is dropped: the record is read again
        /// only if its log file is, which a token past it never does).
        init?(json: JSONValue) {
            guard let zone = json["zone"]?.stringValue.flatMap(ZoneID.init),
                let device = json["device"]?.stringValue.flatMap(DeviceID.init),
                let seq = json["seq"]?.intValue, ChangeToken.seqRange.contains(seq), let raw = json["record"],
                let reason = json["reason"]?.stringValue, let chunk = json["chunk"]?.stringValue,
                let record = WaitingRecord(
                    record: raw, reason: reason, chunk: chunk, attachment: json["attachment"]?.stringValue)
            else { return nil }
            self.init(zone: zone, device: device, seq: seq, record: record)
        }

        init(zone: ZoneID, device: DeviceID, seq: Int64, record: WaitingRecord) {
            self.zone = zone
            self.device = device
            self.seq = seq
            self.record = record
        }
    }

    /// A batch written to the state before its publication.
    public struct InFlight: Sendable, Equatable {
        public var zone: ZoneID
        public var seq: Int64
        public var hlc: HLC
        public var outboxSeqs: [Int64]
    }

    /// The container this store is bound to; nil until the first sync.
    public var containerID: String?
    /// The `restored` stamp of the container's `container.json` when this store last synced
    /// with it (nil: the container as first created). Another stamp means the folder was emptied
    /// and re-created (`sync init --restore`): everything this store holds is sent again.
    public var containerRestored: String?
    /// The device id this engine publishes under, once it differs from the one the store was
    /// opened with (a clone rotation, rule 10); nil: the store's.
    public var deviceID: DeviceID?
    /// Device ids this data directory used before clone rotations, oldest first (for `status`).
    public var rotatedFrom: [DeviceID] = []
    public var zones: [ZoneID: Zone] = [:]
    public var inFlight: InFlight?
    /// When the last complete sync ended (ms since 1970).
    public var lastSync: Int64?
    /// When this device's file was last written (ms since 1970).
    public var deviceFileWritten: Int64?
    /// Zones whose deletion marker this device has acted on (its notes went to the trash once).
    public var deletedZones: Set<ZoneID> = []
    /// The warnings of the last sync (skipped files, clock skew, notes over the limit), so that
    /// `status` in another process can show them.
    public var warnings: [String] = []

    /// Why the last sync failed, kept until a sync succeeds (for `status`, which is another
    /// process than the failed `sync`).
    public var lastError: LastError?
    /// Notes held back after the last send, by the record size limit or waiting for room in a
    /// full cloud folder: record id → reason.
    public var held: [String: String] = [:]
    /// Records read whose chunk is missing or does not check out (rule 15), oldest first: each
    /// holds only its note and is tried again at every fetch (`SyncEngine+Waiting.swift`).
    public var waiting: [Waiting] = []
    /// The names other devices gave themselves in their device files (`deviceName`), by id, as
    /// last read: history, conflicts and the resolver name devices by them (`DeviceLabels`).
    /// Untrusted text, sanitized where it is shown.
    public var deviceNames: [DeviceID: String] = [:]

    /// A failed sync, in the user's words and as a code.
    public struct LastError: Sendable, Equatable {
        /// `full`, `read-only`, `permission`, `gone`, `limit` or `error`.
        public var kind: String
        /// The CloudError code (for `--json` and `debug`).
        public var code: String
        public var message: String
        /// When it failed, ms since 1970.
        public var at: Int64

        public init(kind: String, code: String, message: String, at: Int64) {
            self.kind = kind
            self.code = code
            self.message = message
            self.at = at
        }

        var json: JSONValue {
            .object(["kind": .string(kind), "code": .string(code), "message": .string(message), "at": .int(at)])
        }

        init?(json: JSONValue?) {
            guard let json, let kind = json["kind"]?.stringValue, let code = json["code"]?.stringValue,
                let message = json["message"]?.stringValue, let at = json["at"]?.intValue
            else { return nil }
            self.init(kind: kind, code: code, message: message, at: at)
        }
    }

    public init() {}

    public var json: JSONValue {
        var object: [String: JSONValue] = [
            "zones": .object(Dictionary(uniqueKeysWithValues: zones.map { ($0.key.rawValue, $0.value.json) }))
        ]
        if let containerID { object["containerID"] = .string(containerID) }
        if let containerRestored { object["containerRestored"] = .string(containerRestored) }
        if let deviceID { object["deviceID"] = .string(deviceID.rawValue) }
        if !rotatedFrom.isEmpty { object["rotatedFrom"] = .array(rotatedFrom.map { .string($0.rawValue) }) }
        if let lastSync { object["lastSync"] = .int(lastSync) }
        if let deviceFileWritten { object["deviceFileWritten"] = .int(deviceFileWritten) }
        if !warnings.isEmpty { object["warnings"] = .array(warnings.map(JSONValue.string)) }
        if let lastError { object["lastError"] = lastError.json }
        if !held.isEmpty { object["held"] = .object(held.mapValues(JSONValue.string)) }
        if !waiting.isEmpty { object["waiting"] = .array(waiting.map(\.json)) }
        if !deviceNames.isEmpty {
            object["deviceNames"] = .object(
                Dictionary(uniqueKeysWithValues: deviceNames.map { ($0.key.rawValue, JSONValue.string($0.value)) }))
        }
        if !deletedZones.isEmpty { object["deletedZones"] = .array(deletedZones.sorted().map { .string($0.rawValue) }) }
        if let inFlight {
            object["inFlight"] = .object([
                "zone": .string(inFlight.zone.rawValue), "seq": .int(inFlight.seq),
                "hlc": .string(inFlight.hlc.description), "outbox": .array(inFlight.outboxSeqs.map(JSONValue.int)),
            ])
        }
        return .object(object)
    }

    /// The serialization as the store keeps it.
    public var serialized: String { json.canonicalString }

    public init(serialized: String) throws {
        let json = try JSONValue(parsing: Data(serialized.utf8))
        guard case .object(let zoneObjects)? = json["zones"] else {
            throw CloudError(.internalError, "the saved sync state is damaged (no zones)")
        }
        containerID = json["containerID"]?.stringValue
        containerRestored = json["containerRestored"]?.stringValue
        deviceID = json["deviceID"]?.stringValue.flatMap(DeviceID.init)
        rotatedFrom = (json["rotatedFrom"]?.arrayValue ?? []).compactMap { $0.stringValue.flatMap(DeviceID.init) }
        lastSync = json["lastSync"]?.intValue
        deviceFileWritten = json["deviceFileWritten"]?.intValue
        // Times and seqs out of range are damage, not values to compute with (ARCHITECTURE §7).
        guard [lastSync, deviceFileWritten].allSatisfy({ $0.map(DeviceInfo.timeRange.contains) ?? true }) else {
            throw CloudError(.internalError, "the saved sync state is damaged (a time)")
        }
        warnings = (json["warnings"]?.arrayValue ?? []).compactMap(\.stringValue)
        lastError = LastError(json: json["lastError"])
        if case .object(let held)? = json["held"] { self.held = held.compactMapValues(\.stringValue) }
        waiting = (json["waiting"]?.arrayValue ?? []).compactMap(Waiting.init(json:))
        if case .object(let names)? = json["deviceNames"] {
            for (id, name) in names {
                if let id = DeviceID(id), let name = name.stringValue { deviceNames[id] = name }
            }
        }
        deletedZones = Set((json["deletedZones"]?.arrayValue ?? []).compactMap { $0.stringValue.flatMap(ZoneID.init) })
        for (name, value) in zoneObjects {
            guard let zone = ZoneID(name) else {
                throw CloudError(.internalError, "the saved sync state is damaged (zone \(name))")
            }
            zones[zone] = try Zone(json: value)
        }
        if let flight = json["inFlight"] {
            guard let zone = flight["zone"]?.stringValue.flatMap(ZoneID.init), let seq = flight["seq"]?.intValue,
                let hlc = flight["hlc"]?.stringValue.flatMap(HLC.init), let outbox = flight["outbox"]?.arrayValue
            else { throw CloudError(.internalError, "the saved sync state is damaged (in-flight batch)") }
            let outboxSeqs = outbox.compactMap(\.intValue)
            guard seq >= 1, ChangeToken.seqRange.contains(seq), outboxSeqs.allSatisfy({ $0 >= 1 }) else {
                throw CloudError(.internalError, "the saved sync state is damaged (in-flight seqs)")
            }
            inFlight = InFlight(zone: zone, seq: seq, hlc: hlc, outboxSeqs: outboxSeqs)
        }
    }
}
