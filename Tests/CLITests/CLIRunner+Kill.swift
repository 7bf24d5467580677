import Foundation
import Glibc
import NotesTestSupport

/// `kill -9` at random moments of `cloudnotes sync` (ARCHITECTURE §7's oracle against the real
/// binary): the loop the kill suites share.
extension CLIRunner {
    /// When each kill comes, in µs after the start: `base` plus a random share of `early` in
    /// the first `earlyRounds` rounds (the sync certainly runs then), of `late` afterwards.
    struct KillSchedule {
        var rounds: Int
        var earlyRounds: Int
        var base: Int
        var early: Int
        var late: Int
    }

    /// Runs `schedule.rounds` rounds; each starts `cloudnotes sync` on every device of
    /// `devices` in turn and kills it. Returns how many syncs the kill, not their end, ended.
    func killSyncs(_ devices: [URL], _ schedule: KillSchedule, random: inout SeededRandom) throws -> Int {
        var killed = 0
        for round in 0..<schedule.rounds {
            for device in devices {
                let delay =
                    schedule.base + random.below(round < schedule.earlyRounds ? schedule.early : schedule.late)
                if try killedSync(device, after: delay) { killed += 1 }
            }
        }
        return killed
    }

    /// Starts `cloudnotes sync` on `directory` and kills it with SIGKILL after `delay` µs;
    /// returns whether the kill (not the end of the sync) ended it.
    func killedSync(_ directory: URL, after delay: Int) throws -> Bool {
        try killed(["sync", "--data-dir", directory.path], after: delay)
    }

    /// Starts `cloudnotes` with `arguments` (and `environment` added) and kills it with SIGKILL
    /// after `delay` µs; returns whether the kill (not the end of the command) ended it.
    func killed(_ arguments: [String], environment: [String: String] = [:], after delay: Int) throws -> Bool {
        let process = Process()
        process.executableURL = CLIRunner.binary
        process.arguments = arguments
        process.environment = [
            "HOME": home.path, "XDG_DATA_HOME": home.appendingPathComponent("xdg-data").path,
            "XDG_CONFIG_HOME": home.appendingPathComponent("xdg-config").path,
        ].merging(environment) { $1 }
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        usleep(UInt32(delay))
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
        return process.terminationReason == .uncaughtSignal && process.terminationStatus == SIGKILL
    }
}
