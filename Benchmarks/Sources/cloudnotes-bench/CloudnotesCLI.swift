import Foundation

/// The release `cloudnotes` binary as the propagation benchmarks run it (SyncBenchmark,
/// S3Benchmark+Propagation, LargeNoteBenchmark+WatchedPropagation): every command with `environment` as
/// its whole environment (HOME and the XDG folders inside the benchmark's directory).
struct CloudnotesCLI {
    let binary: String
    let environment: [String: String]

    /// HOME, XDG_CONFIG_HOME and XDG_DATA_HOME inside `home`, PATH the system's, plus `extra`.
    init(_ binary: String, home: String, extra: [String: String] = [:]) {
        self.binary = binary
        environment = [
            "HOME": home, "XDG_CONFIG_HOME": home + "/config", "XDG_DATA_HOME": home + "/xdg", "PATH": "/usr/bin:/bin",
        ].merging(extra) { _, new in new }
    }

    /// Runs one command to its end and returns its standard output; a non-zero exit throws
    /// with the command's standard error.
    @discardableResult
    func run(_ arguments: [String]) throws -> Data {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: binary)
        process.arguments = arguments
        process.environment = environment
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        // Standard error after standard output: these commands write a line or two there at most.
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let errorBytes = errors.fileHandleForReading.readDataToEndOfFile()
        guard process.terminationStatus == 0 else {
            throw BenchError(
                "cloudnotes \(arguments.prefix(2).joined(separator: " ")) failed (exit \(process.terminationStatus)): "
                    + String(decoding: errorBytes, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines))
        }
        return data
    }

    /// `cloudnotes add ARGUMENTS…` and the id it printed.
    func add(_ arguments: [String]) throws -> UUID {
        let output = try run(["add"] + arguments)
        let text = String(decoding: output, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        guard let id = UUID(uuidString: text) else { throw BenchError("cloudnotes add printed no id: \(text)") }
        return id
    }

    /// `cloudnotes sync --watch --debounce 0` on each data directory, its status lines in
    /// `DIRECTORY-watch.log` beside it (for a look at what a slow edit waited for). The caller
    /// stops them (`Watchers.stop`), also when what it measures throws.
    func startWatchers(_ dataDirectories: [String]) throws -> Watchers {
        var started = Watchers(processes: [])
        do {
            for directory in dataDirectories {
                let process = Process()
                process.executableURL = URL(fileURLWithPath: binary)
                process.arguments = ["sync", "--watch", "--debounce", "0", "--data-dir", directory]
                process.environment = environment
                let log = directory + "-watch.log"
                _ = FileManager.default.createFile(atPath: log, contents: nil)
                process.standardOutput = FileHandle(forWritingAtPath: log)
                process.standardError = process.standardOutput
                try process.run()
                started.processes.append(process)
            }
        } catch {
            started.stop()
            throw error
        }
        return started
    }
}

/// Running `sync --watch` processes (`CloudnotesCLI.startWatchers`).
struct Watchers {
    var processes: [Process]

    /// SIGINT to each, as Ctrl-C stops a watcher, and waits until each has exited.
    func stop() {
        for process in processes where process.isRunning { process.interrupt() }
        for process in processes { process.waitUntilExit() }
    }

    /// Each watcher's peak RSS so far in MB (VmHWM of /proc/PID/status), in start order.
    func peakRSSMB() -> [Double] {
        processes.map { Double(Machine.statusKB("VmHWM:", process: String($0.processIdentifier))) / 1024 }
    }
}

extension Stats {
    /// Waits, checking `condition` every `interval`, until it holds; throws once `timeoutMs`
    /// have passed since `start` (`Stats.now()`) without it.
    static func wait(
        since start: UInt64, timeoutMs: Double, every interval: Duration, _ what: @autoclosure () -> String,
        until condition: () throws -> Bool
    ) async throws {
        while try !condition() {
            if ms(start, now()) > timeoutMs { throw BenchError("\(what()) within \(Int(timeoutMs / 1000)) s") }
            try await Task.sleep(for: interval)
        }
    }
}
