import Glibc

/// Terminal modes ncurses does not manage, switched with escape sequences of our own.
enum TerminalModes {
    /// Bracketed paste on (xterm `?2004`): a paste arrives between `ESC [200~` and `ESC [201~`.
    static let enableSequence: StaticString = "\u{1B}[?2004h"
    /// Bracketed paste and every mouse mode off; safe to send to a terminal that never had them.
    static let disableSequence: StaticString = "\u{1B}[?2004l\u{1B}[?1000l\u{1B}[?1002l\u{1B}[?1003l\u{1B}[?1006l"

    static func enable(fd: Int32) { send(enableSequence, fd: fd) }

    /// Async-signal-safe: one write of a constant.
    static func disable(fd: Int32) { send(disableSequence, fd: fd) }

    private static func send(_ sequence: StaticString, fd: Int32) {
        _ = write(fd, sequence.utf8Start, sequence.utf8CodeUnitCount)
    }
}
