import CloudFolder
import Foundation
import Glibc
import Synchronization

/// One sync at a time per data directory (SYNC-FORMAT "One sync at a time"): an advisory lock
/// (`flock`) on a file in the data directory, never in the cloud folder. Every engine over a
/// data directory (a one-shot `sync`, `sync --watch`, the app) holds it for the length of
/// each pass (send, fetch, compaction), and reloads the engine state the store holds once it
/// has it, so a pass never acts on what another process's pass has changed since.
///
/// The lock goes with the open file: a process that dies releases it, and two engines in one
/// process exclude each other too.
public final class SyncPassLock: Sendable {
    public let path: String
    /// The lock file, opened on first use (-1 until then).
    private let descriptor = Mutex<Int32>(-1)

    public init(path: String) { self.path = path }

    deinit { descriptor.withLock { if $0 >= 0 { Glibc.close($0) } } }

    /// Takes the lock, polling every 50 ms until `timeout` seconds have passed (0: one try);
    /// false when another holder still has it. Throws when the lock file cannot be opened.
    public func acquire(timeout: Double) throws -> Bool {
        try descriptor.withLock { descriptor throws(CloudError) in
            if descriptor < 0 {
                let fd = Glibc.open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o600)
                guard fd >= 0 else {
                    let code = errno
                    throw CloudError(
                        .internalError, "cannot open the sync lock \(path): \(String(cString: strerror(code)))")
                }
                descriptor = fd
            }
            let deadline = Date().addingTimeInterval(max(0, timeout))
            while true {
                if flock(descriptor, LOCK_EX | LOCK_NB) == 0 { return true }
                guard errno == EWOULDBLOCK || errno == EINTR, Date() < deadline else { return false }
                usleep(50_000)
            }
        }
    }

    /// Releases the lock (the file stays, for the next holder).
    public func release() {
        descriptor.withLock { descriptor in
            if descriptor >= 0 { _ = flock(descriptor, LOCK_UN) }
        }
    }
}
