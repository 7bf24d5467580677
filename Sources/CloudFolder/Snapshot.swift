import NotesCore

/// A zone's state as of a change token, written by any device (SYNC-FORMAT rule 11).
///
/// File `snapshots/<dev>-<seq>.json`, write-once; the envelope's seq is the writer's own log
/// seq when it wrote it (so one device's snapshots sort in order), the body
/// `{covers: <change token>, state: <the engine's JSON>}`. What `state` holds (heads, their
/// common ancestors, tombstones within retention) is the sync engine's business.
public struct Snapshot: Sendable, Equatable {
    public var device: DeviceID
    public var seq: Int64
    public var hlc: HLC
    /// The version vector the state includes.
    public var covers: ChangeToken
    public var state: JSONValue

    public init(device: DeviceID, seq: Int64, hlc: HLC, covers: ChangeToken, state: JSONValue) {
        self.device = device
        self.seq = seq
        self.hlc = hlc
        self.covers = covers
        self.state = state
    }

    func envelope(zone: ZoneID) -> Envelope {
        var envelope = Envelope(
            kind: .snapshot, zone: zone.rawValue, device: device.rawValue, seq: seq, hlc: hlc,
            body: .object(["covers": covers.json, "state": state]))
        // Rule 15: a snapshot naming attachments is format 3, as a log file is.
        let records = state["revisions"]?.arrayValue ?? []
        if records.contains(where: ChangeRecord.isHistoryWithoutContent) {
            envelope.format = Envelope.snapshotHistoryFormat
        } else if records.contains(where: ChangeRecord.needsFormat3) {
            envelope.format = Envelope.attachmentsFormat
        }
        return envelope
    }

    init(envelope: Envelope, device: DeviceID) throws {
        guard let covers = envelope.body["covers"], let state = envelope.body["state"] else {
            throw CloudError(.invalidArguments, "a snapshot body needs covers and state")
        }
        self.init(
            device: device, seq: envelope.seq, hlc: envelope.hlc, covers: try ChangeToken(json: covers), state: state)
    }
}
