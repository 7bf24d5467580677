import Foundation
import Synchronization

/// A bounded queue from one producing thread to one consuming thread: `put` waits while
/// `capacity` elements wait to be taken, `take` while none do. The producer `close`s it when
/// it has no more; the consumer `cancel`s it when it wants no more, which releases a producer
/// waiting for room.
///
/// For a pipeline of two stages on two cores: a search reads and checks notes on one thread
/// while the caller's makes the snippets and prints the hits before them.
public final class Handoff<Element: Sendable>: Sendable {
    private struct State {
        var queue: [Element] = []
        var cancelled = false
    }

    private let state = Mutex(State())
    /// One signal per element put, and one for `close`.
    private let items = DispatchSemaphore(value: 0)
    /// The room left; never left below its starting value when the queue is dropped
    /// (libdispatch traps on freeing a semaphore below it).
    private let room: DispatchSemaphore

    public init(capacity: Int) {
        precondition(capacity > 0, "a handoff holds at least one element")
        room = DispatchSemaphore(value: capacity)
    }

    /// Hands `element` over, waiting for room; false, with nothing handed over, once the
    /// consumer has cancelled.
    public func put(_ element: Element) -> Bool {
        room.wait()
        let accepted = state.withLock { state in
            guard !state.cancelled else { return false }
            state.queue.append(element)
            return true
        }
        if accepted {
            items.signal()
        } else {
            // Passes the wake-up on: every later `put` returns false at once too.
            room.signal()
        }
        return accepted
    }

    /// There are no more elements: `take` gives nil once the queue is empty.
    public func close() {
        items.signal()
    }

    /// The next element in the order they were put, waiting for one; nil once the producer
    /// has closed the handoff and every element has been taken.
    public func take() -> Element? {
        items.wait()
        let next: Element? = state.withLock { state in
            state.queue.isEmpty ? nil : state.queue.removeFirst()
        }
        if next == nil {
            // Closed (the only signal without an element): a later `take` is nil too.
            items.signal()
        } else {
            room.signal()
        }
        return next
    }

    /// The consumer takes no more: what waits is dropped, and a `put` waiting or to come
    /// returns false.
    public func cancel() {
        let dropped = state.withLock { state in
            state.cancelled = true
            defer { state.queue.removeAll() }
            return state.queue.count
        }
        // The room of what was dropped, and one more to wake a `put` that waits.
        for _ in 0...dropped { room.signal() }
    }
}
