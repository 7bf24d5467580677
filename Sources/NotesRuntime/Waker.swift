import Synchronization
import TerminalUI

/// `TerminalBackend.wake()` for other threads: the protocol allows that one call from anywhere
/// (the ncurses backend writes to a pipe), so it may cross threads although the backend may not.
// Unchecked: the backend is not Sendable, but `wake()` is the one call it allows from any thread.
struct Waker: @unchecked Sendable {
    private let backend: TerminalBackend

    init(_ backend: TerminalBackend) { self.backend = backend }

    func wake() { backend.wake() }
}

/// The last termination signal received; written by the signal thread, read by the loop.
final class SignalBox: Sendable {
    private let signal = Mutex<Int32?>(nil)

    func record(_ signal: Int32) {
        self.signal.withLock { $0 = signal }
    }

    var value: Int32? {
        signal.withLock { $0 }
    }
}
