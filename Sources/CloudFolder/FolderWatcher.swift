import Foundation
import Glibc
import NotesCore
import Synchronization

/// Watches a folder tree with inotify and calls back when something in it may have changed,
/// with a slow fallback poll for file systems where inotify does not see remote writes
/// (NFS, SMB, FUSE mounts): ARCHITECTURE §4.
///
/// One thread blocks in `poll(2)` on the inotify descriptor and a stop pipe, with the poll
/// interval as its timeout: no busy polling. Folders created later (a new device's log
/// folder, a new segment) are watched as their creation is reported. Bursts of events (a
/// publication is a create, a write and a rename) are drained for `settle` before one
/// callback. Symlinks are never followed (`IN_DONT_FOLLOW`, and `lstat` while walking).
public final class FolderWatcher: ChangeWatcher, Sendable {
    /// Which events count as a change.
    public enum Events: Sendable {
        /// Entries created, renamed in, closed after writing or removed (a cloud folder).
        case entries
        /// Also every write (a data directory, where SQLite appends to its WAL).
        case writes
    }

    public let root: String
    private let pollInterval: Double
    private let maxDepth: Int
    private let mask: UInt32
    private let settle: Duration
    private let clock: any Clock<Duration>
    private let onChange: @Sendable () -> Void
    private let inotify: Int32
    private let stopPipe: (read: Int32, write: Int32)
    /// Signalled when the watching thread has closed its descriptors and returned.
    private let exited = DispatchSemaphore(value: 0)
    /// A watcher with nothing to watch polls on this schedule (`pollingOnly`); nil: every
    /// `pollInterval`.
    private let adaptive: AdaptivePoll?
    private let state = Mutex(State())

    /// What the watching thread and the callers share.
    private struct State {
        /// The watched folders by watch descriptor.
        var paths: [Int32: (path: String, depth: Int)] = [:]
        var stopped = false
        var thread: Thread?
        var ended = false
        /// The settle's sleep on an injected clock and the semaphore the thread waits on: `stop`
        /// cancels the one and signals the other, so the thread ends without any task running
        /// (the cooperative pool may be busy, even with threads blocked in `stop`).
        var settling: (task: Task<Void, Never>, woken: DispatchSemaphore)?
        /// Uptime (ns) of the last look and of the last activity, for `adaptive`.
        var lastLook = DispatchTime.now().uptimeNanoseconds
        var lastActivity: UInt64?
    }

    /// Starts watching `root` and the folders below it down to `maxDepth` (0: `root` only);
    /// with `adaptive`, the fallback poll follows that schedule instead of `pollInterval`.
    public init(
        root: String, pollInterval: Double = 30, maxDepth: Int = 8, events: Events = .entries,
        settle: Duration = .milliseconds(5), clock: any Clock<Duration> = ContinuousClock(),
        adaptive: AdaptivePoll? = nil, onChange: @escaping @Sendable () -> Void
    ) throws {
        self.root = root
        self.adaptive = adaptive
        self.pollInterval = pollInterval
        self.maxDepth = maxDepth
        self.settle = settle
        self.clock = clock
        self.onChange = onChange
        var mask = UInt32(IN_CREATE | IN_MOVED_TO | IN_MOVED_FROM | IN_CLOSE_WRITE | IN_DELETE | IN_DELETE_SELF)
        if events == .writes { mask |= UInt32(IN_MODIFY) }
        self.mask = mask | UInt32(IN_DONT_FOLLOW | IN_ONLYDIR)
        inotify = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        guard inotify >= 0 else { throw CloudError(errno: errno, operation: "inotify_init1", path: root) }
        var fds: [Int32] = [0, 0]
        guard pipe(&fds) == 0 else {
            let number = errno
            Glibc.close(inotify)
            throw CloudError(errno: number, operation: "pipe2", path: nil)
        }
        stopPipe = (fds[0], fds[1])
        for fd in fds { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        state.withLock { state in
            addTree(root, depth: 0, into: &state.paths)
            // Made here: a `Thread` is not Sendable, so it never leaves the state.
            let thread = Thread { [self] in run() }
            thread.name = "cloudnotes.watcher"
            state.thread = thread
            thread.start()
        }
    }

    deinit {
        stop()
    }

    /// Stops watching. When it returns (called from any thread but the watcher's own, i.e. not
    /// from `onChange`), the watching thread has ended: no callback runs any more.
    public func stop() {
        let first = state.withLock { state in
            defer { state.stopped = true }
            return !state.stopped
        }
        guard first else { return }
        if let settling = state.withLock({ $0.settling }) {
            settling.task.cancel()
            settling.woken.signal()
        }
        var byte: UInt8 = 1
        _ = Glibc.write(stopPipe.write, &byte, 1)
        if !state.withLock({ $0.thread == Thread.current }) { exited.wait() }
    }

    /// Whether the watching thread has ended (for tests).
    public var hasEnded: Bool { state.withLock { $0.ended } }

    /// How many folders are watched now (for tests).
    public var watchedFolderCount: Int { state.withLock { $0.paths.count } }

    /// The poll interval now (seconds): `adaptive`'s, or the fixed one.
    public var currentInterval: Double {
        guard let adaptive else { return pollInterval }
        let since = state.withLock { $0.lastActivity }.map { Double(DispatchTime.now().uptimeNanoseconds &- $0) / 1e9 }
        return adaptive.interval(sinceActivity: since)
    }

    public func noteActivity() {
        state.withLock { $0.lastActivity = DispatchTime.now().uptimeNanoseconds }
    }

    private func run() {
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        let fixed = Int32(min(pollInterval * 1000, Double(Int32.max)))
        while true {
            var fds = [
                pollfd(fd: inotify, events: Int16(POLLIN), revents: 0),
                pollfd(fd: stopPipe.read, events: Int16(POLLIN), revents: 0),
            ]
            // An adaptive schedule wakes every second to see whether its interval has passed.
            let timeout = adaptive == nil ? fixed : min(fixed, 1000)
            let ready = poll(&fds, 2, timeout)
            if state.withLock({ $0.stopped }) || fds[1].revents != 0 { break }
            if ready == 0 {
                if adaptive != nil {
                    let now = DispatchTime.now().uptimeNanoseconds
                    let due = currentInterval
                    let waited = state.withLock { Double(now &- $0.lastLook) / 1e9 }
                    if waited < due { continue }
                    state.withLock { $0.lastLook = now }
                }
                // The fallback poll: a remote write inotify could not see.
                state.withLock { addTree(root, depth: 0, into: &$0.paths) }
                onChange()
                continue
            }
            guard ready > 0 else {
                if errno == EINTR { continue }
                break
            }
            var changed = drain(&buffer)
            // Let the rest of a burst arrive, so one publication is one callback.
            if settle > .zero {
                sleepOnClock(settle)
                changed = drain(&buffer) || changed
            }
            if changed { onChange() }
        }
        Glibc.close(inotify)
        Glibc.close(stopPipe.read)
        Glibc.close(stopPipe.write)
        state.withLock { $0.ended = true }
        exited.signal()
    }

    /// Sleeps this (the watcher's own) thread for `duration` on `clock`: the continuous clock
    /// sleeps the thread as before; another (a test clock) is awaited, so it holds the settle
    /// until the test advances it or `stop` cancels it (a clock that never moves must not keep
    /// `stop` waiting for this thread).
    private func sleepOnClock(_ duration: Duration) {
        if clock is ContinuousClock {
            let (seconds, attoseconds) = duration.components
            usleep(UInt32(min(Int64(UInt32.max), seconds * 1_000_000 + attoseconds / 1_000_000_000_000)))
            return
        }
        let woken = DispatchSemaphore(value: 0)
        let clock = clock
        let task = Task.detached {
            // Cancelled: the watcher is stopping.
            try? await clock.sleep(for: duration)
            woken.signal()
        }
        let stopping = state.withLock { state in
            state.settling = (task, woken)
            return state.stopped
        }
        if stopping { task.cancel() } else { woken.wait() }
        state.withLock { $0.settling = nil }
    }

    /// Reads every pending event; watches new folders; returns true when any event counted.
    private func drain(_ buffer: inout [UInt8]) -> Bool {
        var changed = false
        while true {
            let count = buffer.withUnsafeMutableBytes { Glibc.read(inotify, $0.baseAddress, $0.count) }
            guard count > 0 else { return changed }
            for event in InotifyRecords.parse(buffer, count: count) {
                let (wd, eventMask, name) = (event.wd, event.mask, event.name)
                if eventMask & UInt32(IN_Q_OVERFLOW) != 0 {
                    state.withLock { addTree(root, depth: 0, into: &$0.paths) }
                    changed = true
                    continue
                }
                if eventMask & UInt32(IN_IGNORED) != 0 {
                    _ = state.withLock { $0.paths.removeValue(forKey: wd) }
                    continue
                }
                changed = true
                if eventMask & UInt32(IN_ISDIR) != 0, eventMask & UInt32(IN_CREATE | IN_MOVED_TO) != 0, !name.isEmpty,
                    !name.contains("/")
                {
                    state.withLock { state in
                        if let parent = state.paths[wd], parent.depth < maxDepth {
                            addTree(parent.path + "/" + name, depth: parent.depth + 1, into: &state.paths)
                        }
                    }
                }
            }
        }
    }

    /// Watches `path` and its folders, recording them in `paths` (the state's, under its lock).
    /// Already-watched folders keep their watch: inotify returns the same descriptor.
    private func addTree(_ path: String, depth: Int, into paths: inout [Int32: (path: String, depth: Int)]) {
        var info = stat()
        guard lstat(path, &info) == 0, info.st_mode & S_IFMT == S_IFDIR else { return }
        let wd = inotify_add_watch(inotify, path, mask)
        guard wd >= 0 else { return }
        let known = paths[wd] != nil
        paths[wd] = (path, depth)
        guard depth < maxDepth, !known || depth == 0 else { return }
        guard let directory = opendir(path) else { return }
        defer { closedir(directory) }
        var children: [String] = []
        while let entry = readdir(directory) {
            guard entry.pointee.d_type == DT_DIR || entry.pointee.d_type == DT_UNKNOWN else { continue }
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name != "." && name != ".." { children.append(name) }
        }
        for child in children { addTree(path + "/" + child, depth: depth + 1, into: &paths) }
    }
}
