import Foundation

/// Moving a cloud folder to another place (`cloudnotes sync move`, SYNC-FORMAT "Moving"): every
/// file copied write-once with `container.json` last, then `moved.json` at the old root pointing
/// at the new place, the old place otherwise untouched.
extension DirectoryCloudFolder {
    /// The pointer file's name at the root.
    public static let movedFileName = "moved.json"
    /// The most a `moved.json` may hold.
    static let maxMovedBytes = 4096

    /// Copies every file of this folder to `target` (an empty place) and returns how many.
    /// Temp files (`.`-names) and `moved.json` are not copied; symlinks and other non-files are
    /// never followed. A file already at the target with the same bytes is fine (a move run
    /// again after an interruption); different bytes are refused.
    public func copyAll(to target: DirectoryCloudFolder, device: DeviceID) throws -> Int {
        var files: [String] = []
        if let lister = io as? any KeyListingFileIO {
            files = try lister.listFiles(under: layout.root, startAfter: "")
        } else {
            func walk(_ relative: String) throws {
                let folder = relative.isEmpty ? layout.root : layout.root + "/" + relative
                for name in try io.list(folder).sorted() where !name.hasPrefix(".") {
                    let child = relative.isEmpty ? name : relative + "/" + name
                    switch try io.kind(layout.root + "/" + child) {
                    case .directory: try walk(child)
                    case .regular: files.append(child)
                    default: continue
                    }
                }
            }
            try walk("")
        }
        let ordered =
            files.filter {
                $0 != "container.json" && $0 != Self.movedFileName
                    && !$0.split(separator: "/").contains { $0.hasPrefix(".") }
            } + (files.contains("container.json") ? ["container.json"] : [])
        var made = Set<String>()
        for relative in ordered {
            let bytes = try io.read(layout.root + "/" + relative, maxBytes: Int(Int32.max))
            let destination = target.layout.root + "/" + relative
            var folder = target.layout.root
            for part in relative.split(separator: "/").dropLast() {
                folder += "/" + part
                if made.insert(folder).inserted { try target.io.ensureDirectory(folder, syncExisting: false) }
            }
            if let existing = try target.io.readIfPresent(destination, maxBytes: Int(Int32.max)) {
                guard existing == bytes else {
                    throw CloudError(
                        .serverRecordChanged, "the new place already holds a different file; nothing replaced",
                        path: destination)
                }
                continue
            }
            try target.io.writeAtomically(bytes, to: destination, device: device)
        }
        return ordered.count
    }

    /// Writes `moved.json` (`{"movedTo": "<place>"}`) at the root, once.
    public func writeMoved(to place: String, device: DeviceID) throws {
        let bytes = try JSONSerialization.data(withJSONObject: ["movedTo": place], options: [.sortedKeys])
        let path = layout.root + "/" + Self.movedFileName
        if try io.readIfPresent(path, maxBytes: Self.maxMovedBytes) != nil { return }
        try io.writeAtomically(Array(bytes), to: path, device: device)
    }

    /// Where `moved.json` says the folder went, or nil when there is none or it is not one
    /// (unreadable, too large, not that JSON: ignored, never a crash).
    public func movedTo() -> String? {
        guard let bytes = try? io.readIfPresent(layout.root + "/" + Self.movedFileName, maxBytes: Self.maxMovedBytes),
            let object = try? JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any],
            let place = object["movedTo"] as? String, !place.isEmpty, place.count < 2048
        else { return nil }
        return place
    }
}
