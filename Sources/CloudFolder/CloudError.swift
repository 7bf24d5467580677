import Glibc

/// An error at the cloud folder boundary, with a code in CKError's vocabulary (ARCHITECTURE §4).
///
/// The sync engine picks its strategy from `code` alone (retry, wait for the folder, tell the
/// user); `message` is for people, `path` and `errno` for logs.
public struct CloudError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What went wrong, named as CloudKit names it so the engine's strategies read like CKError's.
    public enum Code: String, Sendable, Equatable, CaseIterable {
        /// The folder is not reachable at all (unmounted, device gone).
        case networkUnavailable
        /// An I/O error on the way to the folder (EIO, a stale NFS handle): retry when it returns.
        case networkFailure
        /// Out of a system resource (file descriptors): retry with backoff.
        case serviceUnavailable
        /// Something else holds the path for now: retry with backoff.
        case zoneBusy
        /// The server asks for fewer requests (S3's 503 SlowDown, 429): retry no sooner than
        /// `retryAfter` when it says.
        case requestRateLimited
        /// The disk or the user's quota is full: keep changes pending, tell the user.
        case quotaExceeded
        /// A record, batch, file or name over its limit (SYNC-FORMAT rule 13).
        case limitExceeded
        /// Some records of a request failed; see the per-record results.
        case partialFailure
        /// The token points at files that compaction removed (rule 11).
        case changeTokenExpired
        /// The zone does not exist in the folder.
        case zoneNotFound
        /// The zone folder is gone without a deletion marker (rule 12).
        case userDeletedZone
        /// A write-once path already holds different bytes (rule 1, rule 10).
        case serverRecordChanged
        /// No cloud folder is configured.
        case notAuthenticated
        /// The bound folder is there but not usable now (missing container.json, rule 12).
        case accountTemporarilyUnavailable
        /// Permission denied or a read-only folder: the account is restricted.
        case permissionFailure
        /// A name or file the protocol refuses: a symlink, a non-regular file, a bad name.
        case invalidArguments
        /// The item does not exist (ENOENT): a probe found nothing, not a failure in itself.
        case unknownItem
        /// The folder holds something that is not a container of ours.
        case badContainer
        /// The folder was written by a newer format than this build reads.
        case incompatibleVersion
        /// A bug or an errno without a better code.
        case internalError
    }

    public var code: Code
    public var message: String
    public var path: String?
    public var errno: Int32?
    /// Seconds the server asked to wait before the next request (`Retry-After`), if it said.
    public var retryAfter: Double?

    public init(
        _ code: Code, _ message: String, path: String? = nil, errno: Int32? = nil, retryAfter: Double? = nil
    ) {
        self.code = code
        self.message = message
        self.path = path
        self.errno = errno
        self.retryAfter = retryAfter
    }

    /// With the code first, for logs, `--json` and `debug`.
    public var description: String { "\(code.rawValue): \(userMessage)" }

    /// In the user's words: the message and the path, without the internal code.
    public var userMessage: String { path.map { "\(message) (\($0))" } ?? message }

    /// `userMessage` of a CloudError, else the error as it describes itself.
    public static func userMessage(_ error: any Error) -> String {
        (error as? CloudError)?.userMessage ?? "\(error)"
    }

    /// The error for a failed system call, from the errno table below.
    public init(errno number: Int32, operation: String, path: String?) {
        let (code, meaning) = CloudError.classify(errno: number)
        self.init(code, "\(operation) failed: \(meaning)", path: path, errno: number)
    }

    /// The errno table: which code each failure of a file system call means for sync.
    public static func classify(errno number: Int32) -> (Code, String) {
        switch number {
        case ENOENT: return (.unknownItem, "no such file or directory")
        case EACCES, EPERM: return (.permissionFailure, "permission denied")
        case EROFS: return (.permissionFailure, "the cloud folder is on a read-only file system")
        case ENOSPC: return (.quotaExceeded, "no space left on the device that holds the cloud folder")
        case EDQUOT: return (.quotaExceeded, "disk quota exceeded")
        case EFBIG: return (.limitExceeded, "file too large for this file system")
        case EIO: return (.networkFailure, "input/output error")
        case ESTALE, ETIMEDOUT, ECONNRESET, ECONNABORTED, EHOSTUNREACH:
            return (.networkFailure, "the folder's file system stopped answering (\(number))")
        case ENOTCONN, ENODEV, ENXIO, ENETDOWN, ENETUNREACH, EHOSTDOWN, ENOMEDIUM:
            return (.networkUnavailable, "the cloud folder is not reachable (\(number))")
        case ENOTDIR: return (.invalidArguments, "a path component is not a directory")
        case EISDIR: return (.invalidArguments, "a directory where a file was expected")
        case ELOOP: return (.invalidArguments, "a symbolic link where a file was expected; links are never followed")
        case ENAMETOOLONG: return (.limitExceeded, "file name too long")
        case EMFILE, ENFILE: return (.serviceUnavailable, "too many open files")
        case ENOMEM: return (.serviceUnavailable, "out of memory")
        case EBUSY, EAGAIN, ETXTBSY: return (.zoneBusy, "resource busy")
        case EEXIST, ENOTEMPTY: return (.serverRecordChanged, "the path already exists")
        case EXDEV: return (.invalidArguments, "rename across file systems")
        default: return (.internalError, "errno \(number)")
        }
    }
}
