import Foundation
import NotesStore
import Synchronization

/// Keeps the notes folder in step one tick at a time, for whoever owns the clock: `MirrorWatch`
/// sleeps between ticks, the app calls `tick` from a timer of its own. Each tick looks at the
/// folder's files and whether another connection committed to the store
/// (`ExternalChangeWatcher`), and makes a pass when either moved. With inotify (`FolderEvents`)
/// a tick stats only the paths its events name and a pass reads only those; without it, or when
/// events were lost, a tick walks every file's stat.
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
        /// The folder's inotify events; nil: none (not set up yet, or not possible: polled).
        var events: FolderEvents?
        var look = Look()
        var sinceSweep = Duration.zero
        var saidElsewhere = false
        var finished = false
    }

    private let makeMirror: @Sendable () throws -> FolderMirror
    private let dataDirectory: String
    private let sweep: Duration
    private let liveSweep: Duration
    private let watchEvents: Bool
    private let watcher: ExternalChangeWatcher
    /// Set when another connection (the app's writes, a sync, the CLI) committed to the store.
    private let storeChanged: Flag
    private let turn = Mutex(Turn())

    private final class Flag: Sendable {
        let value = Atomic<Bool>(true)
    }

    /// `sweep`: a pass over every file at least this often even when nothing looked changed,
    /// since a file saved twice within the file system's time granularity keeps its stat
    /// (`FileRecord.mayHaveChanged`); `liveSweep`: the same while inotify reports the folder's
    /// changes (a second save is an event), the net for what it misses (network file systems).
    /// `watchEvents`: false to poll without inotify.
    public init(
        store: NoteStore, dataDirectory: String, sweep: Duration = .seconds(2), liveSweep: Duration = .seconds(30),
        watchEvents: Bool = true, makeMirror: @escaping @Sendable () throws -> FolderMirror
    ) throws {
        self.makeMirror = makeMirror
        self.dataDirectory = dataDirectory
        self.sweep = sweep
        self.liveSweep = max(sweep, liveSweep)
        self.watchEvents = watchEvents
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
                    turn.events = nil
                }
                let mirror = try turn.mirror ?? makeMirror()
                turn.mirror = mirror
                // Set up before a walk, so that what changes after it is an event; when inotify
                // could not be set up, tried again at each sweep.
                let fresh = turn.events == nil && watchEvents && (turn.lastScan == nil || turn.sinceSweep >= sweep)
                if fresh { turn.events = FolderEvents(root: mirror.root) }
                watcher.checkNow()
                let storeMoved = storeChanged.value.exchange(false, ordering: .sequentiallyConsistent)
                let batch = turn.events?.drain()
                // Events lost (a full queue, a folder that could not be watched): polled as without.
                let live = batch.map { !$0.lost } ?? false
                var isSweep = turn.sinceSweep >= (live ? liveSweep : sweep)
                var look = Look()
                defer { turn.look = look }
                var scan: [String: FileStat]?
                var changed: Set<String>?
                var attachmentFolders: [String]?
                if let batch, let last = turn.lastScan, !isSweep, !fresh,
                    let seen = Self.listing(after: batch, last: last, root: mirror.root)
                {
                    // The events say what moved: nothing is walked.
                    look.statted = seen.statted
                    turn.lastScan = seen.scan
                    guard storeMoved || !seen.changed.isEmpty || seen.attachments else { return .quiet }
                    scan = seen.scan
                    changed = seen.changed
                    // A file added beside a note is read by a sweep's look at the attachment folders.
                    isSweep = seen.attachments
                } else {
                    // Events lost (a full queue, an unwatched folder): watch again, then walk.
                    if batch?.lost == true { turn.events?.rewatch() }
                    look.walked = true
                    // A folder that cannot be listed reads as changed: the pass then says why.
                    let listing = try? FolderScan.listing(mirror.root, expecting: turn.lastScan?.count ?? 0)
                    scan = listing?.files
                    attachmentFolders = listing?.attachmentFolders
                    // Without inotify, a file read or written less than the clock's granularity ago
                    // may be saved again with the same stat: it is hashed again at each tick until
                    // that window closes (with inotify, that second save is an event).
                    // The listing is compared last: at 100k notes it is 100k lookups.
                    let due =
                        isSweep || storeMoved || scan == nil || (!live && mirror.hasRacilyCleanFiles)
                        || scan != turn.lastScan
                    guard due else { return .quiet }
                }
                look.passed = true
                // A pass reads only the files whose stat moved and writes only the notes whose
                // head moved; the sweep also looks at the attachment folders.
                if isSweep { turn.sinceSweep = .zero }
                let done = try mirror.sync(
                    scan: scan, changed: changed, sweep: isSweep, attachmentFolders: attachmentFolders)
                look.heads = mirror.headsRead
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

    /// What the last tick looked at.
    public var lastLook: Look { turn.withLock { $0.look } }

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
        turn.withLock {
            $0.lock = nil
            $0.events = nil
        }
        return step
    }
}
