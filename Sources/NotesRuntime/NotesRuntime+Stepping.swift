import TerminalUI

extension NotesRuntime {
    /// How the runtime ended, once it has: nil while it runs.
    public var exited: Exit? { exit }

    /// Starts the runtime for a caller that steps it rather than running its loop (tests, with
    /// `ManualWorkQueues` and timers on a clock they advance): the workers start, the first
    /// screen is laid out, loaded and painted. `stop()` ends it.
    public func start() {
        begin()
        runUntilIdle()
    }

    /// Takes input as the loop does when it arrives faster than the answers: each event is
    /// handled (keys meant for a note still loading wait for it), nothing else runs until
    /// `runUntilIdle`.
    public func send(_ events: [InputEvent]) {
        for event in events where exit == nil { handle(.input(event)) }
    }

    public func send(_ events: InputEvent...) { send(events) }

    /// Runs until there is nothing left to do: every action in the inbox handled, every piece
    /// of store work waiting in `RuntimeOptions.queues` run (its answer handled in turn), and
    /// the screen painted. Timers are not waited for: a test advances their clock, which fires
    /// the due ones into the inbox, and calls this again. With dispatch queues, work still
    /// running on their threads is not waited for either.
    public func runUntilIdle() {
        while exit == nil {
            let actions = inbox.drain()
            if !actions.isEmpty {
                for action in actions where exit == nil { handle(action) }
            } else if options.queues.runNext() {
                continue
            } else if needsPaint {
                paintIfNeeded()
            } else if hold != nil {
                // Nothing is left that could answer: the held keys go on, as after the hold limit.
                releaseHeldInput()
            } else {
                return
            }
        }
    }

    /// Stops the workers `start` started.
    public func stop() {
        stopWorkers()
    }
}
