import Foundation

/// Runs the runtime's own tasks (timers, the sync-status reader) on a dispatch queue of their
/// own instead of the cooperative thread pool, so a pool kept busy (the sync engine's work, or
/// in tests other suites blocking its few threads) never delays an autosave, a tick or the
/// status bar.
final class TimerExecutor: TaskExecutor, Sendable {
    static let shared = TimerExecutor()

    private let queue = DispatchQueue(label: "cloudnotes.timers", attributes: .concurrent)

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let executor = asUnownedTaskExecutor()
        queue.async { job.runSynchronously(on: executor) }
    }

    /// Sleeps `delay` on `clock`, then runs `body`, on the timer queue; cancel the task to drop it.
    @discardableResult
    static func after(
        _ delay: Duration, on clock: any Clock<Duration>, _ body: @escaping @Sendable () -> Void
    ) -> Task<Void, Never> {
        Task(executorPreference: shared) {
            // Cancelled (the timer was replaced or the app stops): it does not fire.
            guard (try? await clock.sleep(for: delay)) != nil else { return }
            body()
        }
    }
}
