import NotesApp
import Synchronization

/// The runtime's mailbox: workers post `Action`s from any thread, the loop drains them.
///
/// Posting wakes the loop's input wait (`TerminalBackend.wake`), so a result repaints at once
/// rather than on the next key (ARCHITECTURE §6). `storeChanged([])` ("anything may have changed") is
/// posted at most once until the loop takes it: observation and the cross-process check often
/// report the same commit.
final class Inbox: Sendable {
    private let actions = Mutex<[Action]>([])
    private let wakeLoop: @Sendable () -> Void

    init(wake: @escaping @Sendable () -> Void) {
        self.wakeLoop = wake
    }

    func post(_ action: Action) {
        let posted = actions.withLock { actions in
            if action == .storeChanged([]), actions.contains(.storeChanged([])) { return false }
            actions.append(action)
            return true
        }
        if posted { wakeLoop() }
    }

    /// Every action posted so far, oldest first, and an empty inbox.
    func drain() -> [Action] {
        actions.withLock { actions in
            let drained = actions
            actions.removeAll(keepingCapacity: true)
            return drained
        }
    }

    var isEmpty: Bool {
        actions.withLock { $0.isEmpty }
    }
}
