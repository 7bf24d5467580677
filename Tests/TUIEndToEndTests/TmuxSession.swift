import Foundation
import NotesTestSupport
import Testing

/// The real `cloudnotes` binary in a tmux pane of a private tmux server, driven by keys and
/// read by `capture-pane`, with a private HOME, XDG directories and data directory.
///
/// The pane runs a wrapper: after the app exits it prints `exit=<status>` and whether the tty
/// is back in canonical mode with echo, which is how tests see that the terminal was restored.
final class TmuxSession {
    static var isAvailable: Bool { executable("tmux") != nil }

    let home: URL
    var dataDirectory: URL { home.appendingPathComponent("data") }
    private let socket = "cloudnotes-e2e-\(UUID().uuidString.prefix(8))"
    private var started = false
    /// More variables for the app (`EDITOR`, `NO_COLOR`), when a test sets them.
    var extraEnvironment: [String: String] = [:]

    init() throws {
        home = FileManager.default.temporaryDirectory.appendingPathComponent("cloudnotes-tui-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
    }

    deinit {
        if started { _ = try? tmux(["kill-server"]) }
        try? FileManager.default.removeItem(at: home)
    }

    /// The environment every run gets: private directories, a UTF-8 locale.
    var environment: [String: String] {
        [
            "HOME": home.path, "XDG_CONFIG_HOME": home.appendingPathComponent("xdg-config").path,
            "XDG_DATA_HOME": home.appendingPathComponent("xdg-data").path, "TMPDIR": home.path,
            "LANG": "C.UTF-8", "LC_ALL": "C.UTF-8",
            "PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin",
        ].merging(extraEnvironment) { $1 }
    }

    /// Starts the TUI (`cloudnotes` with no command) in a `width`x`height` pane.
    func start(width: Int = 100, height: Int = 30, arguments: [String] = []) throws {
        let assignments = environment.sorted { $0.key < $1.key }.map { "\($0.key)=\(Self.quote($0.value))" }
        let app = ([Self.binary.path] + arguments + ["--data-dir", dataDirectory.path]).map(Self.quote)
        let script = """
            env -i \(assignments.joined(separator: " ")) TERM="$TERM" \(app.joined(separator: " ")); \
            status=$?; printf '\\r\\nexit=%s\\r\\n' "$status"; stty -a | tr ' ;' '\\n\\n' | grep -E '^-?(icanon|echo)$'; sleep 600
            """
        try tmux([
            "-f", "/dev/null", "new-session", "-d", "-x", String(width), "-y", String(height), "-s", "e2e", script,
        ])
        started = true
    }

    /// Sends tmux key names (`Enter`, `Escape`, `C-c`, `Down`).
    func keys(_ names: String...) throws {
        try keys(names)
    }

    /// Sends tmux key names in one go, as a held key's repeats arrive.
    func keys(_ names: [String]) throws {
        try tmux(["send-keys", "-t", "e2e"] + names)
    }

    /// Types text literally.
    func type(_ text: String) throws {
        try tmux(["send-keys", "-t", "e2e", "-l", text])
    }

    /// Pastes `text` as a terminal does: tmux's `paste-buffer -p` wraps it in bracketed-paste
    /// markers when the app turned that mode on (and sends line breaks as CR, like a terminal).
    func paste(_ text: String) throws {
        let file = home.appendingPathComponent("paste-\(UUID().uuidString).txt")
        try Data(text.utf8).write(to: file)
        try tmux(["load-buffer", "-b", "e2e-paste", file.path])
        try tmux(["paste-buffer", "-p", "-d", "-b", "e2e-paste", "-t", "e2e"])
    }

    /// Runs a tmux command on this session's private server (`set -g set-clipboard on`, `show-buffer`).
    @discardableResult
    func command(_ arguments: String...) throws -> String { try tmux(arguments) }

    /// The pane's text now; with `escapes`, with the SGR sequences of its colours and attributes.
    func screen(escapes: Bool = false) throws -> String {
        try tmux(["capture-pane", "-p", "-t", "e2e"] + (escapes ? ["-e"] : []))
    }

    /// Writes the config file the app finds by XDG lookup.
    func writeConfig(_ json: String) throws {
        let folder = home.appendingPathComponent("xdg-config/cloudnotes")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try Data(json.utf8).write(to: folder.appendingPathComponent("config.json"))
    }

    /// The pane's title (what an `ESC ] 0 ;` sequence would change).
    func paneTitle() throws -> String {
        try tmux(["display-message", "-p", "-t", "e2e", "#{pane_title}"]).trimmingCharacters(in: .newlines)
    }

    func resize(width: Int, height: Int) throws {
        try tmux(["resize-window", "-t", "e2e", "-x", String(width), "-y", String(height)])
    }

    /// The pid of the app (the wrapper shell's child).
    func appPID() throws -> Int32? {
        let shell = try tmux(["display-message", "-p", "-t", "e2e", "#{pane_pid}"]).trimmingCharacters(
            in: .whitespacesAndNewlines)
        let children = try Self.run("/usr/bin/env", ["pgrep", "-P", shell]).output
        return children.split(separator: "\n").compactMap { Int32($0) }.first
    }

    /// Waits until the screen satisfies `predicate`, polling; records the last screen on timeout.
    @discardableResult
    func waitFor(
        _ description: String, seconds: Double = 10, sourceLocation: SourceLocation = #_sourceLocation,
        _ predicate: (String) -> Bool
    ) async throws -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        var last = ""
        // Checked after every sleep, the last one included (a loaded machine oversleeps).
        while true {
            last = try screen()
            if predicate(last) { return true }
            if Date() >= deadline { break }
            try await Task.sleep(for: .milliseconds(20))
        }
        Issue.record("timed out waiting for \(description); the screen:\n\(last)", sourceLocation: sourceLocation)
        return false
    }

    @discardableResult
    func waitFor(
        _ text: String, seconds: Double = 10, sourceLocation: SourceLocation = #_sourceLocation
    ) async throws -> Bool {
        try await waitFor("\"\(text)\"", seconds: seconds, sourceLocation: sourceLocation) { $0.contains(text) }
    }

    /// Runs the CLI (another process beside the TUI) with the same directories.
    @discardableResult
    func cli(_ arguments: String...) throws -> String {
        try cli(dataDirectory: dataDirectory, arguments)
    }

    /// Runs the CLI on another data directory: another device on this machine, sharing the
    /// default cloud folder under the same XDG_DATA_HOME.
    @discardableResult
    func cli(dataDirectory: URL, _ arguments: [String]) throws -> String {
        let result = try Self.run(
            Self.binary.path, arguments + ["--data-dir", dataDirectory.path], environment: environment)
        guard result.status == 0 else {
            throw CLIFailure(description: "cloudnotes \(arguments.joined(separator: " ")) failed: \(result.output)")
        }
        return result.output
    }

    struct CLIFailure: Error, CustomStringConvertible { var description: String }

    @discardableResult
    private func tmux(_ arguments: [String]) throws -> String {
        let result = try Self.run(Self.executable("tmux")!, ["-L", socket] + arguments)
        guard result.status == 0 else {
            throw CLIFailure(description: "tmux \(arguments.joined(separator: " ")) failed: \(result.output)")
        }
        return result.output
    }

    /// The binary SwiftPM built next to the test bundle.
    static var binary: URL { BuiltProduct.url("cloudnotes") }

    static func executable(_ name: String) -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        return path.split(separator: ":").map { "\($0)/\(name)" }.first {
            FileManager.default.isExecutableFile(atPath: $0)
        }
    }

    static func quote(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }

    /// Runs a program and waits for it with posix_spawn and waitpid. Not Foundation's
    /// `Process`: it learns that a child exited when a pipe the child inherited closes, and the
    /// tmux server that `new-session` forks keeps that pipe open for as long as it runs. Output
    /// goes to a file for the same reason.
    private static func run(
        _ path: String, _ arguments: [String], environment: [String: String]? = nil
    ) throws -> (status: Int32, output: String) {
        let outputPath = FileManager.default.temporaryDirectory.appendingPathComponent("cloudnotes-e2e-\(UUID())").path
        defer { try? FileManager.default.removeItem(atPath: outputPath) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, outputPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        let argv = ([path] + arguments).map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        let env = (environment ?? ProcessInfo.processInfo.environment).map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { for pointer in env { free(pointer) } }
        // A clean signal mask and default actions: the test runner's thread blocks signals, and
        // the tmux server (and so the app) would inherit that.
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var noSignals = sigset_t()
        sigemptyset(&noSignals)
        var allSignals = sigset_t()
        sigfillset(&allSignals)
        posix_spawnattr_setsigmask(&attributes, &noSignals)
        posix_spawnattr_setsigdefault(&attributes, &allSignals)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, path, &actions, &attributes, argv, env)
        guard spawned == 0 else {
            throw CLIFailure(description: "cannot run \(path): \(String(cString: strerror(spawned)))")
        }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
        let output = (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? ""
        // WIFEXITED / WEXITSTATUS, which Swift does not import.
        return (status & 0x7F == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F), output)
    }
}

extension TmuxSession {
    /// Polls `cloudnotes <arguments>` on this session's data directory (another process reading
    /// the store) until `done` says yes or `seconds` pass; a failed run is polled again.
    @discardableResult
    func waitForCLI(
        _ arguments: [String], _ what: String, seconds: Double, sourceLocation: SourceLocation = #_sourceLocation,
        _ done: (String) -> Bool
    ) async throws -> String {
        let deadline = Date().addingTimeInterval(seconds)
        var output = ""
        while true {
            output = (try? cli(dataDirectory: dataDirectory, arguments)) ?? ""
            if done(output) || Date() >= deadline { break }
            try await Task.sleep(for: .milliseconds(100))
        }
        #expect(
            done(output), "\(what); `cloudnotes \(arguments.joined(separator: " "))` printed:\n\(output)",
            sourceLocation: sourceLocation)
        return output
    }
}
