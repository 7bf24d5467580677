/// The file system calls the cloud folder makes: the seam through which tests inject faults.
///
/// Every call is one step of ARCHITECTURE §7's atomic write recipe or of a read, so a fault can be
/// placed at any single step. Implementations: `PosixFileIO` (Glibc) and `InMemoryFileIO`.
/// Failures are thrown as `CloudError` built from the errno (`CloudError(errno:operation:path:)`).
public protocol FileIO: Sendable {
    /// Creates a new regular file, mode 0600, refusing an existing path or a symlink
    /// (`O_CREAT|O_EXCL|O_NOFOLLOW|O_WRONLY`).
    func createExclusive(_ path: String) throws -> FileDescriptor
    /// Writes every byte (short writes are continued).
    func write(_ file: FileDescriptor, _ bytes: [UInt8]) throws
    func fsync(_ file: FileDescriptor) throws
    /// Closes the file; a failure means the data may not have been written.
    func close(_ file: FileDescriptor) throws
    /// Renames within one folder, replacing a file at `to` (the caller checks first).
    func rename(_ from: String, to: String) throws
    /// Makes the folder's entries (creations, renames) durable.
    func fsyncDirectory(_ path: String) throws
    /// Reads a regular file without following a symlink; a file over `maxBytes` is refused
    /// (`limitExceeded`) from its size alone, before any byte is read.
    func read(_ path: String, maxBytes: Int) throws -> [UInt8]
    /// The names in a folder, without `.` and `..`, in no particular order.
    func list(_ path: String) throws -> [String]
    /// What is at a path, without following a symlink; nil when nothing is.
    func kind(_ path: String) throws -> FileKind?
    /// Creates a folder, mode 0700; throws `serverRecordChanged` (EEXIST) when the path exists.
    func makeDirectory(_ path: String) throws
    /// Removes a file, or an empty folder. Callers only ever remove their own files (rule 1).
    func remove(_ path: String) throws

    // The checks below have a default made of the calls above (`FileIO+AtomicWrite.swift`);
    // object storage answers them with fewer requests (`S3FileIO`, SYNC-FORMAT "On S3").

    /// Whether `path` is a folder: `kind(path) == .directory` by default.
    func isFolder(_ path: String) throws -> Bool
    /// Whether anything is at `path`, a file's path of the format (a log file): `kind(path) != nil`
    /// by default.
    func fileExists(_ path: String) throws -> Bool
    /// Makes `path` a folder if it is not one, so that files can be written in it (see the
    /// default, `FileIO+AtomicWrite.swift`).
    func ensureDirectory(_ path: String, syncExisting: Bool) throws
    /// True when `rename` to `path` refuses an existing file (`serverRecordChanged`) instead of
    /// replacing it: a write-once publication is then attempted first and compared only when
    /// refused. False by default (POSIX `rename` replaces).
    func renameRefusesExisting(_ path: String) -> Bool
}

/// An open file of a `FileIO`.
public struct FileDescriptor: Sendable, Hashable {
    public var rawValue: Int32
    public init(rawValue: Int32) { self.rawValue = rawValue }
}

/// What `FileIO.kind` found at a path (as `lstat` sees it).
public enum FileKind: Sendable, Equatable {
    case regular(size: Int64)
    case directory
    case symlink
    case other
}

/// The steps of `FileIO`, for fault injection.
public enum FileIOStep: String, Sendable, CaseIterable {
    case createExclusive, write, fsync, close, rename, fsyncDirectory, read, list, kind, makeDirectory, remove

    /// The steps of one atomic publication, in order (ARCHITECTURE §7).
    public static let publication: [FileIOStep] = [.createExclusive, .write, .fsync, .close, .rename, .fsyncDirectory]
}
