import Foundation
import NotesTestSupport
import Testing

/// Runs the real `cloudnotes` binary with a private data directory and config, like a script would.
struct CLIRunner {
    struct Result {
        var status: Int32
        var stdout: String
        var stderr: String
        var stdoutData: Data
    }

    let home: URL
    var dataDirectory: URL { home.appendingPathComponent("data") }

    init() throws {
        Self.ignoreSIGPIPE
        home = FileManager.default.temporaryDirectory.appendingPathComponent("cloudnotes-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
    }

    /// A child that exits before reading its stdin must fail our write, not kill the test runner.
    private static let ignoreSIGPIPE: Void = { _ = signal(SIGPIPE, SIG_IGN) }()

    /// The longest one run of the binary may take (a loaded CI machine included).
    static let deadline: TimeInterval = 300

    /// The binary SwiftPM built next to the test bundle.
    static var binary: URL { BuiltProduct.url("cloudnotes") }

    @discardableResult
    func run(
        _ arguments: [String], stdin: Data? = nil, environment extra: [String: String] = [:],
        currentDirectory: URL? = nil
    ) throws -> Result {
        try runProgram(
            Self.binary.path, arguments, stdin: stdin, environment: extra, currentDirectory: currentDirectory)
    }

    /// Runs any program with this runner's private environment.
    func runProgram(
        _ path: String, _ arguments: [String], stdin: Data? = nil, environment extra: [String: String] = [:],
        currentDirectory: URL? = nil
    ) throws -> Result {
        let process = Process()
        if let currentDirectory { process.currentDirectoryURL = currentDirectory }
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        var env = [
            "HOME": home.path, "XDG_DATA_HOME": home.appendingPathComponent("xdg-data").path,
            "XDG_CONFIG_HOME": home.appendingPathComponent("xdg-config").path,
            "PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin", "LANG": "C.UTF-8",
        ]
        env["TMPDIR"] = home.path
        for (k, v) in extra { env[k] = v }
        process.environment = env
        let out = Pipe()
        let err = Pipe()
        let input = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = input
        try process.run()
        // A child that hangs is killed after `deadline`, so a hang fails this test instead of
        // stalling the whole run.
        let watchdog = DispatchWorkItem { [pid = process.processIdentifier] in kill(pid, SIGKILL) }
        DispatchQueue.global().asyncAfter(deadline: .now() + Self.deadline, execute: watchdog)
        defer { watchdog.cancel() }
        // Stdin is fed and stderr drained on other threads, so a child that writes a lot before
        // reading, or exits without reading, can neither deadlock nor SIGPIPE the test runner.
        let errData = Captured()
        let group = DispatchGroup()
        let writer = input.fileHandleForWriting
        let errReader = err.fileHandleForReading
        DispatchQueue.global().async(group: group) {
            if let stdin { try? writer.write(contentsOf: stdin) }
            try? writer.close()
        }
        DispatchQueue.global().async(group: group) { errData.data = errReader.readDataToEndOfFile() }
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        group.wait()
        process.waitUntilExit()
        if process.terminationReason == .uncaughtSignal && process.terminationStatus == SIGKILL {
            Issue.record(
                "\(path) \(arguments.joined(separator: " ")) was killed after \(Int(Self.deadline)) s (a hang)")
        }
        return Result(
            status: process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
            stderr: String(decoding: errData.data, as: UTF8.self), stdoutData: outData)
    }

    /// Runs with `--data-dir` set to this runner's data directory.
    @discardableResult
    func cn(_ arguments: String..., stdin: String? = nil, environment: [String: String] = [:]) throws -> Result {
        try run(
            arguments + ["--data-dir", dataDirectory.path], stdin: stdin.map { Data($0.utf8) }, environment: environment
        )
    }

    func cleanUp() {
        try? FileManager.default.removeItem(at: home)
    }
}

/// Bytes read on another thread; read only after that thread is done (DispatchGroup.wait).
private final class Captured: @unchecked Sendable {
    var data = Data()
}
