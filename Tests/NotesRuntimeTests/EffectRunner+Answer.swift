import NotesApp
import NotesTestSupport

@testable import NotesRuntime

extension EffectRunner {
    /// Runs `effect` and waits (with a deadline) for its answer in `inbox`: the first action
    /// other than a bare store-changed notice; nil when none comes.
    func answer(to effect: Effect, in inbox: Inbox) -> Action? {
        run(effect)
        var answer: Action?
        _ = eventuallyBlocking(timeout: .seconds(5)) {
            answer = inbox.drain().first { $0 != .storeChanged([]) }
            return answer != nil
        }
        return answer
    }
}
