import Synchronization

/// A timer that fires every `interval` on a `TimerScheduler` until cancelled (the relative-time
/// tick, the check for other processes' commits).
final class RepeatingTimer: Sendable {
    private let timers: any TimerScheduler
    private let interval: Duration
    private let fire: @Sendable () -> Void
    /// The timer waiting now; nil once cancelled.
    private let next = Mutex<ScheduledTimer?>(nil)
    private let cancelled = Atomic(false)

    init(every interval: Duration, on timers: any TimerScheduler, _ fire: @escaping @Sendable () -> Void) {
        self.timers = timers
        self.interval = interval
        self.fire = fire
        scheduleNext()
    }

    func cancel() {
        cancelled.store(true, ordering: .sequentiallyConsistent)
        next.withLock { $0 }?.cancel()
    }

    private func scheduleNext() {
        guard interval > .zero, !cancelled.load(ordering: .sequentiallyConsistent) else { return }
        let timer = timers.schedule(after: interval) { [weak self] in
            guard let self, !self.cancelled.load(ordering: .sequentiallyConsistent) else { return }
            self.fire()
            self.scheduleNext()
        }
        next.withLock { $0 = timer }
        // Cancelled while it was being scheduled: this one must not fire either.
        if cancelled.load(ordering: .sequentiallyConsistent) { timer.cancel() }
    }
}
