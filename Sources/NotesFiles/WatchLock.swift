import Foundation
import Glibc

/// The data directory's `notes-folder-watch.lock`, held by the one process that keeps the notes
/// folder in step (the app, `files --watch`, `sync --watch`) for as long as it runs, with that
/// process's id in it. A second keeper does not take turns with the first: it says so and waits
/// (`MirrorKeeper`), taking over once the first ends (a `flock(2)` lock goes with its process).
/// One-off passes (`files sync`) take turns with either through `PassLock`.
final class WatchLock: Sendable {
    static let fileName = "notes-folder-watch.lock"
    private let fd: Int32

    private init(fd: Int32) { self.fd = fd }

    /// The lock, now, or nil when another keeper holds it.
    static func take(directory: String) throws -> WatchLock? {
        let path = directory + "/" + fileName
        let fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw MirrorError("cannot open \(path): \(String(cString: strerror(errno)))") }
        while flock(fd, LOCK_EX | LOCK_NB) != 0 {
            guard errno == EINTR else {
                let busy = errno == EWOULDBLOCK
                let reason = String(cString: strerror(errno))
                close(fd)
                if busy { return nil }
                throw MirrorError("cannot lock \(path): \(reason)")
            }
        }
        // The holder's id, for the other keeper's message; the lock works without it.
        let id = Array("\(getpid())\n".utf8)
        if ftruncate(fd, 0) == 0 { _ = pwrite(fd, id, id.count, 0) }
        return WatchLock(fd: fd)
    }

    /// The process id the holder wrote, if it can be read.
    static func holder(directory: String) -> Int32? {
        let fd = open(directory + "/" + fileName, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var bytes = [UInt8](repeating: 0, count: 16)
        let count = read(fd, &bytes, bytes.count)
        guard count > 0 else { return nil }
        return Int32(String(decoding: bytes[..<count], as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines))
    }

    /// Released when the last reference goes.
    deinit {
        flock(fd, LOCK_UN)
        close(fd)
    }
}
