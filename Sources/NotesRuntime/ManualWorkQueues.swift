import Synchronization

/// `WorkQueues` that run nothing by themselves: work waits, in the order it was enqueued,
/// until the runtime settles (`NotesRuntime.runUntilIdle`) and runs it on its own thread, so a
/// test sees every effect's answer without waiting on another thread (the twin of
/// `DispatchWorkQueues`, as `TestBackend` is the terminal's).
public final class ManualWorkQueues: WorkQueues {
    private let waiting = Mutex<[(lane: WorkLane, work: @Sendable () -> Void)]>([])

    public init() {}

    public func async(_ lane: WorkLane, _ work: @escaping @Sendable () -> Void) {
        waiting.withLock { $0.append((lane, work)) }
    }

    /// Runs the lane's waiting work, oldest first, on the caller's thread (work it enqueues
    /// on the lane meanwhile included).
    public func wait(for lane: WorkLane) {
        while let work = take(where: { $0 == lane }) { work() }
    }

    public func runNext() -> Bool {
        guard let work = take(where: { _ in true }) else { return false }
        work()
        return true
    }

    /// How many pieces of work are waiting.
    public var count: Int { waiting.withLock { $0.count } }

    private func take(where matches: (WorkLane) -> Bool) -> (@Sendable () -> Void)? {
        waiting.withLock { waiting in
            guard let index = waiting.firstIndex(where: { matches($0.lane) }) else { return nil }
            return waiting.remove(at: index).work
        }
    }
}
