import Foundation
import NotesCore
import NotesStore
import NotesTestSupport
import TerminalUI
import Testing

@testable import NotesRuntime

/// A runtime stepped on the test's own thread, by value (ARCHITECTURE §6): keys go in with
/// `press`, the runtime runs until idle (`NotesRuntime.runUntilIdle`: every answer from the
/// store handled, the screen painted), and timers fire only when the test moves the clock
/// (`advance`). Nothing waits on the wall clock, so a screen either is right or is not.
///
/// The store is real, in a temporary directory; its clock moves a second per write, so notes
/// made one after another are listed newest first without ties.
final class SteppedRuntime {
    let directory: URL
    let store: NoteStore
    let terminal: ScriptedTerminal
    let clock = TestClock()
    let queues = ManualWorkQueues()
    let runtime: NotesRuntime

    init(
        size: Size = Size(width: 100, height: 30), seed: (NoteStore) throws -> Void = { _ in },
        configure: (inout RuntimeOptions) -> Void = { _ in },
        configureWithStore: (NoteStore, inout RuntimeOptions) throws -> Void = { _, _ in }
    ) throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("cloudnotes-stepped-\(UUID())")
        let writes = SecondsClock()
        store = try NoteStore(directory: directory, clock: { writes.next() })
        try seed(store)
        terminal = ScriptedTerminal(size: size)
        var options = RuntimeOptions(handlesSignals: false)
        let clock = clock
        options.timers = TestClockTimers(clock: clock)
        options.queues = queues
        options.now = { clock.date }
        configure(&options)
        try configureWithStore(store, &options)
        runtime = NotesRuntime(store: store, backend: terminal, options: options, clock: { clock.date })
        runtime.start()
    }

    deinit {
        runtime.stop()
        try? FileManager.default.removeItem(at: directory)
    }

    /// Sends keys in `InputEvent.keys` notation (`"jj<Enter><C-r>"`) one after another, each
    /// handled with its answers before the next, as a person types.
    func press(_ notation: String, sourceLocation: SourceLocation = #_sourceLocation) {
        guard let events = InputEvent.keys(notation) else {
            Issue.record("bad key notation \(notation)", sourceLocation: sourceLocation)
            return
        }
        for event in events {
            runtime.send(event)
            runtime.runUntilIdle()
        }
    }

    /// Sends events all at once (a paste, a held key's repeats), then runs until idle.
    func burst(_ events: [InputEvent]) {
        runtime.send(events)
        runtime.runUntilIdle()
    }

    /// Moves the clock (timers fire in order), then runs until idle.
    func advance(by duration: Duration) {
        clock.advance(by: duration)
        runtime.runUntilIdle()
    }

    /// Runs until idle: for changes made outside the runtime's own effects.
    func settle() { runtime.runUntilIdle() }

    var lines: [String] { terminal.lines }
    var screen: String { lines.joined(separator: "\n") }

    /// Expects the screen to satisfy `predicate`; a failure shows the screen.
    @discardableResult
    func expectScreen(
        _ description: String, sourceLocation: SourceLocation = #_sourceLocation, _ predicate: (String) -> Bool
    ) -> Bool {
        let shown = screen
        if predicate(shown) { return true }
        Issue.record("the screen does not show \(description):\n\(shown)", sourceLocation: sourceLocation)
        return false
    }

    @discardableResult
    func expectScreen(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) -> Bool {
        expectScreen("\"\(text)\"", sourceLocation: sourceLocation) { $0.contains(text) }
    }

    /// The title on the editor pane's first line (100 columns: the pane starts at column 41),
    /// which is the selected note's.
    var paneTitle: String {
        guard lines.count > 1 else { return "" }
        return String(lines[1].dropFirst(41)).trimmingCharacters(in: .whitespaces)
    }

    func expectSelected(_ title: String, sourceLocation: SourceLocation = #_sourceLocation) {
        expectScreen("“\(title)” selected", sourceLocation: sourceLocation) { _ in paneTitle == title }
    }

    /// The note titled `title` as stored now.
    func note(_ title: String) throws -> Note? {
        let all = try store.list(ListRequest(section: .all, limit: 10_000))
        guard let summary = all.first(where: { $0.title == title }) else { return nil }
        return try store.note(summary.id)
    }

    /// Titles of the notes not in the trash, and of those in it.
    func titles(_ section: ListSection = .all) throws -> [String] {
        try store.list(ListRequest(section: section, limit: 10_000)).map(\.title)
    }
}

/// `TimerScheduler` on a `TestClock`: timers fire on the thread that advances it.
struct TestClockTimers: TimerScheduler {
    let clock: TestClock

    func schedule(after delay: Duration, _ fire: @escaping @Sendable () -> Void) -> ScheduledTimer {
        let id = clock.schedule(after: delay, fire)
        return ScheduledTimer { [clock] in clock.cancel(id) }
    }
}

/// The store's clock in stepped tests: each read is a second after the previous one.
// Unchecked: `seconds` is read and written under `lock` only.
final class SecondsClock: @unchecked Sendable {
    private let lock = NSLock()
    private var seconds: Double = 1_699_990_000

    func next() -> Date {
        lock.lock()
        defer { lock.unlock() }
        seconds += 1
        return Date(timeIntervalSince1970: seconds)
    }
}
