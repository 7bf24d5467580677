import Foundation
import Glibc
import NotesCore

/// Writes a file whole or not at all: the bytes go to a hidden temporary file beside it
/// (`.<name>.cloudnotes-<pid>`, which the folder scan skips as a dot-file), synced, then renamed
/// over the file, so no program ever reads half a note.
enum AtomicFile {
    static func write(_ data: Data, to path: String) throws {
        let slash = path.lastIndex(of: "/")
        let directory = slash.map { String(path[..<$0]) } ?? "."
        let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
        let temporary = directory + "/." + name + ".cloudnotes-\(getpid())"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw MirrorError("cannot write \(path): \(String(cString: strerror(errno)))") }
        var failure = data.withUnsafeBytes { FileDescriptorIO.writeAll(fd, $0) }
        if failure == 0, fsync(fd) != 0 { failure = errno }
        close(fd)
        if failure == 0, rename(temporary, path) != 0 { failure = errno }
        guard failure == 0 else {
            unlink(temporary)
            throw MirrorError("cannot write \(path): \(FileDescriptorIO.reason(failure))")
        }
    }
}
