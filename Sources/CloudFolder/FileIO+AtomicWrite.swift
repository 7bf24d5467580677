/// The atomic write recipe of ARCHITECTURE §7 (SYNC-FORMAT rule 2), on any `FileIO`.
extension FileIO {
    /// Publishes `bytes` at `path`: write `.<name>.tmp-<dev>-<random>` beside it (created
    /// `O_CREAT|O_EXCL|O_NOFOLLOW`, 0600), write all, fsync, check close, rename, fsync the folder.
    ///
    /// Any failure throws and the write counts as not done: the temp file is removed when it
    /// still exists; when only the final folder fsync failed, the file is visible but not durable
    /// and the caller redoes the publication (which then finds identical bytes). `rename`
    /// replaces an existing file; write-once callers check the path first.
    func writeAtomically(_ bytes: [UInt8], to path: String, device: DeviceID) throws {
        let folder = CloudPath.parent(of: path)
        let temp = folder + "/" + CloudLayout.temporaryName(for: CloudPath.lastComponent(of: path), device: device)
        let file = try createExclusive(temp)
        var renamed = false
        do {
            do {
                try write(file, bytes)
                try fsync(file)
            } catch {
                // Already failing: the write error is the one thrown; the temp file is removed below.
                try? close(file)
                throw error
            }
            try close(file)
            try rename(temp, to: path)
            renamed = true
            try fsyncDirectory(folder)
        } catch {
            // A temp file left is ours and harmless: readers skip `.tmp-` names, a later run removes it.
            if !renamed { try? remove(temp) }
            throw error
        }
    }

    public func isFolder(_ path: String) throws -> Bool { try kind(path) == .directory }

    public func fileExists(_ path: String) throws -> Bool { try kind(path) != nil }

    public func renameRefusesExisting(_ path: String) -> Bool { false }

    /// `ensureDirectory(path, syncExisting: true)`.
    func ensureDirectory(_ path: String) throws { try ensureDirectory(path, syncExisting: true) }

    /// Makes `path` a folder if it is not one, then fsyncs its parent so the new entry survives
    /// a power loss. Anything but a folder at `path` (a planted symlink) is refused.
    ///
    /// A folder that already exists may be one an earlier, failed attempt created without the
    /// parent fsync; `syncExisting` fsyncs the parent anyway (callers pass it when this call may
    /// be such a retry).
    public func ensureDirectory(_ path: String, syncExisting: Bool) throws {
        switch try kind(path) {
        case .directory:
            if syncExisting { try fsyncDirectory(CloudPath.parent(of: path)) }
        case nil:
            do {
                try makeDirectory(path)
            } catch let error as CloudError where error.code == .serverRecordChanged {
                // Created meanwhile by another process of this device: checked again below.
            }
            guard try kind(path) == .directory else {
                throw CloudError(.invalidArguments, "not a folder; refused", path: path)
            }
            try fsyncDirectory(CloudPath.parent(of: path))
        case .symlink, .regular, .other:
            throw CloudError(
                .invalidArguments, "a folder was expected, found something else; never followed", path: path)
        }
    }

    /// Reads a file, or nil when there is none (`ENOENT`).
    func readIfPresent(_ path: String, maxBytes: Int) throws -> [UInt8]? {
        do {
            return try read(path, maxBytes: maxBytes)
        } catch let error as CloudError where error.code == .unknownItem {
            return nil
        }
    }

    /// Lists a folder, or nothing when it does not exist.
    func listIfPresent(_ path: String) throws -> [String] {
        do {
            return try list(path)
        } catch let error as CloudError where error.code == .unknownItem {
            return []
        }
    }
}

/// String path helpers; paths here are always built by `CloudLayout`.
enum CloudPath {
    static func parent(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/"), slash != path.startIndex else { return "/" }
        return String(path[..<slash])
    }

    static func lastComponent(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return path }
        return String(path[path.index(after: slash)...])
    }
}
