import Foundation
import NotesCore

/// Moving a cloud folder to another place (`cloudnotes sync move`, SYNC-FORMAT "Moving"): every
/// file copied write-once with `container.json` last, then `moved.json` (a `ForwardPointer`) at
/// the old root, the old place otherwise untouched.
extension DirectoryCloudFolder {
    /// The pointer file's name at the root.
    public static let movedFileName = "moved.json"
    /// The most a `moved.json` may hold.
    static let maxMovedBytes = 4096

    var movedFile: String { layout.root + "/" + Self.movedFileName }

    /// Every regular file of the folder, as paths relative to its root, sorted. Hidden names
    /// (temp files, `.DS_Store`) are left out; symlinks and other non-files are never followed.
    public func relativeFiles() throws -> [String] {
        if let lister = io as? any KeyListingFileIO {
            let listed = try lister.listFiles(under: layout.root, startAfter: "")
            return listed.filter { !$0.split(separator: "/").contains { $0.hasPrefix(".") } }.sorted()
        }
        var files: [String] = []
        func walk(_ relative: String) throws {
            let folder = relative.isEmpty ? layout.root : layout.root + "/" + relative
            for name in try io.listIfPresent(folder).sorted() where !name.hasPrefix(".") {
                let child = relative.isEmpty ? name : relative + "/" + name
                switch try io.kind(layout.root + "/" + child) {
                case .directory: try walk(child)
                case .regular: files.append(child)
                default: continue
                }
            }
        }
        try walk("")
        return files
    }

    /// Whether a relative path is a device file, the one file its owner rewrites (rule 1).
    static func isDeviceFile(_ relative: String) -> Bool {
        relative.hasPrefix("private/devices/") && !relative.dropFirst(16).contains("/")
    }

    /// Refuses a place a move may not copy into: anything but an empty place, or a copy of
    /// `source` that a move cut short left there (every file there is the source's, byte for byte,
    /// device files aside, which their owners rewrite). Reads only.
    public func checkMoveTarget(from source: DirectoryCloudFolder, name: String) throws {
        let held = try relativeFiles().filter { !Self.mayBeInAnEmptyFolder(CloudPath.lastComponent(of: $0)) }
        guard !held.isEmpty else { return }
        let refusal = CloudError(
            .badContainer,
            "\(name) is not empty; a cloud folder moves only to an empty or new place, nothing was written")
        for relative in held {
            guard relative != Self.movedFileName,
                let mine = try source.io.readIfPresent(source.layout.root + "/" + relative, maxBytes: Int(Int32.max))
            else { throw refusal }
            if Self.isDeviceFile(relative) { continue }
            guard try io.read(layout.root + "/" + relative, maxBytes: Int(Int32.max)) == mine else { throw refusal }
        }
    }

    /// Copies every file of this folder to `target` (an empty place, `checkMoveTarget`) and
    /// returns how many. `container.json` goes last, so a copy cut short is no container (rule
    /// 12); `moved.json` is not copied. A file already at the target with the same bytes is fine
    /// (a move run again after an interruption); a device file there is replaced by the
    /// source's (its owner rewrites it); other different bytes are refused.
    public func copyAll(to target: DirectoryCloudFolder, device: DeviceID) throws -> Int {
        let files = try relativeFiles()
        let ordered =
            files.filter { $0 != "container.json" && $0 != Self.movedFileName }
            + (files.contains("container.json") ? ["container.json"] : [])
        var made = Set<String>()
        for relative in ordered {
            let outcome = try copy(relative, to: target, device: device, made: &made, replacingDevices: true)
            if outcome == .different {
                throw CloudError(
                    .serverRecordChanged, "the new place already holds a different file; nothing replaced",
                    path: target.layout.root + "/" + relative)
            }
        }
        return ordered.count
    }

    /// What copying one file found.
    enum CopyOutcome { case copied, same, different }

    func copy(
        _ relative: String, to target: DirectoryCloudFolder, device: DeviceID, made: inout Set<String>,
        replacingDevices: Bool
    ) throws -> CopyOutcome {
        let destination = target.layout.root + "/" + relative
        let existing = try target.io.readIfPresent(destination, maxBytes: Int(Int32.max))
        if existing != nil, !replacingDevices, Self.isDeviceFile(relative) { return .same }
        guard let bytes = try io.readIfPresent(layout.root + "/" + relative, maxBytes: Int(Int32.max)) else {
            return .same
        }
        if let existing {
            if existing == bytes { return .same }
            guard Self.isDeviceFile(relative) else { return .different }
        }
        var folder = target.layout.root
        for part in relative.split(separator: "/").dropLast() {
            folder += "/" + part
            if made.insert(folder).inserted { try target.io.ensureDirectory(folder, syncExisting: false) }
        }
        try target.io.writeAtomically(bytes, to: destination, device: device)
        return .copied
    }

    /// Copies to `target`, the end of this folder's forward pointers, every file it lacks: what
    /// devices published here after the move copied the folder (SYNC-FORMAT "Moving"). Write-once
    /// files and device files already there stay; `container.json` and `moved.json` are not
    /// copied. Returns how many files were copied and the paths that differ there (left as they are).
    public func copyMissing(to target: DirectoryCloudFolder, device: DeviceID) throws -> (
        copied: Int, differing: [String]
    ) {
        let theirs = Set(try target.relativeFiles())
        var made = Set<String>()
        var copied = 0
        var differing: [String] = []
        for relative in try relativeFiles() where relative != "container.json" && relative != Self.movedFileName {
            if theirs.contains(relative), Self.isDeviceFile(relative) { continue }
            switch try copy(relative, to: target, device: device, made: &made, replacingDevices: false) {
            case .copied: copied += 1
            case .same: continue
            case .different: differing.append(relative)
            }
        }
        return (copied, differing)
    }

    /// Writes `moved.json` at the root, once: an envelope of kind `moved`, sealed under its name
    /// when the container is encrypted. The same pointer already there is fine (a move run again).
    public func writeForwardPointer(_ pointer: ForwardPointer, device: DeviceID, hlc: HLC) throws {
        let envelope = Envelope(kind: .moved, device: device.rawValue, hlc: hlc, body: pointer.body)
        let bytes = seal.map { $0.seal(envelope.encoded, name: Self.movedFileName) } ?? envelope.encoded
        if try io.readIfPresent(movedFile, maxBytes: Self.maxMovedBytes + FolderSeal.overhead) != nil {
            guard case .valid(let found) = readForwardPointer(containerID: pointer.containerID ?? ""),
                found.place == pointer.place
            else {
                throw CloudError(
                    .serverRecordChanged, "the old place already holds another moved.json; nothing replaced",
                    path: movedFile)
            }
            return
        }
        try io.writeAtomically(bytes, to: movedFile, device: device)
    }

    /// What `moved.json` at the root says, for the container `containerID`: nothing, a pointer
    /// that checks out, or why it does not (unreadable, too large, not a pointer, sealed with
    /// another key or not sealed in an encrypted container). Never throws, never crashes.
    public func readForwardPointer(containerID: String) -> ForwardPointer.Reading {
        let bytes: [UInt8]?
        do {
            bytes = try io.readIfPresent(movedFile, maxBytes: Self.maxMovedBytes + FolderSeal.overhead)
        } catch let error as CloudError {
            return error.code == .limitExceeded ? .refused("it is too large") : .refused("it cannot be read")
        } catch {
            return .refused("it cannot be read")
        }
        guard let bytes else { return .none }
        guard let seal else { return ForwardPointer.parse(bytes, containerID: containerID, plain: true) }
        do {
            let opened = try seal.open(bytes, name: Self.movedFileName)
            return ForwardPointer.parse(opened, containerID: containerID, plain: false)
        } catch {
            return .refused("it is not sealed with this encrypted container's key")
        }
    }
}
