import Foundation
import GRDB
import NotesCore

/// The local store: one SQLite database in WAL mode, the source of truth for the UI (ARCHITECTURE §2).
///
/// Reads run concurrently with writes (GRDB `DatabasePool`); every write is one transaction
/// that updates the note, appends its revision, indexes it for search and queues an outbox
/// row for sync, so an edit and its pending change are never separated by a crash. A busy
/// timeout lets a TUI and a CLI writer share the database.
public final class NoteStore: Sendable {
    public static let databaseFileName = "notes.sqlite"

    public let directory: URL
    public let databaseURL: URL
    /// What a store is opened for. A command that only reads (`list`, `search`, `show`) opens it
    /// `.read`: one read-only connection, so it writes nothing, takes no lock and syncs nothing to
    /// disk, even to open (a writable WAL pool makes sure a `-wal` exists by committing a
    /// transaction, and its last connection checkpoints when it closes: four `fdatasync`s).
    public enum Access: Sendable {
        case readWrite
        /// Read-only when the store is ready to read as it is; a store that must be created,
        /// migrated or have its deferred indexes built first opens `.readWrite` to do that.
        case read
    }

    /// A WAL `DatabasePool`; a read-only `DatabaseQueue` when the data directory refuses writes
    /// or the store was opened `.read`.
    let pool: any DatabaseWriter
    /// Whether the store was opened `.read` and is read-only for it: every write throws.
    public let isOpenForReading: Bool
    /// This store's device id (random lowercase base32), made on first open.
    public let deviceID: String
    let clock: @Sendable () -> Date
    /// What the current write transaction indexed, written as one segment when it ends.
    let pendingIndex = PendingIndex()
    /// Segments' document tables, read once per segment (they never change).
    let segmentCache = SegmentCache()
    /// Checkpoints after bulk writes, off the writer's thread.
    let checkpoint: BackgroundCheckpoint
    /// Why this store refuses every write, when it opened read-only because a newer build made
    /// its database (`Schema.newerBuildMarker`); the message each write throws. Nil otherwise.
    public let readOnlyReason: String?

    /// Opens (creating if needed) the store in `directory`.
    ///
    /// - Parameters:
    ///   - busyTimeout: how long a write waits for another process's transaction.
    ///   - clock: the wall clock for timestamps; tests inject one.
    public init(
        directory: URL, access: Access = .readWrite, busyTimeout: TimeInterval = 10,
        clock: @escaping @Sendable () -> Date = Date.init
    ) throws {
        self.directory = directory
        let databaseURL = directory.appendingPathComponent(Self.databaseFileName)
        self.databaseURL = databaseURL
        self.clock = clock
        checkpoint = BackgroundCheckpoint(path: databaseURL.path)
        try Self.prepareDirectory(directory)
        var config = Configuration()
        config.busyMode = .timeout(busyTimeout)
        config.foreignKeysEnabled = true
        config.prepareDatabase { db in
            // A new database's page size (D-229; before GRDB turns WAL on, after which it is fixed;
            // an existing database keeps its own): most notes then fit their row's page instead of
            // spilling into overflow pages whose last one is mostly empty.
            try db.execute(sql: "PRAGMA page_size = 16384")
            // `has:todo` inside OR and groups (SearchConditionSQL).
            db.add(function: SearchConditionSQL.hasOpenTask)
            // Words inside OR, NOT and groups (SearchConditionSQL).
            db.add(function: SearchConditionSQL.searchBody)
            // 32 MB of page cache: imports and merges of a large index reread far fewer pages.
            // A WAL that grew during bulk writes (BackgroundCheckpoint) is cut back to 64 MB
            // when it starts over.
            try db.execute(
                sql: "PRAGMA synchronous = NORMAL; PRAGMA cache_size = -32768; PRAGMA journal_size_limit = 67108864")
        }
        do {
            try Self.checkIsOurs(databaseURL)
            if let readOnly = try Self.openReadOnlyIfDirectoryRefusesWrites(databaseURL, config) {
                pool = readOnly.queue
                isOpenForReading = false
                readOnlyReason = readOnly.newerBuild.map { Self.newerBuildMessage(databaseURL, $0) }
                // Only writes use the device id, and they fail here with the read-only error.
                deviceID = try Self.storedDeviceID(readOnly.queue) ?? ""
                return
            }
            if access == .read, let reading = try Self.openForReading(databaseURL, config) {
                pool = reading.queue
                readOnlyReason = reading.newerBuild.map { Self.newerBuildMessage(databaseURL, $0) }
                deviceID = reading.deviceID
                isOpenForReading = true
                return
            }
            let writable = try DatabasePool(path: databaseURL.path, configuration: config)
            if try writable.read(Self.isForeign) { throw Self.foreignDatabase(databaseURL) }
            // A database a newer build made is read, never written: not migrated, its derived data
            // not rebuilt (which would reset its user_version), and no write reaches it.
            if let marker = try writable.read(Schema.newerBuildMarker) {
                var readOnlyConfig = config
                readOnlyConfig.readonly = true
                let readOnly = try DatabasePool(path: databaseURL.path, configuration: readOnlyConfig)
                pool = readOnly
                isOpenForReading = false
                readOnlyReason = Self.newerBuildMessage(databaseURL, marker)
                deviceID = try Self.storedDeviceID(readOnly) ?? ""
                return
            }
            pool = writable
            isOpenForReading = false
            readOnlyReason = nil
            // Opening is on the path to the first screen: read-only checks first, and a write
            // transaction only when there is something to write.
            let (isCurrent, indexesDeferred) = try pool.read { db in
                (try Schema.isCurrent(db), try DeferredIndexes.pending(db) != nil)
            }
            // An import into the empty store was killed before building its indexes again: they
            // are built first, from the SQL the database had (the migrations expect them). A
            // write lock held past the busy timeout is the import still running, which builds
            // them at its end (else the next open does); reads do without them meanwhile.
            if indexesDeferred {
                do {
                    try pool.write(DeferredIndexes.restore)
                } catch let error as DatabaseError where error.resultCode == .SQLITE_BUSY && isCurrent {}
            }
            if !isCurrent { try Schema.migrate(pool) }
            let existing = try pool.read { db in
                try String.fetchOne(db, sql: "SELECT value FROM sync_state WHERE key = 'deviceID'")
            }
            deviceID = try existing ?? pool.write { db in try Self.ensureDeviceID(db) }
        } catch let error as DatabaseError {
            throw Self.storeError(error, path: databaseURL.path)
        }
        Self.restrictPermissions(of: databaseURL)
    }

    /// The device id the database holds; nil before the first write made one.
    private static func storedDeviceID(_ reader: some DatabaseReader) throws -> String? {
        try reader.read(storedDeviceID)
    }

    /// What every write of a database a newer build made throws, and what commands show on open.
    static func newerBuildMessage(_ databaseURL: URL, _ marker: String) -> String {
        "the database \(databaseURL.path) was made by a newer build of CloudNotes (\(marker)); it is open read-only and nothing is written to it: use that build or a later one to change it"
    }

    /// The store opened with one read-only connection, for a command that only reads; nil when it
    /// is not ready to be read as it is (no database yet, a schema to migrate, indexes an
    /// interrupted import deferred, no device id yet): the writable open does what is missing.
    private static func openForReading(
        _ databaseURL: URL, _ config: Configuration
    ) throws -> (queue: DatabaseQueue, deviceID: String, newerBuild: String?)? {
        guard FileManager.default.fileExists(atPath: databaseURL.path) else { return nil }
        var config = config
        config.readonly = true
        // A database SQLite cannot read (damaged, locked in a way reads cannot wait out) is left
        // to the writable open, which says why in the words every command uses.
        do {
            let queue = try DatabaseQueue(path: databaseURL.path, configuration: config)
            return try queue.read { db in
                if try isForeign(db) { throw foreignDatabase(databaseURL) }
                if let marker = try Schema.newerBuildMarker(db) {
                    return (queue, try storedDeviceID(db) ?? "", marker)
                }
                guard try Schema.isCurrent(db), try DeferredIndexes.pending(db) == nil,
                    let deviceID = try storedDeviceID(db)
                else { return nil }
                return (queue, deviceID, nil)
            }
        } catch is DatabaseError {
            return nil
        }
    }

    private static func storedDeviceID(_ db: Database) throws -> String? {
        try String.fetchOne(db, sql: "SELECT value FROM sync_state WHERE key = 'deviceID'")
    }

    /// A data directory that refuses writes (a read-only mount, a directory without write
    /// permission) still lets users read their notes: SQLite's WAL mode needs to create
    /// `-shm` even to read, so the database is opened `immutable` (nothing can change it while
    /// nobody can write there). A leftover `-wal` holds commits that only a writer can apply
    /// (an immutable open would not see them): then it is the read-only error, as for writes.
    ///
    /// Returns the queue and, for a database a newer build made, what says so.
    private static func openReadOnlyIfDirectoryRefusesWrites(
        _ databaseURL: URL, _ config: Configuration
    ) throws -> (queue: DatabaseQueue, newerBuild: String?)? {
        let directory = databaseURL.deletingLastPathComponent().path
        guard access(directory, W_OK) != 0, errno == EROFS || errno == EACCES,
            FileManager.default.fileExists(atPath: databaseURL.path)
        else { return nil }
        // A -wal that cannot be examined counts as none: the open that follows says what it finds.
        let wal = (try? FileManager.default.attributesOfItem(atPath: databaseURL.path + "-wal")[.size] as? NSNumber)
        if let wal, wal.intValue > 0 {
            throw StoreError(
                .readOnly,
                "the data directory \(directory) is read-only and \(databaseURL.lastPathComponent)-wal holds changes only a writer can apply; make the directory writable once"
            )
        }
        var config = config
        config.readonly = true
        config.prepareDatabase { db in try db.execute(sql: "PRAGMA cache_size = -32768") }
        var components = URLComponents()
        components.scheme = "file"
        components.path = databaseURL.path
        components.queryItems = [URLQueryItem(name: "immutable", value: "1")]
        let queue = try DatabaseQueue(path: components.string ?? databaseURL.path, configuration: config)
        if try queue.read(isForeign) { throw foreignDatabase(databaseURL) }
        if let marker = try queue.read(Schema.newerBuildMarker) { return (queue, marker) }
        if try !queue.read(Schema.isCurrent) {
            throw StoreError(
                .readOnly,
                "the data directory \(directory) is read-only and \(databaseURL.lastPathComponent) needs an upgrade by this version; make the directory writable once"
            )
        }
        return (queue, nil)
    }

    /// Creates the data directory 0700, or tightens an existing one we can change.
    private static func prepareDirectory(_ directory: URL) throws {
        let fm = FileManager.default
        var isDirectory: ObjCBool = false
        if fm.fileExists(atPath: directory.path, isDirectory: &isDirectory) {
            guard isDirectory.boolValue else {
                throw StoreError(.io, "the data directory \(directory.path) is a file, not a directory")
            }
            // Take group and other access away; never add any (a read-only directory stays so).
            var info = stat()
            if stat(directory.path, &info) == 0, info.st_mode & 0o077 != 0 {
                _ = chmod(directory.path, info.st_mode & 0o700)
            }
        } else {
            do {
                try fm.createDirectory(
                    at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            } catch {
                throw StoreError(.readOnly, "cannot create the data directory \(directory.path): \(Self.reason(error))")
            }
        }
    }

    /// Refuses a database file another program made (tables, but no CloudNotes migrations)
    /// before anything is written to it: migrating would add our tables, and even opening a
    /// pool switches a rollback-journal database to WAL. A file that is not SQLite at all is
    /// refused from its header without being opened. A file a failed first start left behind
    /// (`isUnfinishedFirstStart`) is removed, so this open creates the store afresh.
    private static func checkIsOurs(_ databaseURL: URL) throws {
        guard var header = readHeader(databaseURL) else { return }
        // An empty file is not a new store: opening it would start a new device here and forget
        // this data directory's cloud folder binding. Another process creating the store this
        // moment has it empty for a few milliseconds: it is looked at again for half a second.
        for _ in 0..<10 where header.isEmpty {
            usleep(50_000)
            header = readHeader(databaseURL) ?? header
        }
        if header.allSatisfy({ $0 == 0 }), isUnfinishedFirstStart(databaseURL) {
            try removeUnfinishedDatabase(databaseURL)
            return
        }
        guard !header.isEmpty else {
            throw StoreError(
                .corrupt,
                "the database \(databaseURL.path) is empty (0 bytes): damaged or truncated; it was left untouched (restore it from a backup, or remove it to start this data directory afresh)"
            )
        }
        guard header.count == 100, header.prefix(16) == Data("SQLite format 3\0".utf8) else {
            throw StoreError(
                .corrupt,
                "the database \(databaseURL.path) is damaged or not a CloudNotes database (not an SQLite file); it was left untouched"
            )
        }
        // Byte 18 is 2 for WAL: that file is opened by the pool, and checked before migrating.
        guard header[18] == 1 else { return }
        var config = Configuration()
        config.readonly = true
        if try DatabaseQueue(path: databaseURL.path, configuration: config).read(isForeign) {
            throw foreignDatabase(databaseURL)
        }
    }

    /// The database files that SQLite keeps beside `notes.sqlite`.
    private static let companionSuffixes = ["-wal", "-shm", "-journal"]

    /// Whether an empty (or all-zero, header-less) database file is what a first start that failed
    /// (a full disk, a kill) leaves: no SQLite page was ever written to it or to a `-wal` beside it,
    /// and the data directory holds nothing else a store writes (attachments, a sync lock, a key).
    /// A store that ever held notes always has its header written, so nothing is lost by starting
    /// afresh; anything else in the directory says it was used, and it stays refused as damaged.
    static func isUnfinishedFirstStart(_ databaseURL: URL) -> Bool {
        let fm = FileManager.default
        let path = databaseURL.path
        // A file that cannot be examined is not known to be a failed first start: it is kept.
        guard let size = (try? fm.attributesOfItem(atPath: path))?[.size] as? NSNumber,
            size.intValue <= 1 << 20,
            let contents = fm.contents(atPath: path), contents.allSatisfy({ $0 == 0 })
        else { return false }
        // An unreadable -wal counts as empty here; only a 0-byte database with no -wal is replaced.
        let wal = (try? fm.attributesOfItem(atPath: path + "-wal"))?[.size] as? NSNumber
        guard (wal?.intValue ?? 0) == 0 else { return false }
        let directory = databaseURL.deletingLastPathComponent().path
        let name = databaseURL.lastPathComponent
        let ours = Set([name] + companionSuffixes.map { name + $0 })
        // Unlistable: not known to be a failed first start, so nothing is removed.
        guard let entries = try? fm.contentsOfDirectory(atPath: directory) else { return false }
        return entries.allSatisfy { ours.contains($0) }
    }

    /// Removes the database a failed first start left, and its companions.
    private static func removeUnfinishedDatabase(_ databaseURL: URL) throws {
        for suffix in [""] + companionSuffixes {
            let path = databaseURL.path + suffix
            guard unlink(path) == 0 || errno == ENOENT else {
                throw StoreError(
                    .readOnly,
                    "the database \(databaseURL.path) was left empty by a first start that failed, and cannot be removed to start afresh: \(String(cString: strerror(errno)))"
                )
            }
        }
    }

    /// The first 100 bytes of the database file; nil when there is no file.
    private static func readHeader(_ databaseURL: URL) -> Data? {
        guard let handle = FileHandle(forReadingAtPath: databaseURL.path) else { return nil }
        defer { try? handle.close() }
        // An unreadable header reads as empty: the open that follows reports the real error.
        return (try? handle.read(upToCount: 100)) ?? Data()
    }

    static func isForeign(_ db: Database) throws -> Bool {
        let tables = try Int.fetchOne(db, sql: "SELECT count(*) FROM sqlite_master WHERE type = 'table'") ?? 0
        return try tables > 0 && !db.tableExists("grdb_migrations")
    }

    static func foreignDatabase(_ databaseURL: URL) -> StoreError {
        StoreError(
            .corrupt,
            "\(databaseURL.path) is not a CloudNotes database (it holds another program's tables); it was left untouched"
        )
    }

    private static func restrictPermissions(of databaseURL: URL) {
        for suffix in ["", "-wal", "-shm"] {
            _ = chmod(databaseURL.path + suffix, 0o600)
        }
    }

    private static func ensureDeviceID(_ db: Database) throws -> String {
        if let existing = try String.fetchOne(db, sql: "SELECT value FROM sync_state WHERE key = 'deviceID'") {
            return existing
        }
        let id = DeviceID.random()
        try db.execute(sql: "INSERT INTO sync_state(key, value) VALUES ('deviceID', ?)", arguments: [id])
        return id
    }

    /// Maps SQLite's errors to what a user can act on; the database file is never modified.
    static func storeError(_ error: DatabaseError, path: String) -> StoreError {
        switch error.resultCode {
        case .SQLITE_NOTADB, .SQLITE_CORRUPT:
            return StoreError(
                .corrupt,
                "the database \(path) is damaged or not a CloudNotes database (\(error.message ?? "corrupt")); it was left untouched"
            )
        case .SQLITE_BUSY, .SQLITE_LOCKED:
            return StoreError(.locked, "the database \(path) is locked by another process; try again")
        case .SQLITE_READONLY, .SQLITE_CANTOPEN, .SQLITE_PERM, .SQLITE_AUTH:
            let directory = (path as NSString).deletingLastPathComponent
            if access(directory, W_OK) != 0, errno == EROFS || errno == EACCES {
                return StoreError(
                    .readOnly,
                    "the data directory \(directory) is read-only; CloudNotes must write there, even to read (SQLite's WAL keeps its index in notes.sqlite-shm)"
                )
            }
            return StoreError(.readOnly, "cannot write the database \(path): \(error.message ?? "read-only")")
        case .SQLITE_FULL:
            return StoreError(.io, "the disk is full; nothing was saved (\(path))")
        case .SQLITE_IOERR where diskIsFull((path as NSString).deletingLastPathComponent):
            // SQLite reports a -shm it cannot grow on a full disk as an I/O error.
            return StoreError(.io, "the disk is full; free some space (\(path))")
        default:
            return StoreError(.io, "database error in \(path): \(error.message ?? "\(error.resultCode)")")
        }
    }

    /// Whether the file system holding `directory` has no space left for an unprivileged writer.
    static func diskIsFull(_ directory: String) -> Bool {
        var info = statvfs()
        guard statvfs(directory, &info) == 0 else { return false }
        return UInt64(info.f_bavail) * UInt64(info.f_frsize) < 64 * 1024
    }

    static func reason(_ error: Error) -> String {
        (error as NSError).localizedFailureReason ?? (error as NSError).localizedDescription
    }

    /// Runs a write transaction, mapping SQLite errors to `StoreError`.
    /// The notes it indexed become one search segment before it commits (`SearchIndex.flush`).
    func write<T>(_ updates: (Database) throws -> T) throws -> T {
        if let readOnlyReason { throw StoreError(.readOnly, readOnlyReason) }
        if isOpenForReading {
            throw StoreError(.readOnly, "the database \(databaseURL.path) was opened for reading only")
        }
        do {
            return try pool.write { db in
                defer { pendingIndex.reset() }
                let result = try updates(db)
                try SearchIndex.flush(pendingIndex, db)
                return result
            }
        } catch let error as DatabaseError {
            throw Self.storeError(error, path: databaseURL.path)
        }
    }

    /// Runs a read, mapping SQLite errors to `StoreError`.
    func read<T>(_ value: (Database) throws -> T) throws -> T {
        do {
            return try pool.read(value)
        } catch let error as DatabaseError {
            throw Self.storeError(error, path: databaseURL.path)
        }
    }

    /// `PRAGMA integrity_check`; "ok" when the database is sound.
    public func integrityCheck() throws -> String {
        try read { db in try String.fetchAll(db, sql: "PRAGMA integrity_check").joined(separator: "\n") }
    }
}

/// Random device ids: 16 lowercase base32 characters (80 bits). Internal: CloudFolder's
/// `DeviceID` is the type other layers use.
enum DeviceID {
    static let alphabet = Array("abcdefghijklmnopqrstuvwxyz234567")

    static func random() -> String {
        var rng = SystemRandomNumberGenerator()
        return String((0..<16).map { _ in alphabet[Int(rng.next() % 32)] })
    }
}

extension Database {
    /// Runs `sql` through the connection's statement cache: hot write paths prepare once.
    func run(_ sql: String, _ arguments: StatementArguments = []) throws {
        try cachedStatement(sql: sql).execute(arguments: arguments)
    }
}
