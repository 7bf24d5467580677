import Foundation

/// Collects values delivered on other threads and lets a test wait for one, with a deadline.
final class Recorder<Value: Sendable>: @unchecked Sendable {
    private struct Waiter {
        let id: UUID
        let predicate: (Value) -> Bool
        let continuation: CheckedContinuation<Value?, Never>
    }

    private let lock = NSLock()
    private var values: [Value] = []
    private var waiters: [Waiter] = []

    var count: Int { lock.withLock { values.count } }

    func record(_ value: Value) {
        let ready: [(CheckedContinuation<Value?, Never>)] = lock.withLock {
            values.append(value)
            var ready: [CheckedContinuation<Value?, Never>] = []
            waiters.removeAll { waiter in
                guard waiter.predicate(value) else { return false }
                ready.append(waiter.continuation)
                return true
            }
            return ready
        }
        for continuation in ready { continuation.resume(returning: value) }
    }

    /// The first value, recorded before or after the call, that satisfies `predicate`; nil when
    /// none arrives within `timeout`.
    func first(
        after skip: Int = 0, timeout: Duration = .seconds(10), where predicate: @escaping @Sendable (Value) -> Bool
    ) async -> Value? {
        let id = UUID()
        return await withCheckedContinuation { continuation in
            let found: Value?? = lock.withLock {
                if let hit = values.dropFirst(skip).first(where: predicate) { return .some(hit) }
                waiters.append(Waiter(id: id, predicate: predicate, continuation: continuation))
                return .none
            }
            if let found {
                continuation.resume(returning: found)
                return
            }
            Task {
                try? await Task.sleep(for: timeout)
                self.expire(id)
            }
        }
    }

    private func expire(_ id: UUID) {
        let waiter = lock.withLock {
            let index = waiters.firstIndex { $0.id == id }
            return index.map { waiters.remove(at: $0) }
        }
        waiter?.continuation.resume(returning: nil)
    }
}
