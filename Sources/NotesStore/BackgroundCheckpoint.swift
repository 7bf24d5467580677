import Foundation
import GRDB
import NotesCore
import Synchronization

/// Copies a bulk write's WAL frames into the database on a connection of its own.
///
/// SQLite checkpoints inside the commit that takes the WAL past 1,000 pages, so every 10,000
/// notes of an import (or group of fetched batches) waited ~0.6 s here for tens of MB to be
/// copied and synced. A bulk write turns that off for its transaction (`NoteStore.bulkWrite`)
/// and starts a PASSIVE checkpoint here after the commit: it copies what is committed while
/// the next transaction is being written, and never blocks a reader or the writer.
///
/// The price is disk space: the WAL can only start over once every frame is copied, so during
/// a run of bulk writes it grows. Past `walLimit` bytes the next bulk write first waits for
/// the copy and truncates the WAL.
final class BackgroundCheckpoint: Sendable {
    /// WAL size above which a bulk write waits for the copy and starts the WAL over.
    static let walLimit = 256 << 20

    private struct State {
        /// Opened on first use.
        var connection: DatabaseQueue?
        var running: BackgroundResult<Void>?
    }

    private let path: String
    private let state = Mutex(State())

    init(path: String) { self.path = path }

    /// Starts a checkpoint unless one is still running (the next one catches up).
    func start() {
        state.withLock { state in
            if let running = state.running, !running.isFinished { return }
            let path = self.path
            let existing = state.connection
            state.running = BackgroundResult { [weak self] in
                let queue = try existing ?? DatabaseQueue(path: path)
                self?.keep(queue)
                // A failure (busy: another process checkpoints) only leaves the copy for later.
                _ = try? queue.writeWithoutTransaction { try $0.checkpoint(.passive) }
            }
        }
    }

    /// Waits for the running checkpoint, if any.
    func wait() {
        _ = try? state.withLock { $0.running }?.get()
    }

    var walSize: Int {
        // Unknown size counts as 0: the checkpoint waits for the next write; nothing is lost.
        ((try? FileManager.default.attributesOfItem(atPath: path + "-wal")[.size]) as? NSNumber)?.intValue ?? 0
    }

    private func keep(_ queue: DatabaseQueue) { state.withLock { $0.connection = queue } }
}

extension NoteStore {
    /// A write transaction of many notes (when `isBulk`): no checkpoint inside its commit; one
    /// is started on another connection after it (`BackgroundCheckpoint`).
    ///
    /// Its statement journals are kept in memory (`temp_store = MEMORY`): a statement that may
    /// fail after changing rows (an insert with a trigger or a foreign key) first copies each
    /// page it changes that the transaction did not create, and past 64 KB SQLite writes that
    /// copy to a temporary file. In a transaction of 1,000 notes that was a `pwrite` of 4 KB
    /// per index page per statement, 14% of an import's writer thread (perf, issue 27). Only
    /// here: a VACUUM with it would build its copy of the whole database in memory.
    func bulkWrite<T>(_ isBulk: Bool = true, _ updates: (Database) throws -> T) throws -> T {
        guard isBulk else { return try write(updates) }
        if checkpoint.walSize > BackgroundCheckpoint.walLimit { finishCheckpoints() }
        // (Should the setting fail, the commit checkpoints as usual, and the journals go to disk.)
        try? setBulkPragmas(true)
        defer { try? setBulkPragmas(false) }
        let result = try write(updates)
        checkpoint.start()
        return result
    }

    /// Waits for the background copy, then copies what is left and truncates the WAL (readers
    /// get the busy timeout to finish; a WAL still in use is left for later).
    func finishCheckpoints() {
        checkpoint.wait()
        _ = try? pool.writeWithoutTransaction { db in try db.checkpoint(.truncate) }
    }

    /// No automatic checkpoint and statement journals in memory for a bulk write; else SQLite's
    /// defaults (a checkpoint past 1,000 pages, temporary files on disk).
    private func setBulkPragmas(_ bulk: Bool) throws {
        try pool.writeWithoutTransaction { db in
            try db.execute(
                sql: bulk
                    ? "PRAGMA wal_autocheckpoint = 0; PRAGMA temp_store = MEMORY"
                    : "PRAGMA wal_autocheckpoint = 1000; PRAGMA temp_store = DEFAULT")
        }
    }
}
