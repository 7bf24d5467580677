import Glibc

/// An exclusive lock on the data directory's `notes-folder.lock` for one mirror pass, so that
/// two processes (`files --watch` and `files sync`, or `sync --watch`) never read and write the
/// folder and its records at the same time; the second waits. Released by `release()` or when
/// the process ends (`flock(2)`).
struct PassLock {
    private let fd: Int32

    init(directory: String) throws {
        let path = directory + "/notes-folder.lock"
        fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw MirrorError("cannot open \(path): \(String(cString: strerror(errno)))") }
        while flock(fd, LOCK_EX) != 0 {
            guard errno == EINTR else {
                let reason = String(cString: strerror(errno))
                close(fd)
                throw MirrorError("cannot lock \(path): \(reason)")
            }
        }
    }

    func release() {
        flock(fd, LOCK_UN)
        close(fd)
    }
}
