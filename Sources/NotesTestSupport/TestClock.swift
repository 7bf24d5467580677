import Foundation
import Synchronization

/// A clock that moves only when a test says so: a `Clock<Duration>` for code that sleeps (debounce,
/// retries, timers) and a wall clock (`date`) for code that stamps, moving together.
///
/// `sleep(until:)` suspends until `advance(by:)` (or `advance(to:)`) moves `now` to or past the
/// deadline; a cancelled sleeper throws `CancellationError` at once, like `Task.sleep`.
/// `sleepers` lets a test wait until the code under test has started waiting before it
/// advances, so nothing depends on how fast the machine is. Work `schedule`d on the clock
/// instead runs on the thread that advances it, before `advance` returns, in time order (for a
/// test that steps the code under test on one thread).
public final class TestClock: Clock, Sendable {
    public struct Instant: InstantProtocol, Sendable {
        public var offset: Duration

        public init(offset: Duration) { self.offset = offset }

        public func advanced(by duration: Duration) -> Instant { Instant(offset: offset + duration) }
        public func duration(to other: Instant) -> Duration { other.offset - offset }
        public static func < (lhs: Instant, rhs: Instant) -> Bool { lhs.offset < rhs.offset }
    }

    private struct Sleeper {
        let id: UInt64
        let deadline: Instant
        let continuation: CheckedContinuation<Void, any Error>
    }

    private struct Scheduled {
        let id: UInt64
        let deadline: Instant
        let fire: @Sendable () -> Void
    }

    /// The time now, and the sleeps and scheduled work waiting for it to move.
    private struct State {
        var current = Instant(offset: .zero)
        var waiting: [Sleeper] = []
        var scheduled: [Scheduled] = []
        var nextID: UInt64 = 0
    }

    private let state = Mutex(State())
    private let startMillis: Int64

    /// A clock whose wall time starts at `millis` since 1970.
    public init(_ millis: Int64 = 1_700_000_000_000) { startMillis = millis }

    /// The wall time: the start plus how far the clock has moved.
    public var date: Date {
        let offset = now.offset.components
        let millis = startMillis + offset.seconds * 1000 + offset.attoseconds / 1_000_000_000_000_000
        return Date(timeIntervalSince1970: Double(millis) / 1000)
    }

    /// Moves the clock forward by `milliseconds`.
    public func advance(by milliseconds: Int64) { advance(by: .milliseconds(milliseconds)) }

    public var now: Instant { state.withLock { $0.current } }
    public var minimumResolution: Duration { .zero }

    /// How many sleeps are waiting for the clock to move.
    public var sleepers: Int { state.withLock { $0.waiting.count } }

    public func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
        let id: UInt64 = state.withLock { state in
            state.nextID += 1
            return state.nextID
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                // Checked under the lock that the cancellation handler takes, after the task's
                // cancelled flag is set: a sleep is either registered and then cancelled, or never
                // registered.
                let outcome: Result<Bool, CancellationError> = state.withLock { state in
                    if Task.isCancelled { return .failure(CancellationError()) }
                    if deadline <= state.current { return .success(true) }
                    state.waiting.append(Sleeper(id: id, deadline: deadline, continuation: continuation))
                    return .success(false)
                }
                switch outcome {
                case .failure(let error): continuation.resume(throwing: error)
                case .success(true): continuation.resume()
                case .success(false): break
                }
            }
        } onCancel: {
            let sleeper: Sleeper? = state.withLock { state in
                guard let index = state.waiting.firstIndex(where: { $0.id == id }) else { return nil }
                return state.waiting.remove(at: index)
            }
            sleeper?.continuation.resume(throwing: CancellationError())
        }
    }

    /// Runs `fire` when the clock reaches `delay` from now, on the thread that moves it there
    /// (at once, on this thread, when `delay` is not positive); returns an id for `cancel`.
    @discardableResult
    public func schedule(after delay: Duration, _ fire: @escaping @Sendable () -> Void) -> UInt64 {
        let (id, due): (UInt64, Bool) = state.withLock { state in
            state.nextID += 1
            let deadline = state.current.advanced(by: delay)
            guard state.current < deadline else { return (state.nextID, true) }
            state.scheduled.append(Scheduled(id: state.nextID, deadline: deadline, fire: fire))
            return (state.nextID, false)
        }
        if due { fire() }
        return id
    }

    /// Drops work `schedule`d under `id` that has not run.
    public func cancel(_ id: UInt64) {
        state.withLock { $0.scheduled.removeAll { $0.id == id } }
    }

    /// How many pieces of `schedule`d work are waiting for the clock to move.
    public var scheduledCount: Int { state.withLock { $0.scheduled.count } }

    /// Moves the clock forward and wakes every sleep whose deadline has come, earliest first.
    public func advance(by duration: Duration) {
        advance(to: now.advanced(by: duration))
    }

    /// Moves the clock to `instant` in steps: to each piece of scheduled work's deadline in
    /// turn, running it there (work it schedules before `instant` runs too), waking the sleeps
    /// due by then.
    public func advance(to instant: Instant) {
        while true {
            let (due, work): ([Sleeper], Scheduled?) = state.withLock { state in
                let next = state.scheduled.filter { $0.deadline <= instant }.min { $0.deadline < $1.deadline }
                let target = next?.deadline ?? instant
                if state.current < target { state.current = target }
                let now = state.current
                let due = state.waiting.filter { $0.deadline <= now }.sorted { $0.deadline < $1.deadline }
                state.waiting.removeAll { $0.deadline <= now }
                if let next { state.scheduled.removeAll { $0.id == next.id } }
                return (due, next)
            }
            for sleeper in due { sleeper.continuation.resume() }
            guard let work else { return }
            work.fire()
        }
    }
}
