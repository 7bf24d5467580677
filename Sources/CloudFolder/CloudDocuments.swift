import Foundation
import NotesCore

/// The body of `container.json`: which cloud account a folder is (SYNC-FORMAT rule 12).
public struct ContainerInfo: Sendable, Equatable {
    public var containerID: String
    public var version: Int64
    /// An encrypted container (SYNC-FORMAT rule 14): its files are sealed with the data key
    /// its keys files wrap.
    public var encrypted: Bool
    /// Set when `sync init --restore` re-created the container after its folder was emptied:
    /// who restored it and when (`<dev>-<hlc>`). Devices that synced with another incarnation
    /// send everything they hold again (SYNC-FORMAT "Restoring an emptied folder").
    public var restored: String?

    /// The scheme an encrypted container names in its `container.json`.
    public static let encryptionScheme = "scrypt+chacha20poly1305"

    public init(containerID: String, version: Int64 = Envelope.currentFormat, encrypted: Bool = false) {
        self.containerID = containerID
        self.version = version
        self.encrypted = encrypted
    }

    public var json: JSONValue {
        var fields: [String: JSONValue] = ["containerID": .string(containerID), "version": .int(version)]
        if encrypted { fields["encryption"] = .string(Self.encryptionScheme) }
        if let restored { fields["restored"] = .string(restored) }
        return .object(fields)
    }

    public init(json: JSONValue) throws {
        guard let id = json["containerID"]?.stringValue, !id.isEmpty, let version = json["version"]?.intValue else {
            throw CloudError(.badContainer, "container.json has no containerID")
        }
        let encryption = json["encryption"]?.stringValue
        if let encryption, encryption != Self.encryptionScheme {
            throw CloudError(
                .incompatibleVersion, "the folder is encrypted with \(encryption), which this build does not know")
        }
        self.init(containerID: id, version: version, encrypted: encryption != nil)
        if let restored = json["restored"] {
            guard let stamp = restored.stringValue, CloudName.deletedMarker(stamp + ".json") != nil else {
                throw CloudError(.badContainer, "container.json's restored stamp is malformed")
            }
            self.restored = stamp
        }
    }

    /// A new random container id (a lowercase UUID).
    public static func random(encrypted: Bool = false) -> ContainerInfo {
        ContainerInfo(
            containerID: UUID().lowercasedString,
            version: encrypted ? Envelope.encryptedFormat : Envelope.currentFormat,
            encrypted: encrypted)
    }
}

/// The body of `private/devices/<dev>.json`, the one file its owner rewrites.
public struct DeviceInfo: Sendable, Equatable {
    public var name: String
    /// Milliseconds since 1970.
    public var lastSeen: Int64
    /// Per zone, the change token this device has read and applied.
    public var acknowledged: [ZoneID: ChangeToken]
    /// Per zone, the seq through which this device's own log files may have been deleted by
    /// compaction (rule 11), for people and other programs; absent: 0. Readers do not rely on
    /// it (a replicator may put an old device file back): they go by snapshot names.
    public var pruned: [ZoneID: Int64]
    /// Chunks this device's records wait for (missing or damaged, rule 15), sorted, at most
    /// `maxWaitingFor`: how the devices that wrote them learn it (`sync status`, the app).
    public var waitingFor: [String]
    /// At most this many chunk names are announced (and read) per device file.
    public static let maxWaitingFor = 64

    /// Times (ms since 1970) a reader accepts: a note's (`RevisionFields.timeRange`, years 0001
    /// through 9999), which ISO 8601 prints and a Double holds exactly, so `now - lastSeen`
    /// cannot overflow (ARCHITECTURE §7).
    public static let timeRange = RevisionFields.timeRange

    public init(
        name: String, lastSeen: Int64, acknowledged: [ZoneID: ChangeToken] = [:], pruned: [ZoneID: Int64] = [:],
        waitingFor: [String] = []
    ) {
        self.name = name
        self.lastSeen = lastSeen
        self.acknowledged = acknowledged
        self.pruned = pruned.filter { $0.value > 0 }
        self.waitingFor = Array(Set(waitingFor.filter(AssetRef.isChunkName)).sorted().prefix(Self.maxWaitingFor))
    }

    public var json: JSONValue {
        var object: [String: JSONValue] = [
            "name": .string(name), "lastSeen": .int(lastSeen),
            "acknowledged": .object(
                Dictionary(uniqueKeysWithValues: acknowledged.map { ($0.key.rawValue, $0.value.json) })),
        ]
        // Only written once something was pruned, so older readers see the file they know.
        if !pruned.isEmpty {
            object["pruned"] = .object(
                Dictionary(uniqueKeysWithValues: pruned.map { ($0.key.rawValue, .int($0.value)) }))
        }
        // Likewise only while something waits; older readers ignore the key.
        if !waitingFor.isEmpty { object["waitingFor"] = .array(waitingFor.map(JSONValue.string)) }
        return .object(object)
    }

    public init(json: JSONValue) throws {
        guard let name = json["name"]?.stringValue, let lastSeen = json["lastSeen"]?.intValue,
            Self.timeRange.contains(lastSeen), case .object(let tokens)? = json["acknowledged"]
        else { throw CloudError(.invalidArguments, "a device file is malformed") }
        var acknowledged: [ZoneID: ChangeToken] = [:]
        for (key, value) in tokens {
            guard let zone = ZoneID(key) else { throw CloudError(.invalidArguments, "a device file names a bad zone") }
            acknowledged[zone] = try ChangeToken(json: value)
        }
        var pruned: [ZoneID: Int64] = [:]
        if let value = json["pruned"] {
            guard case .object(let floors) = value else {
                throw CloudError(.invalidArguments, "a device file's pruned entry is malformed")
            }
            for (key, value) in floors {
                guard let zone = ZoneID(key), let seq = value.intValue, ChangeToken.seqRange.contains(seq) else {
                    throw CloudError(.invalidArguments, "a device file's pruned entry is malformed")
                }
                pruned[zone] = seq
            }
        }
        // Names that are not chunk names are ignored (they name nothing a device could write).
        let waiting = (json["waitingFor"]?.arrayValue ?? []).prefix(Self.maxWaitingFor).compactMap(\.stringValue)
        self.init(name: name, lastSeen: lastSeen, acknowledged: acknowledged, pruned: pruned, waitingFor: waiting)
    }
}

/// The body of `zone.json`.
public struct ZoneInfo: Sendable, Equatable {
    public var zone: ZoneID
    public var displayName: String
    public var createdBy: DeviceID

    public init(zone: ZoneID, displayName: String, createdBy: DeviceID) {
        self.zone = zone
        self.displayName = displayName
        self.createdBy = createdBy
    }

    public var json: JSONValue {
        .object([
            "zone": .string(zone.rawValue), "displayName": .string(displayName),
            "createdBy": .string(createdBy.rawValue),
        ])
    }

    public init(json: JSONValue) throws {
        guard let zone = json["zone"]?.stringValue.flatMap(ZoneID.init), let name = json["displayName"]?.stringValue,
            let createdBy = json["createdBy"]?.stringValue.flatMap(DeviceID.init)
        else { throw CloudError(.invalidArguments, "zone.json is malformed") }
        self.init(zone: zone, displayName: name, createdBy: createdBy)
    }
}
