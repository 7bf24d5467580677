import Foundation
import NotesApp
import NotesCore
import NotesStore
import TerminalUI

/// The TUI's imperative shell (ARCHITECTURE §1, §6): one loop on one thread that owns the terminal
/// and the `AppState`, feeds every input and every worker's message through `update`, runs the
/// effects `update` returns, and paints `view` when something changed.
///
/// Workers (store queries, observation, timers, signals, sync) never touch the state or the
/// terminal: they post `Action`s to the inbox, which wakes the loop's input wait. The runtime
/// knows the terminal only as a `TerminalBackend`, so tests run it on an in-memory one; with
/// `ManualWorkQueues` and timers on a test's clock, a test steps it instead of running the
/// loop (`start`, `send`, `runUntilIdle`; NotesRuntime+Stepping.swift).
public final class NotesRuntime {
    /// How the loop ended.
    public enum Exit: Equatable, Sendable {
        /// `q` (or Ctrl-C) after saving.
        case quit
        /// SIGTERM, SIGHUP or SIGINT, after saving what could be saved.
        case signal(Int32)
    }

    public let store: NoteStore
    public let backend: TerminalBackend
    public let options: RuntimeOptions
    /// The app's state as of the last action handled.
    public private(set) var state: AppState

    let inbox: Inbox
    private let runner: EffectRunner
    private let clock: @Sendable () -> Date
    var needsPaint = true
    /// Set by the first `rowsLoaded`; the first paint waits for it briefly, so the first screen
    /// shows notes rather than an empty list that fills in a moment later.
    private var listArrived = false
    private(set) var exit: Exit?
    /// The termination signal that arrived, if one did.
    private let receivedSignal = SignalBox()
    private var watchers = Watchers()
    /// Input that arrived while the note it is typed into was still on its way from the store.
    ///
    /// After Enter (`loadNote`) or `n` (`createNote`), the keys that follow belong to the
    /// editor, which cannot take them before the note is there: they wait here, in order, and
    /// are replayed when the answer comes (or after `holdLimit`, so a lost answer cannot
    /// swallow the keyboard).
    private var heldInput: [InputEvent] = []
    private(set) var hold: (awaiting: Effect, until: ContinuousClock.Instant)?
    private static let holdLimit = Duration.seconds(1)

    public init(
        store: NoteStore, backend: TerminalBackend, options: RuntimeOptions = RuntimeOptions(),
        clock: @escaping @Sendable () -> Date = Date.init
    ) {
        self.store = store
        self.backend = backend
        self.options = options
        self.clock = clock
        self.state = AppState(now: clock(), size: backend.size)
        state.asciiOnly = options.asciiOnly
        state.theme = options.theme
        state.autosaveDelay = options.autosaveDelay
        state.autosaveMaxWait = options.autosaveMaxWait
        let waker = Waker(backend)
        inbox = Inbox(wake: { waker.wake() })
        runner = EffectRunner(store: store, inbox: inbox, backend: backend, options: options)
    }

    /// Runs until the app quits; the terminal is left for the caller to close.
    @discardableResult
    public func run() -> Exit {
        begin()
        defer { stopWorkers() }
        let firstPaintDeadline = ContinuousClock.now + .milliseconds(300)
        while exit == nil {
            for action in inbox.drain() {
                handle(action)
                if exit != nil { break }
            }
            if exit != nil { break }
            if !listArrived && ContinuousClock.now < firstPaintDeadline {
                if let event = backend.nextEvent(timeout: ContinuousClock.now.duration(to: firstPaintDeadline)) {
                    handle(.input(event))
                }
                continue
            }
            if let hold, ContinuousClock.now >= hold.until { releaseHeldInput() }
            paintIfNeeded()
            guard inbox.isEmpty else { continue }
            // Wait for input or a wake-up, then take everything typed meanwhile before painting.
            var event = backend.nextEvent(timeout: hold.map { ContinuousClock.now.duration(to: $0.until) })
            while let next = event, exit == nil {
                handle(.input(next))
                event = backend.nextEvent(timeout: .zero)
            }
        }
        return exit ?? .quit
    }

    /// Starts the workers and lays out the first screen: what happens before the loop.
    func begin() {
        startWorkers()
        handle(.resize(backend.size))
        // The saved searches marked to notify: their changes since last shown, once at start
        // (then after each change of the store or the settings).
        runner.run(.countViewChanges(shownQuery: nil))
    }

    /// Feeds one action through `update` and runs its effects. Internal for tests.
    func handle(_ action: Action) {
        if case .input(let event) = action, let special = specialKey(event) {
            special()
            return
        }
        if case .input(let event) = action, hold != nil {
            heldInput.append(event)
            return
        }
        let failedBefore = runner.failedWrites.value
        let effects = update(&state, action)
        needsPaint = true
        switch action {
        case .rowsLoaded, .listLocated: listArrived = true
        default: break
        }
        var quitting = false
        for effect in effects {
            switch effect {
            case .quit:
                quitting = true
                continue
            case .loadNote, .createNote:
                hold = (effect, ContinuousClock.now + Self.holdLimit)
            default:
                break
            }
            runner.run(effect)
        }
        if case .terminate = action { quitting = true }
        if quitting {
            quit(failedBefore: failedBefore, signal: receivedSignal.value)
        } else if let hold, Self.answers(action, hold.awaiting) {
            releaseHeldInput()
        }
    }

    /// Whether `action` is the answer the held input waits for.
    private static func answers(_ action: Action, _ effect: Effect) -> Bool {
        switch (action, effect) {
        case (.noteLoaded(let content), .loadNote(let id)): content.id == id
        case (.noteGone(let gone), .loadNote(let id)): gone == id
        case (.noteCreated, .createNote), (.effectFailed, _): true
        default: false
        }
    }

    /// Replays held input in order; an event that starts another load holds the rest again.
    func releaseHeldInput() {
        hold = nil
        while hold == nil, !heldInput.isEmpty, exit == nil {
            handle(.input(heldInput.removeFirst()))
        }
    }

    /// Leaves once the writes asked for so far are done. A `q` whose save failed stays: the
    /// failure is in the inbox and the editor keeps its text. A signal leaves regardless.
    private func quit(failedBefore: Int, signal: Int32?) {
        runner.waitForWrites()
        if let signal {
            exit = .signal(signal)
        } else if runner.failedWrites.value == failedBefore {
            exit = .quit
        }
    }

    /// Keys the runtime answers itself: Ctrl-C saves and quits, Ctrl-Z suspends to the shell.
    private func specialKey(_ event: InputEvent) -> (() -> Void)? {
        switch event {
        case .key(.character("c"), modifiers: .control):
            return { self.handle(.terminate) }
        case .key(.character("z"), modifiers: .control):
            return {
                self.backend.suspend()
                raise(SIGTSTP)
                self.backend.resume()
                self.handle(.resize(self.backend.size))
            }
        default:
            return nil
        }
    }

    func paintIfNeeded() {
        guard needsPaint else { return }
        needsPaint = false
        let size = backend.size
        if size != state.size { _ = update(&state, .resize(size)) }
        for effect in state.requestPreview() { runner.run(effect) }
        backend.present(view(state, size))
    }

    // MARK: - Workers

    private struct Watchers {
        var observation: AnyObject?
        var external: ExternalChangeWatcher?
        var externalCheck: RepeatingTimer?
        var tick: RepeatingTimer?
        var signals: TerminationSignals?
        var sync: Task<Void, Never>?
        var notesFolder: RepeatingTimer?
    }

    private func startWorkers() {
        let inbox = inbox
        // This process's commits (the app's own writes, a sync engine in this process).
        watchers.observation = store.observeNoteChanges { inbox.post(.storeChanged([])) }
        // Other processes' commits, which SQLite does not report to observers.
        do {
            let reload = options.reloadSettings
            let external = try store.externalChangeWatcher {
                inbox.post(.storeChanged([]))
                // A setting synced from another device or set by the CLI is in force at once.
                if let settings = reload?() { inbox.post(.settingsChanged(settings)) }
            }
            watchers.external = external
            watchers.externalCheck = RepeatingTimer(every: options.externalChangeInterval, on: options.timers) {
                external.checkNow()
            }
        } catch {
            inbox.post(.effectFailed("changes by other programs will show only after a restart: \(error)"))
        }
        let clock = clock
        watchers.tick = RepeatingTimer(every: options.tickInterval, on: options.timers) { inbox.post(.tick(clock())) }
        if options.handlesSignals {
            let received = receivedSignal
            do {
                watchers.signals = try TerminationSignals { signal in
                    received.record(signal)
                    inbox.post(.terminate)
                }
            } catch {
                inbox.post(.effectFailed("\(error); SIGTERM will not save first"))
            }
        }
        if let step = options.notesFolder {
            let queues = options.queues
            let running = OneAtATime()
            watchers.notesFolder = RepeatingTimer(every: options.notesFolderInterval, on: options.timers) {
                // A pass still running (a large folder's first) is not queued behind again.
                guard running.enter() else { return }
                queues.async(.folder) {
                    defer { running.leave() }
                    let tick = step()
                    if tick.changedNotes { inbox.post(.storeChanged([])) }
                    if let line = tick.line { inbox.post(.effectFailed(line)) }
                }
            }
        }
        if options.sync.startsLocked { inbox.post(.unlockNeeded) }
        if let statuses = options.sync.status {
            // On the runtime's own executor: the status bar must not wait for a busy pool.
            watchers.sync = Task(executorPreference: TimerExecutor.shared) {
                for await status in statuses { inbox.post(.syncStatusChanged(status)) }
            }
        }
    }

    func stopWorkers() {
        // The observation is cancelled when its cancellable is released.
        watchers.externalCheck?.cancel()
        watchers.external?.cancel()
        watchers.tick?.cancel()
        watchers.signals?.cancel()
        watchers.sync?.cancel()
        watchers.notesFolder?.cancel()
        watchers = Watchers()
    }
}
