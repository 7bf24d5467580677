import Foundation
import Glibc
import NotesCore

/// Writes a file whole or not at all: the bytes go to a hidden temporary file beside it
/// (`.<name>.cloudnotes-<pid>`, which the folder scan skips as a dot-file), synced, then renamed
/// over the file, so no program ever reads half a note. `sync` false leaves the bytes to a later
/// `flush` of the whole file system (a new file: see `FolderMirror.sync`).
enum AtomicFile {
    static func write(_ data: Data, to path: String, sync: Bool = true) throws {
        let slash = path.lastIndex(of: "/")
        let directory = slash.map { String(path[..<$0]) } ?? "."
        let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
        let temporary = directory + "/." + name + ".cloudnotes-\(getpid())"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw MirrorError("cannot write \(path): \(String(cString: strerror(errno)))") }
        var failure = data.withUnsafeBytes { FileDescriptorIO.writeAll(fd, $0) }
        if failure == 0, sync, fsync(fd) != 0 { failure = errno }
        close(fd)
        if failure == 0, rename(temporary, path) != 0 { failure = errno }
        guard failure == 0 else {
            unlink(temporary)
            throw MirrorError("cannot write \(path): \(FileDescriptorIO.reason(failure))")
        }
    }

    /// Flushes the file system that holds `directory` to disk (`syncfs(2)`): one call for every
    /// file written with `sync` false, instead of an `fsync` each.
    static func flush(_ directory: String) throws {
        let fd = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { throw MirrorError("cannot open \(directory): \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        // glibc's syncfs, which Swift's Glibc module leaves out (declared under _GNU_SOURCE);
        // without it, every file system is flushed.
        typealias SyncFS = @convention(c) (Int32) -> Int32
        guard let symbol = dlsym(nil, "syncfs") else {
            Glibc.sync()
            return
        }
        guard unsafeBitCast(symbol, to: SyncFS.self)(fd) == 0 else {
            throw MirrorError("cannot flush \(directory) to disk: \(String(cString: strerror(errno)))")
        }
    }
}
