import Foundation
import NotesCore
import NotesStore
import NotesTestSupport
import TerminalUI
import Testing

@testable import NotesRuntime

/// A runtime on its own thread over a real store in a temporary directory, with helpers that
/// wait for the screen with a deadline (never a bare sleep).
final class RuntimeHarness: @unchecked Sendable {
    let directory: URL
    let store: NoteStore
    let terminal: ScriptedTerminal
    let runtime: NotesRuntime
    private let finished = DispatchSemaphore(value: 0)
    private let lock = NSLock()
    private var exitValue: NotesRuntime.Exit?

    init(
        size: Size = Size(width: 80, height: 20), options: RuntimeOptions = RuntimeOptions(handlesSignals: false),
        seed: (NoteStore) throws -> Void = { _ in }
    ) throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("cloudnotes-runtime-\(UUID())")
        store = try NoteStore(directory: directory)
        try seed(store)
        terminal = ScriptedTerminal(size: size)
        runtime = NotesRuntime(store: store, backend: terminal, options: options)
    }

    /// Starts the loop on a thread of its own.
    func start() {
        let thread = Thread { [self] in
            let exit = runtime.run()
            lock.lock()
            exitValue = exit
            lock.unlock()
            finished.signal()
        }
        thread.stackSize = 8 << 20
        thread.start()
    }

    /// Waits until the loop has returned; nil if it did not within `seconds`.
    func waitForExit(seconds: Double = 5) -> NotesRuntime.Exit? {
        guard finished.wait(timeout: .now() + seconds) == .success else { return nil }
        lock.lock()
        defer { lock.unlock() }
        return exitValue
    }

    /// Waits until some row of the screen satisfies `predicate`; fails the test with the screen
    /// when `seconds` pass first.
    @discardableResult
    func waitForScreen(
        _ description: String, seconds: Double = 5, sourceLocation: SourceLocation = #_sourceLocation,
        _ predicate: ([String]) -> Bool
    ) async -> Bool {
        // Napping, not blocking: the runtime's sync-status task needs a thread of the pool.
        if await eventually(timeout: .seconds(seconds), { predicate(terminal.lines) }) { return true }
        Issue.record(
            "timed out waiting for \(description); the screen:\n\(terminal.lines.joined(separator: "\n"))",
            sourceLocation: sourceLocation)
        return false
    }

    @discardableResult
    func waitForText(
        _ text: String, seconds: Double = 5, sourceLocation: SourceLocation = #_sourceLocation
    ) async -> Bool {
        await waitForScreen("\"\(text)\"", seconds: seconds, sourceLocation: sourceLocation) { lines in
            lines.contains { $0.contains(text) }
        }
    }

    /// Quits with `q` from the list, waits for the loop, and removes the directory.
    func finish() {
        terminal.send(.key(.escape), .key(.escape), .char("q"))
        _ = waitForExit()
        try? FileManager.default.removeItem(at: directory)
    }
}
