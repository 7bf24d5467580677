import Foundation

/// A child process started with `posix_spawn` and waited for with `waitpid`, for harnesses that
/// must tell a hang from a slow exit while many tests spawn processes at once.
///
/// Foundation's `Process` on Linux learns that a child ended when a socket it passes to the
/// child closes; a process another thread spawns at that moment can inherit the socket and
/// keep it open, and then `isRunning` stays true after the child has exited, for as long as
/// that other process lives (swift-corelibs-foundation issue 4795). In the full test suite,
/// where a SeaweedFS server or a `sync --watch` is started beside each short command, a command
/// that had ended was reported as hung for two minutes. `waitpid` on the child's own pid does
/// not depend on any descriptor.
public struct SpawnedChild: Sendable {
    public let pid: pid_t

    /// How a child ended.
    public struct Exit: Sendable, Equatable {
        /// The exit status, or the signal that ended it.
        public var status: Int32
        public var signaled: Bool
    }

    /// Starts `executable` with `arguments` and exactly `environment`; its stdin reads
    /// `/dev/null`, its stdout and stderr are appended to the files at `stdout` and `stderr`
    /// (opened close-on-exec here, so no other child inherits them).
    public static func spawn(
        _ executable: String, arguments: [String], environment: [String: String], stdout: String, stderr: String
    ) throws -> SpawnedChild {
        let input = open("/dev/null", O_RDONLY | O_CLOEXEC)
        let output = open(stdout, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o600)
        let errors = open(stderr, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o600)
        defer {
            for fd in [input, output, errors] where fd >= 0 { close(fd) }
        }
        guard input >= 0, output >= 0, errors >= 0 else {
            throw SpawnError(message: "cannot open the child's files: \(String(cString: strerror(errno)))")
        }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        // dup2 clears close-on-exec on the copy: only the child's 0, 1 and 2 stay open in it.
        posix_spawn_file_actions_adddup2(&actions, input, 0)
        posix_spawn_file_actions_adddup2(&actions, output, 1)
        posix_spawn_file_actions_adddup2(&actions, errors, 2)
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            for pointer in argv + envp { free(pointer) }
        }
        var pid: pid_t = 0
        let status = posix_spawn(&pid, executable, &actions, nil, argv, envp)
        guard status == 0 else {
            throw SpawnError(message: "cannot start \(executable): \(String(cString: strerror(status)))")
        }
        return SpawnedChild(pid: pid)
    }

    /// How the child ended, or nil while it runs (never blocks).
    public func poll() -> Exit? { reap(options: WNOHANG) }

    /// Waits for the child to end.
    public func wait() -> Exit {
        while true {
            if let exit = reap(options: 0) { return exit }
        }
    }

    private func reap(options: Int32) -> Exit? {
        var status: Int32 = 0
        var result: pid_t
        repeat { result = waitpid(pid, &status, options) } while result == -1 && errno == EINTR
        // Not a child of ours any more (reaped elsewhere): it has ended, how is not known.
        if result == -1 { return Exit(status: -1, signaled: false) }
        guard result == pid else { return nil }
        // WIFSIGNALED / WTERMSIG / WEXITSTATUS, which Swift does not import as macros.
        let signal = status & 0x7f
        return signal != 0 && signal != 0x7f
            ? Exit(status: signal, signaled: true) : Exit(status: (status >> 8) & 0xff, signaled: false)
    }
}

/// A child that could not be started, in one sentence.
public struct SpawnError: Error, CustomStringConvertible, Sendable {
    public let message: String
    public var description: String { message }
}
