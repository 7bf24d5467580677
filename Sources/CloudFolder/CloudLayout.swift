import NotesCore

/// Where each file of the cloud folder lives (the layout of SYNC-FORMAT, format v1).
///
/// ```
/// container.json
/// private/devices/<dev>.json
/// private/zones/<zone>/zone.json
/// private/zones/<zone>/deleted/<dev>-<hlc>.json
/// private/zones/<zone>/names/<dev>-<hlc>.json
/// private/settings/<dev>-<hlc>.json
/// private/zones/<zone>/log/<dev>/<seg>/<seq>.json      seg = seq / 1024
/// private/zones/<zone>/snapshots/<dev>-<seq>.json
/// ```
/// Numbers are zero-padded to 12 digits so name order is numeric order. Paths are built only
/// from validated ids (`DeviceID`, `ZoneID`) and numbers; names read back are parsed by
/// `CloudName`.
public struct CloudLayout: Sendable, Equatable {
    /// The device file (`private/devices/<dev>.json`) is the one file rewritten (SYNC-FORMAT
    /// rule 1's exception); every other path is write-once, and publishing it refuses an
    /// existing file (`PosixFileIO.rename`, `S3FileIO.rename`).
    public static func isRewritable(_ path: String) -> Bool {
        let parts = path.split(separator: "/")
        return parts.count >= 3 && parts[parts.count - 3] == "private" && parts[parts.count - 2] == "devices"
            && parts[parts.count - 1].hasSuffix(".json")
    }

    public static let segmentSize: Int64 = 1024
    public static let numberWidth = 12
    /// The largest seq a name can carry (12 digits). A seq read from a file body (an envelope, a
    /// change token) above it is refused, so `seq + 1` can never overflow.
    public static let maxSeq: Int64 = 999_999_999_999

    /// The cloud folder, an absolute path without a trailing slash.
    public let root: String
    /// An encrypted container's zone folders have opaque names (SYNC-FORMAT rule 14).
    public let zoneNames: FolderSeal?

    public init(root: String, zoneNames: FolderSeal? = nil) {
        var root = root
        while root.count > 1 && root.hasSuffix("/") { root.removeLast() }
        self.root = root
        self.zoneNames = zoneNames
    }

    public var containerFile: String { root + "/container.json" }
    /// The keys files of an encrypted container (rule 14): `keys/<generation>.json`.
    public var keysDirectory: String { root + "/keys" }
    public func keysFile(generation: Int64) -> String { keysDirectory + "/" + Self.padded(generation) + ".json" }
    public var privateDirectory: String { root + "/private" }
    public var devicesDirectory: String { privateDirectory + "/devices" }
    public var zonesDirectory: String { privateDirectory + "/zones" }
    /// Settings that follow the person (SYNC-FORMAT "Settings"): `private/settings/<dev>-<hlc>.json`.
    public var settingsDirectory: String { privateDirectory + "/settings" }
    public func settingFile(device: DeviceID, hlc: HLC) -> String { settingsDirectory + "/\(device)-\(hlc).json" }

    public func deviceFile(_ device: DeviceID) -> String { devicesDirectory + "/\(device).json" }
    public func zoneDirectory(_ zone: ZoneID) -> String { zonesDirectory + "/" + zoneFolderName(zone) }
    /// The name of a zone's folder: the zone id, or its opaque name in an encrypted container.
    public func zoneFolderName(_ zone: ZoneID) -> String { zoneNames?.folderName(zone) ?? zone.rawValue }
    /// The zone a folder name in `private/zones` stands for; nil for names that are not one.
    public func zone(folderName: String) -> ZoneID? {
        guard let zoneNames else { return ZoneID(folderName) }
        return zoneNames.zone(folderName: folderName)
    }
    public func zoneFile(_ zone: ZoneID) -> String { zoneDirectory(zone) + "/zone.json" }
    public func deletedDirectory(_ zone: ZoneID) -> String { zoneDirectory(zone) + "/deleted" }
    public func deletedMarker(_ zone: ZoneID, device: DeviceID, hlc: HLC) -> String {
        deletedDirectory(zone) + "/\(device)-\(hlc).json"
    }
    public func namesDirectory(_ zone: ZoneID) -> String { zoneDirectory(zone) + "/names" }
    public func nameFile(_ zone: ZoneID, device: DeviceID, hlc: HLC) -> String {
        namesDirectory(zone) + "/\(device)-\(hlc).json"
    }
    public func logDirectory(_ zone: ZoneID) -> String { zoneDirectory(zone) + "/log" }
    public func deviceLogDirectory(_ zone: ZoneID, device: DeviceID) -> String { logDirectory(zone) + "/\(device)" }
    public func segmentDirectory(_ zone: ZoneID, device: DeviceID, seq: Int64) -> String {
        deviceLogDirectory(zone, device: device) + "/" + Self.padded(Self.segment(of: seq))
    }
    public func logFile(_ zone: ZoneID, device: DeviceID, seq: Int64) -> String {
        segmentDirectory(zone, device: device, seq: seq) + "/" + Self.padded(seq) + ".json"
    }
    public func snapshotsDirectory(_ zone: ZoneID) -> String { zoneDirectory(zone) + "/snapshots" }
    public func snapshotFile(_ zone: ZoneID, device: DeviceID, seq: Int64) -> String {
        snapshotsDirectory(zone) + "/\(device)-\(Self.padded(seq)).json"
    }

    /// The segment folder a seq lives in.
    public static func segment(of seq: Int64) -> Int64 { seq / segmentSize }

    /// A number zero-padded to 12 digits.
    public static func padded(_ number: Int64) -> String {
        let digits = String(number)
        return String(repeating: "0", count: max(0, numberWidth - digits.count)) + digits
    }

    /// The temp name of SYNC-FORMAT rule 2: `.<name>.tmp-<dev>-<random>`, in the target folder.
    public static func temporaryName(for name: String, device: DeviceID) -> String {
        var generator = SystemRandomNumberGenerator()
        let random = String(generator.next() as UInt64, radix: 16)
        return ".\(name).tmp-\(device)-\(random)"
    }
}
