import Glibc

/// `FileIO` over Glibc system calls, following ARCHITECTURE §7 to the letter.
///
/// Foundation's `Data.write(.atomic)` is not used: it creates files 0644 and never fsyncs the
/// folder. Every open passes `O_NOFOLLOW` (Syncthing replicates symlinks; a planted link is
/// never followed) and `O_CLOEXEC`; reads accept regular files only and check the size with
/// `fstat` before reading a byte.
public struct PosixFileIO: FileIO {
    public init() {}

    public func createExclusive(_ path: String) throws -> FileDescriptor {
        let fd = retryingOnInterrupt { open(path, O_CREAT | O_EXCL | O_NOFOLLOW | O_WRONLY | O_CLOEXEC, 0o600) }
        guard fd >= 0 else { throw CloudError(errno: errno, operation: "create", path: path) }
        return FileDescriptor(rawValue: fd)
    }

    public func write(_ file: FileDescriptor, _ bytes: [UInt8]) throws {
        var offset = 0
        while offset < bytes.count {
            let n = bytes.withUnsafeBytes { buffer in
                guard let base = buffer.baseAddress else { return 0 }
                return retryingOnInterrupt { Glibc.write(file.rawValue, base + offset, buffer.count - offset) }
            }
            guard n > 0 else {
                throw CloudError(errno: n == 0 ? EIO : errno, operation: "write", path: nil)
            }
            offset += n
        }
    }

    public func fsync(_ file: FileDescriptor) throws {
        guard retryingOnInterrupt({ Glibc.fsync(file.rawValue) }) == 0 else {
            throw CloudError(errno: errno, operation: "fsync", path: nil)
        }
    }

    public func close(_ file: FileDescriptor) throws {
        // close is never retried: on Linux the descriptor is released even when it fails.
        guard Glibc.close(file.rawValue) == 0 else { throw CloudError(errno: errno, operation: "close", path: nil) }
    }

    /// A write-once path (every path but a device file, SYNC-FORMAT rule 1) is published with
    /// `link(2)` and the temp name unlinked: the kernel refuses an existing name, so two writers
    /// racing for one path cannot both win (`rename(2)` would replace the first). A folder with
    /// no hard links (EPERM, ENOTSUP, EMLINK, ENOSYS) falls back to check, then rename.
    public func rename(_ from: String, to: String) throws {
        if renameRefusesExisting(to) {
            if Glibc.link(from, to) == 0 {
                _ = Glibc.unlink(from)
                return
            }
            let code = errno
            switch code {
            case EEXIST:
                let code = try kind(to) == .directory ? EISDIR : EEXIST
                throw CloudError(errno: code, operation: "rename", path: to)
            case EPERM, ENOTSUP, EMLINK, ENOSYS:
                if let existing = try kind(to), existing != .directory {
                    throw CloudError(errno: EEXIST, operation: "rename", path: to)
                }
            default:
                throw CloudError(errno: code, operation: "rename", path: code == ENOENT ? from : to)
            }
        }
        guard Glibc.rename(from, to) == 0 else { throw CloudError(errno: errno, operation: "rename", path: to) }
    }

    /// True for every path but a device file (`CloudLayout.isRewritable`): see `rename`.
    public func renameRefusesExisting(_ path: String) -> Bool { !CloudLayout.isRewritable(path) }

    public func fsyncDirectory(_ path: String) throws {
        let fd = retryingOnInterrupt { open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC) }
        guard fd >= 0 else { throw CloudError(errno: errno, operation: "open folder", path: path) }
        defer { _ = Glibc.close(fd) }
        guard retryingOnInterrupt({ Glibc.fsync(fd) }) == 0 else {
            throw CloudError(errno: errno, operation: "fsync folder", path: path)
        }
    }

    public func read(_ path: String, maxBytes: Int) throws -> [UInt8] {
        // O_NONBLOCK: a planted FIFO must not hang the open; it is refused below as not regular.
        let fd = retryingOnInterrupt { open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC) }
        guard fd >= 0 else { throw CloudError(errno: errno, operation: "open", path: path) }
        defer { _ = Glibc.close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw CloudError(errno: errno, operation: "stat", path: path) }
        guard info.st_mode & S_IFMT == S_IFREG else {
            throw CloudError(.invalidArguments, "not a regular file; refused", path: path)
        }
        guard info.st_size <= maxBytes else {
            throw CloudError(
                .limitExceeded, "file is \(info.st_size) bytes, over the \(maxBytes)-byte cap; refused without reading",
                path: path)
        }
        // One byte more than fstat said, to notice a file that grows while it is read.
        var bytes = [UInt8](repeating: 0, count: Int(info.st_size) + 1)
        var count = 0
        while count < bytes.count {
            let n = bytes.withUnsafeMutableBytes { buffer in
                guard let base = buffer.baseAddress else { return 0 }
                return retryingOnInterrupt { Glibc.read(fd, base + count, buffer.count - count) }
            }
            guard n >= 0 else { throw CloudError(errno: errno, operation: "read", path: path) }
            if n == 0 { break }
            count += n
        }
        guard count <= Int(info.st_size) else {
            throw CloudError(.zoneBusy, "file changed while it was read", path: path)
        }
        bytes.removeSubrange(count...)
        return bytes
    }

    public func list(_ path: String) throws -> [String] {
        let fd = retryingOnInterrupt { open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC) }
        guard fd >= 0 else { throw CloudError(errno: errno, operation: "open folder", path: path) }
        guard let dir = fdopendir(fd) else {
            let error = errno
            _ = Glibc.close(fd)
            throw CloudError(errno: error, operation: "list", path: path)
        }
        defer { closedir(dir) }
        var names: [String] = []
        while true {
            errno = 0
            guard let entry = readdir(dir) else {
                if errno != 0 { throw CloudError(errno: errno, operation: "list", path: path) }
                break
            }
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix(while: { $0 != 0 }), as: UTF8.self)
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names
    }

    public func kind(_ path: String) throws -> FileKind? {
        var info = stat()
        guard lstat(path, &info) == 0 else {
            if errno == ENOENT { return nil }
            throw CloudError(errno: errno, operation: "stat", path: path)
        }
        switch info.st_mode & S_IFMT {
        case S_IFREG: return .regular(size: Int64(info.st_size))
        case S_IFDIR: return .directory
        case S_IFLNK: return .symlink
        default: return .other
        }
    }

    public func makeDirectory(_ path: String) throws {
        guard mkdir(path, 0o700) == 0 else { throw CloudError(errno: errno, operation: "mkdir", path: path) }
    }

    /// Removes a file, or an empty directory.
    public func remove(_ path: String) throws {
        if unlink(path) == 0 { return }
        guard errno == EISDIR, rmdir(path) == 0 else {
            throw CloudError(errno: errno, operation: "remove", path: path)
        }
    }

    private func retryingOnInterrupt<T: BinaryInteger>(_ call: () -> T) -> T {
        while true {
            let result = call()
            if result >= 0 || errno != EINTR { return result }
        }
    }
}
