import Foundation
import NotesStore
import Synchronization

/// Keeps the notes folder in step one tick at a time, for whoever owns the clock: `MirrorWatch`
/// sleeps between ticks, the app calls `tick` from a timer of its own. Each tick looks at the
/// folder's files (their stats) and whether another connection committed to the store
/// (`ExternalChangeWatcher`), and makes a pass when either moved.
///
/// Only one keeper per data directory mirrors (`WatchLock`): another one's ticks say once that
/// the folder is kept elsewhere and then do nothing until that keeper ends.
public final class MirrorKeeper: Sendable {
    /// What a tick did.
    public enum Step: Sendable {
        /// Nothing changed, or nothing new to say.
        case quiet
        /// A pass that did something.
        case passed(MirrorReport)
        /// A pass that failed; the next tick tries again.
        case failed(any Error)
        /// Another process keeps the folder (its id when known); said once, until that changes.
        case keptElsewhere(pid: Int32?)
    }

    private struct Turn {
        var mirror: FolderMirror?
        var lock: WatchLock?
        var lastScan: [String: FileStat]?
        var sinceSweep = Duration.zero
        var saidElsewhere = false
        var finished = false
    }

    private let makeMirror: @Sendable () throws -> FolderMirror
    private let dataDirectory: String
    private let sweep: Duration
    private let watcher: ExternalChangeWatcher
    /// Set when another connection (the app's writes, a sync, the CLI) committed to the store.
    private let storeChanged: Flag
    private let turn = Mutex(Turn())

    private final class Flag: Sendable {
        let value = Atomic<Bool>(true)
    }

    /// `sweep`: a pass at least this often even when nothing looked changed, since a file saved
    /// twice within the file system's time granularity keeps its stat (`FileRecord.mayHaveChanged`).
    public init(
        store: NoteStore, dataDirectory: String, sweep: Duration = .seconds(2),
        makeMirror: @escaping @Sendable () throws -> FolderMirror
    ) throws {
        self.makeMirror = makeMirror
        self.dataDirectory = dataDirectory
        self.sweep = sweep
        let changed = Flag()
        storeChanged = changed
        watcher = try store.externalChangeWatcher { changed.value.store(true, ordering: .sequentiallyConsistent) }
    }

    /// One look, and a pass when something changed; `elapsed` is the time since the last tick.
    public func tick(elapsed: Duration) -> Step {
        turn.withLock { turn in
            guard !turn.finished else { return .quiet }
            turn.sinceSweep += elapsed
            do {
                if turn.lock == nil {
                    guard let lock = try WatchLock.take(directory: dataDirectory) else {
                        if turn.saidElsewhere { return .quiet }
                        turn.saidElsewhere = true
                        return .keptElsewhere(pid: WatchLock.holder(directory: dataDirectory))
                    }
                    turn.lock = lock
                    turn.saidElsewhere = false
                    turn.lastScan = nil
                }
                let mirror = try turn.mirror ?? makeMirror()
                turn.mirror = mirror
                watcher.checkNow()
                // A folder that cannot be listed reads as changed: the pass then says why.
                let scan = try? FolderScan.scan(mirror.root, expecting: turn.lastScan?.count ?? 0)
                let isSweep = turn.sinceSweep >= sweep
                // A file read or written less than the clock's granularity ago may be saved again
                // with the same stat: it is hashed again at each tick until that window closes.
                let due =
                    storeChanged.value.exchange(false, ordering: .sequentiallyConsistent) || scan == nil
                    || scan != turn.lastScan || isSweep || mirror.hasRacilyCleanFiles
                guard due else { return .quiet }
                // A pass reads only the files whose stat moved and writes only the notes whose
                // head moved; the sweep also looks at the attachment folders.
                if isSweep { turn.sinceSweep = .zero }
                let done = try mirror.sync(scan: scan, sweep: isSweep)
                // The pass's own writes are not a change to look at again, while a file another
                // program saved during the pass still differs from this look (a second walk
                // after the pass would take that save for the pass's own and miss it until the
                // sweep).
                turn.lastScan = scan.map { scan in
                    var next = scan
                    for path in mirror.written { next[path] = FileStat.of(mirror.root + "/" + path) }
                    return next
                }
                return done.isEmpty ? .quiet : .passed(done)
            } catch {
                turn.lastScan = nil
                return .failed(error)
            }
        }
    }

    /// A last pass, when this keeper holds the folder (the app's last save reaches its file),
    /// then lets another keeper take over; ticks after it do nothing.
    public func finish() -> Step {
        let step = turn.withLock { turn -> Step in
            guard !turn.finished else { return .quiet }
            turn.finished = true
            guard turn.lock != nil, let mirror = turn.mirror else { return .quiet }
            do {
                let done = try mirror.sync()
                return done.isEmpty ? .quiet : .passed(done)
            } catch {
                return .failed(error)
            }
        }
        watcher.cancel()
        turn.withLock { $0.lock = nil }
        return step
    }
}
