import Foundation
import Glibc

/// A file in the data directory only its owner may read (`folder-key.json`, `identity.json`):
/// written to a temp name opened 0600 with O_EXCL and O_NOFOLLOW, synced, then renamed over.
enum PrivateFile {
    static func write(_ bytes: [UInt8], to url: URL) throws {
        let temp = url.path + ".tmp"
        unlink(temp)
        let fd = Glibc.open(temp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw CLIError("cannot write \(temp): \(String(cString: strerror(errno)))") }
        let written = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
        let synced = fsync(fd) == 0
        Glibc.close(fd)
        guard written == bytes.count, synced, rename(temp, url.path) == 0 else {
            unlink(temp)
            throw CLIError("cannot write \(url.path): \(String(cString: strerror(errno)))")
        }
    }
}
