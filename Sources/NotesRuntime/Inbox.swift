import Foundation
import NotesApp

/// The runtime's mailbox: workers post `Action`s from any thread, the loop drains them.
///
/// Posting wakes the loop's input wait (`TerminalBackend.wake`), so a result repaints at once
/// rather than on the next key (ARCHITECTURE §6). `storeChanged([])` ("anything may have changed") is
/// posted at most once until the loop takes it: observation and the cross-process check often
/// report the same commit.
final class Inbox: @unchecked Sendable {
    private let lock = NSLock()
    private var actions: [Action] = []
    private var wakeLoop: @Sendable () -> Void

    init(wake: @escaping @Sendable () -> Void) {
        self.wakeLoop = wake
    }

    func post(_ action: Action) {
        lock.lock()
        if action == .storeChanged([]), actions.contains(.storeChanged([])) {
            lock.unlock()
            return
        }
        actions.append(action)
        lock.unlock()
        wakeLoop()
    }

    /// Every action posted so far, oldest first, and an empty inbox.
    func drain() -> [Action] {
        lock.lock()
        defer { lock.unlock() }
        let drained = actions
        actions.removeAll(keepingCapacity: true)
        return drained
    }

    var isEmpty: Bool {
        lock.lock()
        defer { lock.unlock() }
        return actions.isEmpty
    }
}
