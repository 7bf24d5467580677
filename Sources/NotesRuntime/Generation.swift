import Foundation

/// A counter for "latest request wins": work started for an older generation is skipped, so
/// a burst of keystrokes runs one search, not one per key.
final class Generation: @unchecked Sendable {
    private let lock = NSLock()
    private var value = 0

    /// Starts a new generation and returns it.
    func next() -> Int {
        lock.lock()
        defer { lock.unlock() }
        value += 1
        return value
    }

    func isCurrent(_ generation: Int) -> Bool {
        lock.lock()
        defer { lock.unlock() }
        return value == generation
    }
}

/// A count other threads bump; read by the loop.
final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0

    func increment() {
        lock.lock()
        count += 1
        lock.unlock()
    }

    var value: Int {
        lock.lock()
        defer { lock.unlock() }
        return count
    }
}
