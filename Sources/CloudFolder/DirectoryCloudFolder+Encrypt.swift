import Foundation
import NotesCore

/// Encrypting a plain container in place (`cloudnotes sync encrypt`, SYNC-FORMAT "Encrypting in
/// place"): an encrypted container in the root's `sealed/` folder, `encrypted.json` at the root
/// saying so, a write-once `encrypted/<dev>.json` per device that moved, and the plain files
/// removed once every active device has moved.
extension DirectoryCloudFolder {
    /// The pointer file's name at the root.
    public static let encryptedFileName = "encrypted.json"
    /// The folder under the root holding the encrypted container.
    public static let sealedFolderName = "sealed"
    /// The folder under the root holding one marker per device that moved.
    public static let movedDevicesFolderName = "encrypted"

    /// What `encrypted.json` says: the encrypted container's id (in `sealed/`), or nil when
    /// there is none or it does not check out (`encryptedPointer(in:)`).
    public func encryptedContainerID() -> String? {
        guard case .valid(let id) = encryptedPointerState() else { return nil }
        return id
    }

    /// What is at the root's `encrypted.json`.
    public enum PointerState: Sendable, Equatable {
        case absent
        case valid(containerID: String)
        /// There, but not a pointer of ours: ignored, and named in a warning.
        case refused
    }

    public func encryptedPointerState() -> PointerState {
        let path = layout.root + "/" + Self.encryptedFileName
        let read: [UInt8]?
        do {
            read = try io.readIfPresent(path, maxBytes: Self.maxMovedBytes)
        } catch {
            return .refused  // too big, a symlink, or not a file: not a pointer of ours
        }
        guard let bytes = read else { return .absent }
        return Self.encryptedPointer(in: bytes).map { .valid(containerID: $0) } ?? .refused
    }

    /// The container id an `encrypted.json` names: its bytes must be the canonical JSON
    /// (strict parser, SYNC-FORMAT "Envelope") of exactly `{"containerID": "<lowercase uuid>",
    /// "sealedIn": "sealed"}`; anything else is refused.
    public static func encryptedPointer(in bytes: [UInt8]) -> String? {
        guard let json = try? JSONValue(parsing: Data(bytes)), case .object(let fields) = json, fields.count == 2,
            fields["sealedIn"]?.stringValue == sealedFolderName, let id = fields["containerID"]?.stringValue,
            UUID(uuidString: id) != nil, id == id.lowercased(), json.canonicalBytes == bytes
        else { return nil }
        return id
    }

    /// Writes `encrypted.json` (`{"containerID": "…", "sealedIn": "sealed"}`, canonical) at the
    /// root, once.
    public func writeEncryptedPointer(containerID: String, device: DeviceID) throws {
        let bytes = Self.pointerBytes(containerID: containerID)
        let path = layout.root + "/" + Self.encryptedFileName
        if try io.readIfPresent(path, maxBytes: Self.maxMovedBytes) != nil { return }
        do {
            try io.writeAtomically(bytes, to: path, device: device)
        } catch let error as CloudError {
            // Another device encrypting at the same moment wrote it first: the same pointer is done.
            guard try io.readIfPresent(path, maxBytes: Self.maxMovedBytes) == bytes else { throw error }
        }
    }

    static func pointerBytes(containerID: String) -> [UInt8] {
        JSONValue.object(["containerID": .string(containerID), "sealedIn": .string(sealedFolderName)]).canonicalBytes
    }

    /// Writes `encrypted/<dev>.json` (`{"movedAt": <ms>}`, canonical): this device syncs with the
    /// encrypted container now. Its own marker that does not check out is written again.
    public func markMovedToSealed(device: DeviceID, hlc: HLC) throws {
        let folder = layout.root + "/" + Self.movedDevicesFolderName
        try io.ensureDirectory(folder)
        let path = folder + "/\(device).json"
        let existing: [UInt8]?
        do {
            existing = try io.readIfPresent(path, maxBytes: Self.maxMovedBytes)
        } catch let error as CloudError where [.invalidArguments, .limitExceeded].contains(error.code) {
            existing = []
        }
        if let existing {
            if Self.movedMarker(in: existing) != nil { return }
            // Its own file, damaged: removed first (every path but a device file is write-once).
            try io.remove(path)
        }
        let bytes = JSONValue.object(["movedAt": .int(hlc.millis)]).canonicalBytes
        try io.writeAtomically(bytes, to: path, device: device)
    }

    /// When an `encrypted/<dev>.json` says its device moved (ms): canonical JSON of exactly
    /// `{"movedAt": <ms in the HLC range>}`; nil otherwise.
    public static func movedMarker(in bytes: [UInt8]) -> Int64? {
        guard let json = try? JSONValue(parsing: Data(bytes)), case .object(let fields) = json, fields.count == 1,
            let millis = fields["movedAt"]?.intValue, (0...HLC.maxMillis).contains(millis),
            json.canonicalBytes == bytes
        else { return nil }
        return millis
    }

    /// The devices of the plain container that count as active (`lastSeen` within
    /// `inactiveAfter` of `now`, or a device file that does not check out) and have not moved.
    public func devicesNotMovedToSealed(now: Int64, inactiveAfter: Int64) throws -> [DeviceID] {
        // A marker counts only when it checks out: one that does not keeps the plain files.
        let folder = layout.root + "/" + Self.movedDevicesFolderName
        let moved = Set(
            try io.listIfPresent(folder).compactMap { name -> DeviceID? in
                guard name.hasSuffix(".json"), let device = DeviceID(String(name.dropLast(5))),
                    // A marker that cannot be read counts as absent: the plain files stay (never removed too soon).
                    let bytes = try? io.readIfPresent(folder + "/" + name, maxBytes: Self.maxMovedBytes),
                    Self.movedMarker(in: bytes) != nil
                else { return nil }
                return device
            })
        var waiting: [DeviceID] = []
        for device in try devices().items where !moved.contains(device) {
            // A device file that cannot be read counts the device as active: it is waited for.
            if let info = try? readDevice(device), now - info.lastSeen > inactiveAfter { continue }
            waiting.append(device)
        }
        return waiting
    }

    /// The format of the `container.json` left at the root once the plain files are gone: every
    /// build before it refuses the folder as newer ("format 5"), never reads it as empty.
    public static let encryptedInPlaceFormat: Int64 = 5

    /// Where the plain container stands: still there, gone (its files removed), or replaced by
    /// the format 5 `container.json` that says it was encrypted in place.
    public enum PlainContainerState: Sendable, Equatable { case present, removed, replaced }

    public func plainContainerState() throws -> PlainContainerState {
        guard let bytes = try io.readIfPresent(layout.containerFile, maxBytes: Self.maxSmallFileBytes) else {
            return .removed
        }
        if case .unsupportedFormat(Self.encryptedInPlaceFormat) = Envelope.verify(
            bytes, expecting: .init(kind: .container))
        {
            return .replaced
        }
        return .present
    }

    /// Writes the format 5 `container.json` (`{"containerID": "<encrypted one>", "encryptedIn":
    /// "sealed"}`) once the plain one is gone.
    public func writeEncryptedInPlaceContainer(containerID: String, device: DeviceID, hlc: HLC) throws {
        var envelope = Envelope(
            kind: .container, device: device.rawValue, hlc: hlc,
            body: .object(["containerID": .string(containerID), "encryptedIn": .string(Self.sealedFolderName)]))
        envelope.format = Self.encryptedInPlaceFormat
        if try io.readIfPresent(layout.containerFile, maxBytes: Self.maxSmallFileBytes) != nil { return }
        try io.writeAtomically(envelope.encoded, to: layout.containerFile, device: device)
    }

    /// Removes the plain container: `container.json` first (a device still bound then sees the
    /// folder unavailable, never its zones deleted, rule 12), then every regular file under
    /// `private/` and the folders that held them (a zone folder is named after its notebook, so
    /// none may stay). Returns how many files went.
    public func removePlainContainer() throws -> Int {
        var removed = 0
        if case .regular = try io.kind(layout.containerFile) {
            try io.remove(layout.containerFile)
            try io.fsyncDirectory(layout.root)
            removed += 1
        }
        return removed + (try removePlainFiles())
    }

    /// Removes every regular file under the plain container's `private/` and the folders that
    /// held them; also what a build before 0.16 left there (it removed files, not folders).
    /// Returns how many files went.
    @discardableResult
    public func removePlainFiles() throws -> Int {
        var removed = 0
        func walk(_ folder: String) throws {
            for name in try io.listIfPresent(folder) {
                let path = folder + "/" + name
                switch try io.kind(path) {
                case .directory:
                    try walk(path)
                    // Not empty only when something that is not a regular file stayed inside
                    // (never followed): the folder stays then, and nothing else is lost.
                    try? io.remove(path)
                case .regular:
                    try io.remove(path)
                    removed += 1
                default: continue
                }
            }
        }
        try walk(layout.privateDirectory)
        try? io.remove(layout.privateDirectory)  // as above
        return removed
    }
}
