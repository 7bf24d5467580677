import Glibc

/// A self-pipe: `wake()` (any thread, or a signal handler) makes the input wait return.
final class WakePipe: Sendable {
    let readFD: Int32
    let writeFD: Int32

    init() throws {
        var fds: [Int32] = [-1, -1]
        guard pipe(&fds) == 0 else {
            throw NcursesTerminal.OpenError(
                description: "cannot create the wake-up pipe: \(String(cString: strerror(errno)))")
        }
        readFD = fds[0]
        writeFD = fds[1]
        for fd in fds {
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        }
    }

    deinit {
        Glibc.close(readFD)
        Glibc.close(writeFD)
    }

    /// Writes one byte; a full pipe already holds a wake-up, so EAGAIN is fine.
    func wake() {
        var byte = WakeByte.wake
        _ = write(writeFD, &byte, 1)
    }

    /// Reads every byte waiting in the pipe.
    func drain() -> [UInt8] {
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64)
        while true {
            let n = read(readFD, &chunk, chunk.count)
            if n <= 0 { break }
            bytes += chunk[0..<n]
        }
        return bytes
    }
}
