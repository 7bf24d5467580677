/// An in-memory terminal for tests: it records every presented buffer, keeps the screen a real
/// terminal would show by painting only the `BufferDiff` runs, and replays scripted events.
///
/// `nextEvent` never waits: it returns the next scripted event, or nil (as if the timeout had
/// run out) when the script is empty or a `wake()` is pending.
public final class TestBackend: TerminalBackend {
    public private(set) var size: Size
    /// Every buffer passed to `present`, oldest first.
    public private(set) var presented: [Buffer] = []
    /// The diff painted by each `present`, in the same order.
    public private(set) var diffs: [BufferDiff] = []
    /// What the terminal shows: starts blank, changed only by painted diffs (and a resize).
    public private(set) var screen: Buffer
    public private(set) var isSuspended = false
    /// Every text `setClipboard` was given, oldest first.
    public private(set) var clipboard: [String] = []
    /// Events not yet returned by `nextEvent`.
    public private(set) var pendingEvents: [InputEvent]
    private var wakePending = false
    private var needsFullRepaint = false

    public init(size: Size, events: [InputEvent] = []) {
        self.size = size
        self.screen = Buffer(size: size)
        self.pendingEvents = events
    }

    /// The last buffer presented, if any.
    public var lastPresented: Buffer? { presented.last }

    /// Appends events to the script.
    public func enqueue(_ events: [InputEvent]) { pendingEvents += events }

    public func enqueue(_ events: InputEvent...) { enqueue(events) }

    /// Changes the size as a terminal resize does: the screen is cleared and a `.resize` event
    /// is queued.
    public func resize(to newSize: Size) {
        size = newSize
        screen = Buffer(size: newSize)
        pendingEvents.append(.resize(newSize))
    }

    public func present(_ buffer: Buffer) {
        let old = needsFullRepaint ? Buffer(size: Size.zero) : screen
        needsFullRepaint = false
        let diff = BufferDiff(from: old, to: buffer)
        diff.apply(to: &screen)
        presented.append(buffer)
        diffs.append(diff)
    }

    public func nextEvent(timeout: Duration?) -> InputEvent? {
        if wakePending {
            wakePending = false
            return nil
        }
        return pendingEvents.isEmpty ? nil : pendingEvents.removeFirst()
    }

    public func wake() { wakePending = true }

    public func suspend() { isSuspended = true }

    public func resume() {
        isSuspended = false
        needsFullRepaint = true
    }

    public func setClipboard(_ text: String) { clipboard.append(text) }
}
