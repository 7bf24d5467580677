import Foundation

/// Waits for a condition that another thread or process makes true: checks it, naps `poll`,
/// and checks again until it holds or `timeout` has passed on the continuous clock.
///
/// The one rule every test shares: the condition is checked once more after the deadline, so
/// a nap that outlasts the deadline on a loaded machine cannot fail a test whose condition
/// holds. This is for waiting on real concurrency (a worker thread, a child process, inotify);
/// a test of timers injects a `TestClock` instead.
public func eventually(
    timeout: Duration = .seconds(10), poll: Duration = .milliseconds(5),
    _ condition: () async throws -> Bool
) async rethrows -> Bool {
    let deadline = ContinuousClock.now + timeout
    while ContinuousClock.now < deadline {
        if try await condition() { return true }
        try? await Task.sleep(for: poll)
    }
    return try await condition()
}

/// `eventually`, counted in the caller's turns rather than on the wall clock: while other
/// suites starve the cooperative pool (a whole run on two cores), neither the caller nor the
/// work it waits for runs, so a starved run does not time out on a condition about to hold.
public func settles(
    turns: Int = 2000, poll: Duration = .milliseconds(5), _ condition: () async throws -> Bool
) async rethrows -> Bool {
    for _ in 0..<turns {
        if try await condition() { return true }
        try? await Task.sleep(for: poll)
    }
    return try await condition()
}

/// `eventually` for synchronous tests: the same rule, napping the calling thread.
public func eventuallyBlocking(
    timeout: Duration = .seconds(10), poll: Duration = .milliseconds(5), _ condition: () throws -> Bool
) rethrows -> Bool {
    let deadline = ContinuousClock.now + timeout
    while ContinuousClock.now < deadline {
        if try condition() { return true }
        Thread.sleep(forTimeInterval: poll.seconds)
    }
    return try condition()
}

extension Duration {
    /// The duration in seconds, as a `Double`.
    public var seconds: Double {
        Double(components.seconds) + Double(components.attoseconds) / 1e18
    }
}
