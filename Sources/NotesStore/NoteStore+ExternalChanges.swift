import Foundation
import GRDB

/// Watches the database for commits made through other connections, another process's above
/// all (a `cloudnotes add` beside the TUI), which GRDB observation does not see.
///
/// It polls `PRAGMA data_version` on a read-only connection of its own: SQLite changes that
/// value whenever another connection has committed to the database since the last call on the
/// same connection. The check reads the WAL index in shared memory and touches no table, so
/// polling every few hundred milliseconds costs next to nothing.
// Unchecked: its mutable properties, `lastVersion` and `cancelled`, are only touched on `queue`.
public final class ExternalChangeWatcher: @unchecked Sendable {
    private let queue = DispatchQueue(label: "cloudnotes.store.data-version")
    /// Nil when the caller's own timer calls `checkNow`.
    private let timer: DispatchSourceTimer?
    private let connection: DatabaseQueue
    private let onChange: @Sendable () -> Void
    /// The last value seen; read and written on `queue` only.
    private var lastVersion: Int?
    private var cancelled = false

    init(databasePath: String, interval: Duration?, onChange: @escaping @Sendable () -> Void) throws {
        var config = Configuration()
        config.readonly = true
        config.busyMode = .timeout(1)
        connection = try DatabaseQueue(path: databasePath, configuration: config)
        self.onChange = onChange
        lastVersion = try connection.read { db in try Int.fetchOne(db, sql: "PRAGMA data_version") }
        guard let interval else {
            timer = nil
            return
        }
        let timer = DispatchSource.makeTimerSource(queue: queue)
        self.timer = timer
        let (seconds, attoseconds) = interval.components
        let nanoseconds = Int(seconds) * 1_000_000_000 + Int(attoseconds / 1_000_000_000)
        timer.schedule(
            deadline: .now() + .nanoseconds(nanoseconds), repeating: .nanoseconds(nanoseconds),
            leeway: .milliseconds(20))
        timer.setEventHandler { [weak self] in self?.check() }
        timer.resume()
    }

    /// Checks once now, on the caller's thread; `onChange` is called before it returns if
    /// another connection committed since the last check.
    public func checkNow() {
        queue.sync { check() }
    }

    private func check() {
        guard !cancelled else { return }
        // A failed check (the file briefly locked) is retried at the next tick.
        guard let version = try? connection.read({ db in try Int.fetchOne(db, sql: "PRAGMA data_version") }),
            version != lastVersion
        else { return }
        lastVersion = version
        onChange()
    }

    /// Stops the checks; no `onChange` starts after this returns.
    public func cancel() {
        timer?.cancel()
        queue.sync { cancelled = true }
    }

    deinit { timer?.cancel() }
}

extension NoteStore {
    /// Calls `onChange` (on a queue of its own) after any other connection committed, at most
    /// `interval` late. That includes this process's own writes, which `observeNoteChanges`
    /// reports sooner; callers coalesce.
    public func watchExternalChanges(
        every interval: Duration = .milliseconds(300), onChange: @escaping @Sendable () -> Void
    ) throws -> ExternalChangeWatcher {
        do {
            return try ExternalChangeWatcher(databasePath: databaseURL.path, interval: interval, onChange: onChange)
        } catch let error as DatabaseError {
            throw Self.storeError(error, path: databaseURL.path)
        }
    }

    /// A watcher like `watchExternalChanges`'s that checks only when its owner calls
    /// `checkNow()` (the TUI runtime, on its own timers).
    public func externalChangeWatcher(onChange: @escaping @Sendable () -> Void) throws -> ExternalChangeWatcher {
        do {
            return try ExternalChangeWatcher(databasePath: databaseURL.path, interval: nil, onChange: onChange)
        } catch let error as DatabaseError {
            throw Self.storeError(error, path: databaseURL.path)
        }
    }
}
