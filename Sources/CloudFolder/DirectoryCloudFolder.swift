import NotesCore

/// A `CloudFolder` in a directory, over a `FileIO` (SYNC-FORMAT rules 1, 2, 12).
///
/// Containers, zones and device files live here; publication and fetch are in
/// `DirectoryCloudFolder+Publish.swift` and `+Fetch.swift`. Nothing that could create files runs
/// before `container.json` has been seen, so an unmounted folder (an empty directory where it
/// was) is never written to.
public struct DirectoryCloudFolder: CloudFolder {
    /// Read caps: a log file holds at most 2 MB of body plus its envelope; other files are small.
    public static let maxLogFileBytes = 3 * 1_048_576
    public static let maxSmallFileBytes = 1_048_576

    public let layout: CloudLayout
    public let io: any FileIO
    /// The seal of an encrypted container (SYNC-FORMAT rule 14); nil for a plain one.
    public internal(set) var seal: FolderSeal?
    /// Where this device keeps attachment content (rule 15); the engine sets its store's.
    public var attachments: (any AttachmentContent)?
    /// Set on a bucket's folder scoped to one sync pass: what it has seen there (`PassSightings`).
    var sightings: PassSightings?
    /// Set on the folder of a shared place (SYNC-FORMAT rule 20): the membership its files are
    /// signed and checked against; `seal` is then its epoch keys'. Each pass takes up the
    /// membership as it stands (`followingMembership`).
    public internal(set) var sharing: SharedAccess?

    public init(root: String, io: any FileIO = PosixFileIO(), seal: FolderSeal? = nil) {
        self.layout = CloudLayout(root: root, zoneNames: seal)
        self.io = io
        self.seal = seal
        self.sharing = nil
    }

    /// The folder of a shared place: sealed with its epoch keys (key n is epoch n's), every file
    /// signed, zone folders named by their ids (which say nothing: `s-<share>`).
    public init(sharedPlace root: String, io: any FileIO, seal: FolderSeal, sharing: SharedAccess) {
        self.layout = CloudLayout(root: root, zoneNames: nil)
        self.io = io
        self.seal = seal
        self.sharing = sharing
    }

    // MARK: Container (rule 12)

    /// With a seal, the container is the encrypted one the seal's keys are derived for.
    public func createContainer(device: DeviceID, hlc: HLC) throws -> ContainerInfo {
        try createContainer(device: device, hlc: hlc, encrypted: seal != nil, id: seal?.containerID)
    }

    /// Creates a container, encrypted or plain, in an empty folder (rule 12). An encrypted one's
    /// `container.json` is written in format 2 (rule 14); its keys file comes next (`publishKeys`).
    /// `restoring`: the same container id again, stamped as restored by `device` at `hlc`
    /// (`sync init --restore`, SYNC-FORMAT "Restoring an emptied folder").
    public func createContainer(
        device: DeviceID, hlc: HLC, encrypted: Bool, id: String? = nil, restoring: Bool = false
    ) throws -> ContainerInfo {
        let names: [String]
        do {
            names = try io.list(layout.root)
        } catch let error as CloudError where error.code == .unknownItem {
            throw CloudError(.accountTemporarilyUnavailable, "the cloud folder does not exist", path: layout.root)
        }
        let content = names.filter { !Self.mayBeInAnEmptyFolder($0) }
        guard content.isEmpty else {
            throw CloudError(
                .badContainer,
                "a container is created only in an empty folder; this one holds \(content.count) item(s)",
                path: layout.root)
        }
        var info = ContainerInfo.random(encrypted: encrypted)
        if let id { info.containerID = id }
        if restoring { info.restored = "\(device)-\(hlc)" }
        try publishContainerFile(info, device: device, hlc: hlc)
        return info
    }

    /// Writes `container.json` (write-once) for `info`.
    func publishContainerFile(_ info: ContainerInfo, device: DeviceID, hlc: HLC) throws {
        var envelope = Envelope(kind: .container, device: device.rawValue, hlc: hlc, body: info.json)
        envelope.format = info.version
        _ = try publishOnce(envelope.encoded, at: layout.containerFile, device: device)
    }

    public func openContainer(boundTo: String?) throws -> ContainerInfo {
        let info = try readContainer(boundTo: boundTo)
        if info.encrypted, seal == nil {
            throw CloudError(
                .notAuthenticated,
                "the cloud folder is encrypted and this device has no key for it: set CLOUDNOTES_PASSPHRASE "
                    + "or a passphraseCommand, or run it in a terminal to be asked; nothing was written",
                path: layout.root)
        }
        if let seal, info.encrypted, seal.containerID != info.containerID {
            throw CloudError(
                .badContainer,
                "the cloud folder holds container \(info.containerID), not the encrypted container \(seal.containerID) "
                    + "this device holds a key for; nothing was written",
                path: layout.root)
        }
        if !info.encrypted, seal != nil {
            throw CloudError(
                .badContainer,
                "the cloud folder is not encrypted, but this device holds a key for an encrypted one; nothing was written",
                path: layout.root)
        }
        // A key started on another device (`sync passphrase --new-key`, rule 14): nothing more
        // is written with the old one, which whoever kept it could read. One listing of `keys/`
        // per pass (its one file read).
        if let seal, info.encrypted, sharing == nil, let inForce = try readKeysFiles().files.map(\.keyCount).max(),
            inForce > seal.keyNumber
        {
            throw keyChanged(inForce, held: seal.keyNumber)
        }
        // A moved container is written at its new place only (SYNC-FORMAT "Moving"): an engine
        // that started before the move stops here, and its device follows when it starts again.
        // A bucket's pass does not ask (a request per pass, S3's budget): what a running engine
        // publishes there meanwhile is copied along when its device follows.
        if sightings == nil, case .valid(let pointer) = readForwardPointer(containerID: info.containerID) {
            throw CloudError(
                .accountTemporarilyUnavailable,
                "the cloud folder moved to \(pointer.place) (its moved.json says so); nothing is written here any "
                    + "more: sync again, or restart the app, to follow it",
                path: layout.root)
        }
        return info
    }

    /// `container.json`'s bytes (nil when absent); anything but a small file there is not ours.
    func readContainerBytes() throws -> [UInt8]? {
        do {
            return try io.readIfPresent(layout.containerFile, maxBytes: Self.maxSmallFileBytes)
        } catch let error as CloudError where [.invalidArguments, .limitExceeded].contains(error.code) {
            throw CloudError(.badContainer, "container.json is not a file of ours: \(error.message)", path: error.path)
        }
    }

    /// `container.json` as it is, whether or not this folder can open an encrypted container.
    public func readContainer(boundTo: String?) throws -> ContainerInfo {
        if let sharing { return try readSharedContainer(sharing) }
        let bytes = try readContainerBytes()
        guard let bytes else {
            if boundTo != nil {
                if isEmptied() {
                    throw CloudError(
                        .accountTemporarilyUnavailable,
                        "the cloud folder is empty: container.json and every other file are gone (the folder or "
                            + "bucket was emptied, or a disk is not mounted); nothing was created",
                        path: layout.containerFile)
                }
                throw CloudError(
                    .accountTemporarilyUnavailable,
                    "container.json is missing (folder unmounted, evicted or not synced yet); nothing was created",
                    path: layout.containerFile)
            }
            throw CloudError(.unknownItem, "no container in this folder yet", path: layout.containerFile)
        }
        switch Envelope.verify(bytes, expecting: .init(kind: .container)) {
        case .valid(let envelope):
            let info = try ContainerInfo(json: envelope.body)
            sightings?.recordContainer()
            return info
        case .unsupportedFormat(Self.encryptedInPlaceFormat) where encryptedContainerID() != nil:
            throw CloudError(
                .incompatibleVersion,
                "this cloud folder was encrypted in place (sync encrypt): its notes are in the encrypted container in "
                    + "its \(Self.sealedFolderName) folder; sync with the passphrase ($CLOUDNOTES_PASSPHRASE, "
                    + "passphraseCommand or a terminal) to move there")
        case .unsupportedFormat(let format):
            throw CloudError(
                .incompatibleVersion,
                "the folder uses format \(format); this build reads formats 1 to \(Envelope.supportedFormats.upperBound)"
            )
        case .notArrivedYet(let reason):
            throw CloudError(
                .accountTemporarilyUnavailable, "container.json has not fully arrived: \(reason)",
                path: layout.containerFile)
        }
    }

    /// Throws `accountTemporarilyUnavailable` unless `container.json` is a regular file: called
    /// before anything that creates files and before a fetch (an unmounted folder must not read
    /// as "every zone deleted"). A bucket's folder scoped to a pass asks once in it, unless
    /// `again` (`PassSightings`).
    func requireContainer(again: Bool = false) throws {
        if !again, let sightings, sightings.hasSeenContainer { return }
        let kind: FileKind?
        do {
            kind = try io.kind(layout.containerFile)
        } catch let error as CloudError where [.unknownItem, .invalidArguments].contains(error.code) {
            kind = nil
        }
        guard case .regular = kind else {
            throw CloudError(
                .accountTemporarilyUnavailable, "container.json is missing; nothing was created",
                path: layout.containerFile)
        }
        sightings?.recordContainer()
    }

    /// On a bucket, a copy that checks for `container.json` once until the pass ends; a
    /// directory's folder checks before every call (`PassSightings`).
    public var listingsAreRequests: Bool { io is any KeyListingFileIO }

    public func scopedToOnePass() -> any CloudFolder {
        var scoped = sharing.map(followingMembership) ?? self
        guard io is any KeyListingFileIO else { return scoped }
        scoped.sightings = PassSightings()
        return scoped
    }

    /// Whether the folder holds nothing a container leaves (missing, or only names that may be
    /// in an empty folder): an emptied folder or bucket, or a mount point with no disk on it.
    public func isEmptied() -> Bool {
        do {
            return try io.listIfPresent(layout.root).allSatisfy(Self.mayBeInAnEmptyFolder)
        } catch {
            return false
        }
    }

    /// Hidden files (`.stfolder`, `.DS_Store`, `.dropbox`) and Windows' `desktop.ini` do not
    /// make a folder non-empty.
    static func mayBeInAnEmptyFolder(_ name: String) -> Bool {
        name.hasPrefix(".") || name == "desktop.ini" || name == "Thumbs.db"
    }

    // MARK: Zones (rule 12)

    public func zones() throws -> Listing<ZoneID> {
        try requireContainer()
        var listing = Self.parse(try io.listIfPresent(layout.zonesDirectory), as: layout.zone(folderName:))
        // A bucket's listing may show a folder entry with no key under it (SeaweedFS keeps one
        // once its keys are deleted): no zone there, as on S3 (SYNC-FORMAT "On S3"), so a zone a
        // user deleted reads as gone (rule 12) on every server. One LIST per zone.
        if io is any KeyListingFileIO {
            listing.items = try listing.items.filter { try zoneIsThere($0) }
        }
        return listing
    }

    public func zoneStatus(_ zone: ZoneID) throws -> ZoneStatus {
        try requireContainer()
        guard try zoneIsThere(zone) else { return .missing }
        let deleters = try deletedBy(zone: zone)
        if !deleters.isEmpty { return .deleted(by: deleters) }
        return .present(try readZoneInfo(zone))
    }

    public func deletedBy(zone: ZoneID) throws -> [DeviceID] {
        try requireContainer()
        var deleters: [DeviceID] = []
        for name in try io.listIfPresent(layout.deletedDirectory(zone)) {
            guard let (device, hlc) = CloudName.deletedMarker(name),
                // A deletion marker that cannot be read counts as absent: the zone stays.
                let bytes = try? readOpened(
                    layout.deletedMarker(zone, device: device, hlc: hlc), maxBytes: Self.maxSmallFileBytes),
                case .valid = Envelope.verify(
                    bytes, expecting: .init(kind: .deleted, zone: zone.rawValue, device: device.rawValue))
            else { continue }
            deleters.append(device)
        }
        return deleters.sorted()
    }

    /// Whether the zone's folder is there; on a bucket scoped to a pass, a zone `zones()` found
    /// there in the pass is not asked for again (`PassSightings`).
    func zoneIsThere(_ zone: ZoneID) throws -> Bool {
        if let sightings, sightings.hasSeen(zone) { return true }
        guard try io.isFolder(layout.zoneDirectory(zone)) else { return false }
        sightings?.record(zone)
        return true
    }

    public func createZone(_ info: ZoneInfo, hlc: HLC) throws -> ZoneInfo {
        try requireContainer(again: true)
        for folder in [layout.privateDirectory, layout.zonesDirectory, layout.zoneDirectory(info.zone)] {
            try io.ensureDirectory(folder)
        }
        let envelope = Envelope(
            kind: .zone, zone: info.zone.rawValue, device: info.createdBy.rawValue, hlc: hlc, body: info.json)
        do {
            _ = try publishOnce(envelope.encoded, at: layout.zoneFile(info.zone), device: info.createdBy)
            return info
        } catch let error as CloudError where error.code == .serverRecordChanged {
            // Another device created the same zone: its zone.json stands (write-once).
            return try readZoneInfo(info.zone) ?? info
        }
    }

    public func markZoneDeleted(_ zone: ZoneID, device: DeviceID, hlc: HLC) throws {
        try requireContainer()
        guard try io.isFolder(layout.zoneDirectory(zone)) else {
            throw CloudError(.zoneNotFound, "zone \(zone) is not in the cloud folder")
        }
        try io.ensureDirectory(layout.deletedDirectory(zone))
        let envelope = Envelope(
            kind: .deleted, zone: zone.rawValue, device: device.rawValue, hlc: hlc,
            body: .object(["zone": .string(zone.rawValue)]))
        _ = try publishOnce(envelope.encoded, at: layout.deletedMarker(zone, device: device, hlc: hlc), device: device)
    }

    func readZoneInfo(_ zone: ZoneID) throws -> ZoneInfo? {
        // An unreadable zone file gives no info (nil): callers treat the zone as unnamed, never delete it.
        guard let bytes = try? readOpened(layout.zoneFile(zone), maxBytes: Self.maxSmallFileBytes),
            case .valid(let envelope) = Envelope.verify(bytes, expecting: .init(kind: .zone, zone: zone.rawValue))
        else { return nil }
        return try? ZoneInfo(json: envelope.body)
    }

    // MARK: Devices

    public func devices() throws -> Listing<DeviceID> {
        try requireContainer()
        return Self.parse(try io.listIfPresent(layout.devicesDirectory), as: CloudName.deviceFile)
    }

    public func readDevice(_ device: DeviceID) throws -> DeviceInfo? {
        guard let bytes = try readOpened(layout.deviceFile(device), maxBytes: Self.maxSmallFileBytes),
            case .valid(let envelope) = Envelope.verify(bytes, expecting: .init(kind: .device, device: device.rawValue))
        else { return nil }
        // A device file whose body does not parse gives no info (nil), as an unreadable one.
        guard var info = try? DeviceInfo(json: envelope.body) else { return nil }
        // In a shared place, another person's device is named with them: "Bo · laptop".
        if let person = person(ofDeviceFile: layout.deviceFile(device)) { info.name = "\(person) · \(info.name)" }
        return info
    }

    public func writeDevice(_ info: DeviceInfo, device: DeviceID, hlc: HLC) throws {
        try requireContainer()
        try io.ensureDirectory(layout.privateDirectory)
        try io.ensureDirectory(layout.devicesDirectory)
        let envelope = Envelope(kind: .device, device: device.rawValue, hlc: hlc, body: info.json)
        let path = layout.deviceFile(device)
        try io.writeAtomically(sealed(envelope.encoded, at: path), to: path, device: device)
    }

    static func parse<Item>(_ names: [String], as parse: (String) -> Item?) -> Listing<Item> {
        var items: [Item] = []
        var ignored: [String] = []
        for name in names.sorted() {
            if let item = parse(name) { items.append(item) } else { ignored.append(name) }
        }
        return Listing(items: items, ignored: ignored)
    }
}
