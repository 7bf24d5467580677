/// A terminal the app can draw on and read from; the only seam between the TUI and a real
/// terminal (ARCHITECTURE §6). `TestBackend` is its in-memory twin.
///
/// One loop owns the backend and makes every call, except `wake()`, which an implementation
/// must allow from any thread or signal handler (the ncurses backend writes to a self-pipe):
/// it is how background work gets a repaint without waiting for a key.
public protocol TerminalBackend: AnyObject {
    /// The terminal's size in cells now.
    var size: Size { get }

    /// Shows `buffer`, painting only what changed since the last buffer presented.
    func present(_ buffer: Buffer)

    /// Waits up to `timeout` (forever when nil) for input; nil when the time ran out or
    /// `wake()` was called.
    func nextEvent(timeout: Duration?) -> InputEvent?

    /// Makes a waiting (or the next) `nextEvent` return nil at once.
    func wake()

    /// Gives the terminal back to the shell (for `$EDITOR`, or on Ctrl-Z), restoring its modes.
    func suspend()

    /// Takes the terminal again after `suspend()`; the next `present` repaints everything.
    func resume()

    /// Puts `text` on the system clipboard through the terminal (OSC 52), which works over ssh
    /// and in tmux; a terminal that does not support it ignores the sequence.
    func setClipboard(_ text: String)
}
