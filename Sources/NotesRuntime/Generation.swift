import Synchronization

/// A counter for "latest request wins": work started for an older generation is skipped, so
/// a burst of keystrokes runs one search, not one per key.
final class Generation: Sendable {
    private let value = Mutex(0)

    /// Starts a new generation and returns it.
    func next() -> Int {
        value.withLock { value in
            value += 1
            return value
        }
    }

    func isCurrent(_ generation: Int) -> Bool {
        value.withLock { $0 == generation }
    }
}

/// A count other threads bump; read by the loop.
final class Counter: Sendable {
    private let count = Mutex(0)

    func increment() {
        count.withLock { $0 += 1 }
    }

    var value: Int {
        count.withLock { $0 }
    }
}
