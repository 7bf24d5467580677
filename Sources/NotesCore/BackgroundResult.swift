import Foundation
import Synchronization

/// A value computed on another thread while the caller goes on; `get()` waits for it.
///
/// For work that overlaps with a database transaction: preparing the next batch of an import,
/// sorting a search segment, reading the next group of files of a sync. The closure runs once;
/// a result nobody asks for is dropped when the work ends.
public final class BackgroundResult<Value: Sendable>: Sendable {
    private let done = DispatchSemaphore(value: 0)
    /// Set once, before `done` is signalled.
    private let outcome = Mutex<Result<Value, any Error>?>(nil)

    /// Starts `work` on a global queue (or runs it here when `async` is false).
    public init(async: Bool = true, _ work: @escaping @Sendable () throws -> Value) {
        if async {
            DispatchQueue.global(qos: .userInitiated).async { [self] in run(work) }
        } else {
            run(work)
        }
    }

    /// Starts `work` on a thread of its own, for work that must not queue behind the global
    /// queue's jobs (Dispatch runs as many of them at once as there are cores, and a long one,
    /// such as the read of the next files of a fetch, holds one).
    public init(ownThread work: @escaping @Sendable () throws -> Value) {
        Thread { [self] in run(work) }.start()
    }

    /// Runs `work` and keeps what it gave or threw, for `get()`.
    private func run(_ work: () throws -> Value) {
        let result = Result { try work() }
        outcome.withLock { $0 = result }
        done.signal()
    }

    /// Whether the work has ended (`get()` would not wait).
    public var isFinished: Bool {
        guard done.wait(timeout: .now()) == .success else { return false }
        done.signal()
        return true
    }

    /// The value, once computed (rethrows what the work threw).
    public func get() throws -> Value {
        done.wait()
        done.signal()
        guard let outcome = outcome.withLock({ $0 }) else {
            preconditionFailure("BackgroundResult signalled before its outcome was set")
        }
        return try outcome.get()
    }
}
