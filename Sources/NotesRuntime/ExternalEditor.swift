import Foundation

/// Runs the user's editor on a file and waits for it, the way git does.
///
/// Not Foundation's `Process`: on Linux it starts the child in a process group of its own, which
/// is not the terminal's foreground group, so a full-screen editor is stopped (SIGTTOU) the moment
/// it sets up the terminal. The editor shares our group instead, and while it runs we ignore
/// Ctrl-C and Ctrl-\ (they are the editor's keys); our handler is reset to the default in the
/// editor when it execs, unlike SIG_IGN, which would be inherited.
///
/// Shared by `cloudnotes edit` and the TUI's `e` key.
public enum ExternalEditor {
    public enum Outcome: Equatable, Sendable {
        case exited(Int32)
        case killed(signal: Int32)
        case notStarted(String)
    }

    /// The editor to run: the config's `editor`, else `$VISUAL`, else `$EDITOR`, else `vi`.
    public static func command(configured: String?, environment: [String: String]) -> String {
        if let configured { return configured }
        for key in ["VISUAL", "EDITOR"] {
            if let value = environment[key], !value.trimmingCharacters(in: .whitespaces).isEmpty {
                return value
            }
        }
        return "vi"
    }

    /// Runs `command path` through /bin/sh so editor commands may carry arguments; the path is
    /// passed as a positional parameter, never spliced into the command text.
    public static func run(command: String, path: String) -> Outcome {
        let arguments = ["/bin/sh", "-c", command + " \"$1\"", "cloudnotes-editor", path]
        var argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        let previousInterrupt = signal(SIGINT, ignoreWhileEditing)
        let previousQuit = signal(SIGQUIT, ignoreWhileEditing)
        defer {
            signal(SIGINT, previousInterrupt)
            signal(SIGQUIT, previousQuit)
        }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, "/bin/sh", nil, nil, &argv, environ)
        guard spawned == 0 else { return .notStarted(String(cString: strerror(spawned))) }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 {
            guard errno == EINTR else { return .notStarted(String(cString: strerror(errno))) }
        }
        // WIFEXITED / WEXITSTATUS / WTERMSIG, which Swift does not import.
        let signalNumber = status & 0x7F
        return signalNumber == 0 ? .exited((status >> 8) & 0xFF) : .killed(signal: signalNumber)
    }
}

private func ignoreWhileEditing(_: Int32) {}
