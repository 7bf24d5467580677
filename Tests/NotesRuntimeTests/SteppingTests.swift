import Foundation
import NotesStore
import NotesTestSupport
import TerminalUI
import Testing

@testable import NotesRuntime

/// The parts a stepped runtime is made of: timers on a `TestClock` fire on the advancing
/// thread in time order, `ManualWorkQueues` run nothing until asked, and `runUntilIdle`
/// leaves nothing waiting.
@Suite struct SteppingTests {
    /// Records what fired, in order.
    // Unchecked: `names` is read and written under `lock` only.
    final class Fired: @unchecked Sendable {
        private let lock = NSLock()
        private var names: [String] = []

        func record(_ name: String) {
            lock.lock()
            names.append(name)
            lock.unlock()
        }

        var all: [String] {
            lock.lock()
            defer { lock.unlock() }
            return names
        }
    }

    @Test func scheduledWorkRunsOnTheAdvancingThreadAtItsDeadlineInTimeOrder() {
        let clock = TestClock()
        let fired = Fired()
        clock.schedule(after: .seconds(3)) { fired.record("3 s") }
        let dropped = clock.schedule(after: .seconds(2)) { fired.record("dropped") }
        clock.schedule(after: .seconds(1)) {
            fired.record("1 s")
            // Work scheduled while the clock moves runs in the same advance when it is due.
            clock.schedule(after: .milliseconds(500)) { fired.record("1.5 s") }
        }
        clock.cancel(dropped)
        clock.advance(by: .milliseconds(999))
        #expect(fired.all.isEmpty)
        clock.advance(by: .seconds(5))
        #expect(fired.all == ["1 s", "1.5 s", "3 s"])
        #expect(clock.scheduledCount == 0)
        // Due already: it runs at once, on this thread.
        clock.schedule(after: .zero) { fired.record("now") }
        #expect(fired.all.last == "now")
    }

    @Test func aRepeatingTimerFiresEveryIntervalUntilCancelled() {
        let clock = TestClock()
        let fired = Fired()
        let timer = RepeatingTimer(every: .seconds(30), on: TestClockTimers(clock: clock)) { fired.record("tick") }
        clock.advance(by: .seconds(95))
        #expect(fired.all.count == 3)
        timer.cancel()
        clock.advance(by: .seconds(60))
        #expect(fired.all.count == 3)
    }

    @Test func manualQueuesRunNothingUntilAskedThenInOrderPerLane() {
        let queues = ManualWorkQueues()
        let fired = Fired()
        queues.async(.reads) { fired.record("read 1") }
        queues.async(.writes) { fired.record("write 1") }
        queues.async(.reads) { fired.record("read 2") }
        queues.async(.writes) { fired.record("write 2") }
        #expect(fired.all.isEmpty && queues.count == 4)
        // A quit waits for the writes only.
        queues.wait(for: .writes)
        #expect(fired.all == ["write 1", "write 2"])
        #expect(queues.runNext() && queues.runNext() && !queues.runNext())
        #expect(fired.all == ["write 1", "write 2", "read 1", "read 2"])
        #expect(!DispatchWorkQueues().runNext())
    }

    /// Enter, typing and Esc all at once, before the note has loaded: the keys wait for it and
    /// reach the editor in order (the runtime holds them, the loading editor replays them), and
    /// nothing is left waiting after.
    @Test func keysSentBeforeTheNoteHasLoadedReachTheEditorAndNothingIsLeftWaiting() throws {
        let app = try SteppedRuntime { store in try store.create(title: "Draft", body: "body") }
        app.expectScreen("Draft")
        app.burst([.key(.enter)] + InputEvent.typing("New ") + [.key(.escape)])
        #expect(app.queues.count == 0)
        #expect(try app.note("New Draft")?.body == "body")
        app.expectScreen("the list with the new title") { $0.contains("New Draft") && $0.contains("q quit") }
    }
}
