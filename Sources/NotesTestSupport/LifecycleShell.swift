import Foundation

/// Runs the real `cloudnotes` binary for the life-cycle model: one home folder, one data
/// directory per device, output captured in files (a killed child leaves no pipe half-read).
struct LifecycleShell {
    /// What one run of the binary did.
    struct Run {
        var status: Int32
        var stdout: String
        var stderr: String
        /// Ended by our SIGKILL (a random kill, or the watchdog of a hang).
        var killed: Bool
        var hung: Bool
        var succeeded: Bool { status == 0 && !killed }
    }

    let binary: URL
    let home: URL
    /// The longest one run may take before it counts as a hang and is killed.
    static let deadline: TimeInterval = 120

    /// The whole environment of a run: the home and XDG folders in `home`, cheap scrypt
    /// (N = 2^10) so passphrases cost little, and `extra`.
    func environment(_ extra: [String: String]) -> [String: String] {
        var env = [
            "HOME": home.path, "XDG_DATA_HOME": home.appendingPathComponent("xdg-data").path,
            "XDG_CONFIG_HOME": home.appendingPathComponent("xdg-config").path, "TMPDIR": home.path,
            "PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin", "LANG": "C.UTF-8",
            "CLOUDNOTES_SCRYPT_LOG_N": "10",
        ]
        env.merge(extra) { $1 }
        return env
    }

    /// Runs `arguments` on `device` (a data directory) to its end, or kills it with SIGKILL
    /// `killAfter` µs after its start when it is still running then.
    func run(
        _ arguments: [String], device: URL, environment extra: [String: String] = [:], killAfter: Int? = nil
    ) -> Run {
        let process = Process()
        process.executableURL = binary
        process.arguments = arguments + ["--data-dir", device.path]
        process.environment = environment(extra)
        let outFile = home.appendingPathComponent("out-\(UUID().uuidString)")
        let errFile = home.appendingPathComponent("err-\(UUID().uuidString)")
        _ = FileManager.default.createFile(atPath: outFile.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errFile.path, contents: nil)
        defer {
            try? FileManager.default.removeItem(at: outFile)  // scratch files: nothing is lost
            try? FileManager.default.removeItem(at: errFile)
        }
        guard let out = try? FileHandle(forWritingTo: outFile), let err = try? FileHandle(forWritingTo: errFile) else {
            return Run(
                status: -1, stdout: "", stderr: "the test could not open its output files", killed: false, hung: false)
        }
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        do {
            try process.run()
        } catch {
            return Run(
                status: -1, stdout: "", stderr: "could not start \(binary.path): \(error)", killed: false, hung: false)
        }
        try? out.close()  // the child holds its own descriptors: closing ours loses nothing
        try? err.close()
        let pid = process.processIdentifier
        if let killAfter {
            usleep(UInt32(killAfter))
            if process.isRunning { kill(pid, SIGKILL) }
        }
        let started = Date()
        var hung = false
        while process.isRunning {
            if -started.timeIntervalSinceNow > Self.deadline {
                kill(pid, SIGKILL)
                hung = true
                break
            }
            usleep(2_000)
        }
        process.waitUntilExit()
        let killed = process.terminationReason == .uncaughtSignal && process.terminationStatus == SIGKILL
        let stdout = (try? String(contentsOf: outFile, encoding: .utf8)) ?? ""
        let stderr = (try? String(contentsOf: errFile, encoding: .utf8)) ?? ""
        return Run(status: process.terminationStatus, stdout: stdout, stderr: stderr, killed: killed, hung: hung)
    }
}
