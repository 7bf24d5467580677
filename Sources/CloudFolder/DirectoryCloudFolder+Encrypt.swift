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

    /// What `encrypted.json` says: the encrypted container's id (in `sealed/`).
    public func encryptedContainerID() -> String? {
        guard
            let bytes = try? io.readIfPresent(layout.root + "/" + Self.encryptedFileName, maxBytes: Self.maxMovedBytes),
            let object = try? JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any],
            object["sealedIn"] as? String == Self.sealedFolderName, let id = object["containerID"] as? String,
            UUID(uuidString: id) != nil
        else { return nil }
        return id.lowercased()
    }

    /// Writes `encrypted.json` (`{"containerID": "…", "sealedIn": "sealed"}`) at the root, once.
    public func writeEncryptedPointer(containerID: String, device: DeviceID) throws {
        let bytes = try JSONSerialization.data(
            withJSONObject: ["containerID": containerID, "sealedIn": Self.sealedFolderName], options: [.sortedKeys])
        let path = layout.root + "/" + Self.encryptedFileName
        if try io.readIfPresent(path, maxBytes: Self.maxMovedBytes) != nil { return }
        try io.writeAtomically(Array(bytes), to: path, device: device)
    }

    /// Writes `encrypted/<dev>.json`: this device syncs with the encrypted container now.
    public func markMovedToSealed(device: DeviceID, hlc: HLC) throws {
        let folder = layout.root + "/" + Self.movedDevicesFolderName
        try io.ensureDirectory(folder)
        let path = folder + "/\(device).json"
        if try io.readIfPresent(path, maxBytes: Self.maxMovedBytes) != nil { return }
        let bytes = try JSONSerialization.data(withJSONObject: ["movedAt": hlc.millis], options: [.sortedKeys])
        try io.writeAtomically(Array(bytes), to: path, device: device)
    }

    /// The devices of the plain container that count as active (`lastSeen` within
    /// `inactiveAfter` of `now`, or a device file that does not check out) and have not moved.
    public func devicesNotMovedToSealed(now: Int64, inactiveAfter: Int64) throws -> [DeviceID] {
        let moved = Set(
            try io.listIfPresent(layout.root + "/" + Self.movedDevicesFolderName).compactMap { name in
                name.hasSuffix(".json") ? DeviceID(String(name.dropLast(5))) : nil
            })
        var waiting: [DeviceID] = []
        for device in try devices().items where !moved.contains(device) {
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
