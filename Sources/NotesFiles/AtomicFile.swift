import Foundation
import Glibc

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
        var failure: Int32 = 0
        data.withUnsafeBytes { raw in
            guard let base = raw.baseAddress else { return }  // nothing to write
            var offset = 0
            while offset < raw.count {
                let written = Glibc.write(fd, base + offset, raw.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    failure = errno
                    return
                }
                offset += written
            }
        }
        if failure == 0, fsync(fd) != 0 { failure = errno }
        close(fd)
        if failure == 0, rename(temporary, path) != 0 { failure = errno }
        guard failure == 0 else {
            unlink(temporary)
            throw MirrorError("cannot write \(path): \(String(cString: strerror(failure)))")
        }
    }
}
