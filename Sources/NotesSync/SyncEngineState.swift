import CloudFolder
import Foundation
import NotesCore

/// The engine's state serialization, CKSyncEngine's `State.Serialization` (DESIGN §2 `sync_state`).
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

        public init(token: ChangeToken = .empty, published: Int64 = 0) {
            self.token = token
            self.published = published
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

    public init() {}

    public var json: JSONValue {
        var object: [String: JSONValue] = [
            "zones": .object(
                Dictionary(
                    uniqueKeysWithValues: zones.map { zone, state in
                        (
                            zone.rawValue,
                            JSONValue.object(["token": state.token.json, "published": .int(state.published)])
                        )
                    }))
        ]
        if let containerID { object["containerID"] = .string(containerID) }
        if let lastSync { object["lastSync"] = .int(lastSync) }
        if let deviceFileWritten { object["deviceFileWritten"] = .int(deviceFileWritten) }
        if !warnings.isEmpty { object["warnings"] = .array(warnings.map(JSONValue.string)) }
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
        lastSync = json["lastSync"]?.intValue
        deviceFileWritten = json["deviceFileWritten"]?.intValue
        warnings = (json["warnings"]?.arrayValue ?? []).compactMap(\.stringValue)
        deletedZones = Set((json["deletedZones"]?.arrayValue ?? []).compactMap { $0.stringValue.flatMap(ZoneID.init) })
        for (name, value) in zoneObjects {
            guard let zone = ZoneID(name), let token = value["token"], let published = value["published"]?.intValue
            else { throw CloudError(.internalError, "the saved sync state is damaged (zone \(name))") }
            zones[zone] = Zone(token: try ChangeToken(json: token), published: published)
        }
        if let flight = json["inFlight"] {
            guard let zone = flight["zone"]?.stringValue.flatMap(ZoneID.init), let seq = flight["seq"]?.intValue,
                let hlc = flight["hlc"]?.stringValue.flatMap(HLC.init), let outbox = flight["outbox"]?.arrayValue
            else { throw CloudError(.internalError, "the saved sync state is damaged (in-flight batch)") }
            inFlight = InFlight(zone: zone, seq: seq, hlc: hlc, outboxSeqs: outbox.compactMap(\.intValue))
        }
    }
}
