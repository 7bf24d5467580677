import Foundation
import NotesStore
import Synchronization

/// Runs the mirror while the folder or the store changes: every `interval` it looks at the
/// folder's files (their stats) and whether another connection committed to the store
/// (`ExternalChangeWatcher`), and makes a pass when either moved, so a change reaches the other
/// side within about `interval` plus a pass. The clock is injected; tests step it.
public struct MirrorWatch: Sendable {
    public var interval: Duration
    /// A pass at least this often even when nothing looked changed: a file saved twice within
    /// the file system's time granularity keeps its stat (`FileRecord.mayHaveChanged`).
    public var sweep: Duration

    public init(interval: Duration = .milliseconds(250), sweep: Duration = .seconds(2)) {
        self.interval = interval
        self.sweep = sweep
    }

    /// Runs passes of the mirror `makeMirror` returns until the task is cancelled; each pass
    /// that did something, or failed, goes to `report` (a failing pass is retried next tick).
    public func run(
        store: NoteStore, clock: any Clock<Duration>, makeMirror: () throws -> FolderMirror,
        report: (Result<MirrorReport, any Error>) -> Void
    ) async throws {
        let storeChanged = Atomic<Bool>(true)
        let watcher = try store.externalChangeWatcher { storeChanged.store(true, ordering: .sequentiallyConsistent) }
        defer { watcher.cancel() }
        let mirror = try makeMirror()
        var lastScan: [String: FileStat]?
        var sinceSweep = Duration.zero
        while !Task.isCancelled {
            watcher.checkNow()
            // A folder that cannot be listed reads as changed: the pass then says why.
            let scan = try? FolderScan.scan(mirror.root)
            let due =
                storeChanged.exchange(false, ordering: .sequentiallyConsistent) || scan == nil || scan != lastScan
                || sinceSweep >= sweep
            if due {
                sinceSweep = .zero
                do {
                    let done = try mirror.sync()
                    if !done.isEmpty { report(.success(done)) }
                    // The pass's own writes are not a change to look at again (nil: look again).
                    lastScan = try? FolderScan.scan(mirror.root)
                } catch {
                    lastScan = nil
                    report(.failure(error))
                }
            }
            do {
                try await clock.sleep(for: interval)
            } catch {
                return  // cancelled
            }
            sinceSweep += interval
        }
    }
}
