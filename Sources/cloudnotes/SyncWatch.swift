import CloudFolder
import Foundation
import Glibc
import NotesCore
import NotesStore
import NotesSync

/// `cloudnotes sync --watch`: the engine syncing on its own in the foreground until SIGINT or
/// SIGTERM, printing each status change.
///
/// Remote changes arrive through the cloud folder's watcher (and its fallback poll); local
/// changes made by other processes on this device (`cloudnotes add`, the TUI) are noticed by a
/// second watcher on the data directory, where SQLite writes its WAL, and sent after the
/// debounce.
enum SyncWatch {
    /// `shared`: the engines of the shared places joined (`ShareSync.automaticEngines`), run
    /// beside the cloud folder's; their lines start with the notebook's name.
    /// `context`: with a notes folder set (`files on`), it is kept in step too.
    static func run(
        _ engine: SyncEngine, store: NoteStore, shared: [(name: String, engine: SyncEngine)] = [],
        context: Context? = nil
    ) throws {
        signal(SIGINT, SIG_IGN)
        signal(SIGTERM, SIG_IGN)
        let queue = DispatchQueue(label: "cloudnotes.signals")
        let sources = [SIGINT, SIGTERM].map { DispatchSource.makeSignalSource(signal: $0, queue: queue) }
        for source in sources {
            source.setEventHandler {
                Task {
                    for other in shared { await other.engine.stop() }
                    await engine.stop()
                }
            }
            source.resume()
        }
        let files = try context.flatMap { try FilesSetup.watchInBackground($0, store) }
        defer { files?.cancel() }
        let local = try engine.watchLocalWrites(in: store.directory.path)
        let sharedLocal = try shared.map { try $0.engine.watchLocalWrites(in: store.directory.path) }
        defer {
            local.stop()
            for watcher in sharedLocal { watcher.stop() }
            for source in sources { source.cancel() }
        }
        let followers = shared.map { other in
            Task {
                let updates = other.engine.statusUpdates
                await other.engine.start()
                for await status in updates { Output.line("\(other.name): \(describe(status))") }
            }
        }
        defer { for follower in followers { follower.cancel() } }
        try Blocking.run {
            let updates = engine.statusUpdates
            await engine.start()
            for await status in updates { Output.line(describe(status)) }
        }
    }

    /// One line per status, as the status bar would say it.
    static func describe(_ status: SyncStatus) -> String {
        let counts = "pending \(status.pendingCount), conflicts \(status.conflictCount)"
        switch status.phase {
        case .localOnly: return "local only"
        case .idle(let last): return "synced \(last.map(Format.iso) ?? "never") (\(counts))"
        case .syncing(let done, let total): return "syncing \(done)/\(total)"
        case .offline(let reason): return "offline: \(reason)"
        case .signInFailed(let reason): return "sign-in failed: \(reason)"
        case .error(let message): return "error: \(message)"
        }
    }
}
