import CNCurses
import Glibc

/// The write end of the wake-up pipe, for signal handlers: set once before any handler is
/// installed and read only by them (a handler can reach nothing but globals).
nonisolated(unsafe) private var signalWakeFD: Int32 = -1

/// What a signal handler writes into the wake-up pipe: the loop reads these bytes back.
enum WakeByte {
    /// `wake()` from another thread: background work has something to show.
    static let wake: UInt8 = 0x77  // "w"
    /// SIGWINCH: the terminal changed size.
    static let resize: UInt8 = 0x57  // "W"
}

/// Signal handling of the ncurses backend: SIGWINCH wakes the input wait, and crash signals
/// restore the terminal before the process dies (ARCHITECTURE §7 "The terminal is always restored").
///
/// SIGTERM, SIGHUP and SIGINT are the runtime's business (save, then quit); a crash cannot
/// save, so its handler only gives the terminal back and re-raises the signal with its default
/// action, so the exit status and core dump are the crash's own.
enum TerminalSignals {
    static let crashSignals: [Int32] = [SIGSEGV, SIGABRT, SIGBUS, SIGFPE, SIGILL, SIGTRAP]

    /// Installs the handlers; `wakeFD` is the pipe's (non-blocking) write end.
    static func install(wakeFD: Int32) {
        signalWakeFD = wakeFD
        // A mask inherited from the parent (a program that spawned us from a thread that
        // blocks signals) would hold SIGWINCH and the crash signals back: unblock them.
        var unblock = sigset_t()
        sigemptyset(&unblock)
        for signal in crashSignals + [SIGWINCH] { sigaddset(&unblock, signal) }
        pthread_sigmask(SIG_UNBLOCK, &unblock, nil)
        // Installed before newterm, so ncurses keeps ours and installs no SIGWINCH handler of its own.
        setHandler(SIGWINCH, flags: Int32(bitPattern: UInt32(SA_RESTART))) { _ in
            var byte = WakeByte.resize
            _ = write(signalWakeFD, &byte, 1)
        }
        for signal in crashSignals {
            setHandler(signal, flags: Int32(bitPattern: UInt32(SA_RESETHAND)) | Int32(SA_NODEFER)) { signal in
                restoreTerminalAfterCrash()
                _ = raise(signal)
            }
        }
    }

    /// Puts back the default actions (after teardown nothing of ours is left behind).
    static func uninstall() {
        for signal in crashSignals + [SIGWINCH] {
            setHandler(signal, flags: 0, nil)
        }
        signalWakeFD = -1
    }

    private static func setHandler(
        _ signal: Int32, flags: Int32, _ handler: (@convention(c) (Int32) -> Void)?
    ) {
        var action = sigaction()
        if let handler {
            action.__sigaction_handler.sa_handler = handler
        } else {
            action.__sigaction_handler.sa_handler = SIG_DFL
        }
        sigemptyset(&action.sa_mask)
        action.sa_flags = flags
        sigaction(signal, &action, nil)
    }
}

/// Leaves the terminal usable after a crash: the modes we turned on off, then ncurses' own
/// teardown (raw mode, alternate screen, keypad).
private func restoreTerminalAfterCrash() {
    TerminalModes.disable(fd: STDOUT_FILENO)
    _ = endwin()
}
