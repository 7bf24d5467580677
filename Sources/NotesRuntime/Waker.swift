import Foundation
import TerminalUI

/// `TerminalBackend.wake()` for other threads: the protocol allows that one call from anywhere
/// (the ncurses backend writes to a pipe), so it may cross threads although the backend may not.
struct Waker: @unchecked Sendable {
    private let backend: TerminalBackend

    init(_ backend: TerminalBackend) { self.backend = backend }

    func wake() { backend.wake() }
}

/// The last termination signal received; written by the signal thread, read by the loop.
final class SignalBox: @unchecked Sendable {
    private let lock = NSLock()
    private var signal: Int32?

    func record(_ signal: Int32) {
        lock.lock()
        self.signal = signal
        lock.unlock()
    }

    var value: Int32? {
        lock.lock()
        defer { lock.unlock() }
        return signal
    }
}
