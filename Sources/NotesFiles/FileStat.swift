import Foundation
import Glibc

/// What `stat(2)` says of a file, enough to tell that it was written since it was last read:
/// size, modification time in nanoseconds and inode (an editor's rename-over makes a new one).
public struct FileStat: Sendable, Equatable, Codable {
    public var size: Int64
    public var mtimeNs: Int64
    public var inode: UInt64

    /// The stat of the regular file at `path`; nil when there is none (or it is not a file).
    public static func of(_ path: String) -> FileStat? {
        var info = stat()
        guard lstat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return nil }
        return FileStat(info)
    }
}

extension FileStat {
    /// What `info`, a `stat` already taken, says.
    init(_ info: stat) {
        self.init(
            size: Int64(info.st_size),
            mtimeNs: Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec),
            inode: UInt64(info.st_ino))
    }
}
