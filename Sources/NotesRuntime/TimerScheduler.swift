/// Where the runtime's timers run (autosave, undo and message expiry, the relative-time tick,
/// the check for other processes' commits): each fires once, unless cancelled, after its delay.
///
/// The app uses `ClockTimers` on the continuous clock; a test that steps the runtime passes
/// timers on a clock it advances itself, which fire on the advancing thread.
public protocol TimerScheduler: Sendable {
    /// Calls `fire` once `delay` has passed, unless the returned timer is cancelled first.
    func schedule(after delay: Duration, _ fire: @escaping @Sendable () -> Void) -> ScheduledTimer
}

/// A timer `TimerScheduler.schedule` started.
public struct ScheduledTimer: Sendable {
    private let cancelling: @Sendable () -> Void

    public init(cancel: @escaping @Sendable () -> Void) { cancelling = cancel }

    /// Drops the timer if it has not fired.
    public func cancel() { cancelling() }
}

/// Timers that sleep on a clock, on the runtime's own executor (`TimerExecutor`).
public struct ClockTimers: TimerScheduler {
    private let clock: any Clock<Duration>

    public init(_ clock: any Clock<Duration> = ContinuousClock()) { self.clock = clock }

    public func schedule(after delay: Duration, _ fire: @escaping @Sendable () -> Void) -> ScheduledTimer {
        let task = TimerExecutor.after(delay, on: clock, fire)
        return ScheduledTimer { task.cancel() }
    }
}
