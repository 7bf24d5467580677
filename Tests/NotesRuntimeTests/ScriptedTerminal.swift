import Foundation
import TerminalUI

/// TestBackend for a runtime running on another thread: `nextEvent` really waits (for a sent
/// event, a `wake()` or the timeout), as a terminal does, and every call is serialized, so the
/// test thread can send keys and read the screen while the loop runs.
final class ScriptedTerminal: TerminalBackend, @unchecked Sendable {
    private let condition = NSCondition()
    private let inner: TestBackend
    private var events: [InputEvent] = []
    private var woken = false

    init(size: Size) {
        inner = TestBackend(size: size)
    }

    var size: Size { locked { inner.size } }

    func present(_ buffer: Buffer) { locked { inner.present(buffer) } }

    func nextEvent(timeout: Duration?) -> InputEvent? {
        condition.lock()
        defer { condition.unlock() }
        let seconds = timeout.map { Double($0.components.seconds) + Double($0.components.attoseconds) / 1e18 } ?? 3600
        let deadline = Date().addingTimeInterval(seconds)
        while events.isEmpty && !woken {
            if !condition.wait(until: deadline) { break }
        }
        if !events.isEmpty { return events.removeFirst() }
        woken = false
        return nil
    }

    func wake() {
        locked {
            woken = true
            condition.broadcast()
        }
    }

    func suspend() { locked { inner.suspend() } }
    func resume() { locked { inner.resume() } }

    func setClipboard(_ text: String) { locked { inner.setClipboard(text) } }

    /// Types or sends events, as a user at the terminal.
    func send(_ newEvents: [InputEvent]) {
        locked {
            events += newEvents
            condition.broadcast()
        }
    }

    func send(_ newEvents: InputEvent...) { send(newEvents) }

    /// Resizes the terminal (the runtime gets a `.resize` event).
    func resize(to size: Size) {
        locked {
            inner.resize(to: size)
            events += inner.pendingEvents
            while inner.nextEvent(timeout: nil) != nil {}
            condition.broadcast()
        }
    }

    /// The text on screen, one string per row.
    var lines: [String] { locked { inner.screen.lines } }

    var presentCount: Int { locked { inner.presented.count } }

    private func locked<T>(_ body: () -> T) -> T {
        condition.lock()
        defer { condition.unlock() }
        return body()
    }
}
