import Foundation

/// The write end of the signal pipe; set before the handlers are installed, read by them only.
nonisolated(unsafe) private var terminationPipeFD: Int32 = -1

/// SIGTERM, SIGHUP and SIGINT as a message to the loop: the app saves what is unsaved, then
/// quits (issue 4: autosave on SIGTERM/SIGHUP). The handler only writes the signal number into
/// a pipe (async-signal-safe); a thread reads it and calls `onSignal`.
final class TerminationSignals: Sendable {
    static let signals: [Int32] = [SIGTERM, SIGHUP, SIGINT]
    private let readFD: Int32
    private let writeFD: Int32

    init(onSignal: @escaping @Sendable (Int32) -> Void) throws {
        var fds: [Int32] = [-1, -1]
        guard pipe(&fds) == 0 else {
            throw RuntimeError("cannot create the signal pipe: \(String(cString: strerror(errno)))")
        }
        (readFD, writeFD) = (fds[0], fds[1])
        for fd in fds { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        let readFD = readFD
        // The thread keeps itself alive while it runs.
        let thread = Thread {
            var byte: UInt8 = 0
            // Ends when the write end is closed (cancel) or on an error.
            while read(readFD, &byte, 1) == 1 {
                if byte == 0 { break }
                onSignal(Int32(byte))
            }
            close(readFD)
        }
        thread.name = "cloudnotes.signals"
        thread.start()
        terminationPipeFD = writeFD
        for signal in Self.signals { Self.setHandler(signal, handler: Self.handler) }
        // Threads started later inherit this thread's mask; one inherited from our parent must
        // not hold these signals back.
        var unblock = sigset_t()
        sigemptyset(&unblock)
        for signal in Self.signals { sigaddset(&unblock, signal) }
        pthread_sigmask(SIG_UNBLOCK, &unblock, nil)
    }

    private static let handler: @convention(c) (Int32) -> Void = { signal in
        var byte = UInt8(truncatingIfNeeded: signal)
        _ = write(terminationPipeFD, &byte, 1)
    }

    /// Restores the default actions and stops the reader thread.
    func cancel() {
        for signal in Self.signals { Self.setHandler(signal, handler: nil) }
        terminationPipeFD = -1
        var stop: UInt8 = 0
        _ = write(writeFD, &stop, 1)
        close(writeFD)
    }

    private static func setHandler(_ signal: Int32, handler: (@convention(c) (Int32) -> Void)?) {
        var action = sigaction()
        action.__sigaction_handler.sa_handler = handler ?? SIG_DFL
        sigemptyset(&action.sa_mask)
        action.sa_flags = Int32(bitPattern: UInt32(SA_RESTART))
        sigaction(signal, &action, nil)
    }
}
