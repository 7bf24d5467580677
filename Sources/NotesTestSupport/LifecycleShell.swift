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
        let outFile = home.appendingPathComponent("out-\(UUID().uuidString)")
        let errFile = home.appendingPathComponent("err-\(UUID().uuidString)")
        defer {
            try? FileManager.default.removeItem(at: outFile)  // scratch files: nothing is lost
            try? FileManager.default.removeItem(at: errFile)
        }
        // Not Foundation's Process: its exit detection can miss an exit while other tests spawn
        // processes, and a finished command would count as a hang (`SpawnedChild`).
        let child: SpawnedChild
        do {
            child = try SpawnedChild.spawn(
                binary.path, arguments: arguments + ["--data-dir", device.path], environment: environment(extra),
                stdout: outFile.path, stderr: errFile.path)
        } catch {
            return Run(status: -1, stdout: "", stderr: "\(error)", killed: false, hung: false)
        }
        var exit: SpawnedChild.Exit?
        if let killAfter {
            usleep(UInt32(killAfter))
            exit = child.poll()
            if exit == nil { kill(child.pid, SIGKILL) }
        }
        let started = Date()
        var hung = false
        if exit == nil { exit = child.poll() }
        while exit == nil {
            if -started.timeIntervalSinceNow > Self.deadline {
                kill(child.pid, SIGKILL)
                hung = true
                break
            }
            usleep(2_000)
            exit = child.poll()
        }
        let ended = exit ?? child.wait()
        let killed = ended.signaled && ended.status == SIGKILL
        let stdout = (try? String(contentsOf: outFile, encoding: .utf8)) ?? ""
        let stderr = (try? String(contentsOf: errFile, encoding: .utf8)) ?? ""
        return Run(status: ended.status, stdout: stdout, stderr: stderr, killed: killed, hung: hung)
    }
}
