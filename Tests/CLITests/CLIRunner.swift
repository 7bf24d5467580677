import Foundation

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
        home = FileManager.default.temporaryDirectory.appendingPathComponent("cloudnotes-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
    }

    /// The binary SwiftPM built next to the test bundle.
    static var binary: URL {
        var dir = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        for _ in 0..<4 {
            let candidate = dir.appendingPathComponent("cloudnotes")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
            dir = dir.deletingLastPathComponent()
        }
        return Bundle.main.bundleURL.deletingLastPathComponent().appendingPathComponent("cloudnotes")
    }

    @discardableResult
    func run(_ arguments: [String], stdin: Data? = nil, environment extra: [String: String] = [:]) throws -> Result {
        let process = Process()
        process.executableURL = Self.binary
        process.arguments = arguments
        var env = [
            "HOME": home.path, "XDG_DATA_HOME": home.appendingPathComponent("xdg-data").path,
            "XDG_CONFIG_HOME": home.appendingPathComponent("xdg-config").path,
            "PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin", "LANG": "C.UTF-8",
        ]
        env["TMPDIR"] = home.path
        for (k, v) in extra { env[k] = v }
        process.environment = env
        let out = Pipe(), err = Pipe(), input = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = input
        try process.run()
        if let stdin { input.fileHandleForWriting.write(stdin) }
        try input.fileHandleForWriting.close()
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        let errData = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Result(
            status: process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
            stderr: String(decoding: errData, as: UTF8.self), stdoutData: outData)
    }

    /// Runs with `--data-dir` set to this runner's data directory.
    @discardableResult
    func cn(_ arguments: String..., stdin: String? = nil, environment: [String: String] = [:]) throws -> Result {
        try run(arguments + ["--data-dir", dataDirectory.path], stdin: stdin.map { Data($0.utf8) }, environment: environment)
    }

    func cleanUp() {
        try? FileManager.default.removeItem(at: home)
    }
}
