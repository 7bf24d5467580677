import Foundation
import NotesCore

/// Timing helpers: monotonic clock, medians and percentiles.
enum Stats {
    static func now() -> UInt64 { DispatchTime.now().uptimeNanoseconds }

    static func ms(_ start: UInt64, _ end: UInt64) -> Double { Double(end - start) / 1_000_000 }

    /// Runs `body` and returns its wall time in milliseconds.
    static func time(_ body: () throws -> Void) rethrows -> Double {
        let start = now()
        try body()
        return ms(start, now())
    }

    /// CPU time (user + system) of this process so far, in milliseconds; with
    /// `RUSAGE_CHILDREN`, of every child process waited for so far (the difference around one
    /// run is that run's, its threads' included).
    static func cpuMs(of who: __rusage_who = RUSAGE_SELF) -> Double {
        var usage = rusage()
        getrusage(who.rawValue, &usage)
        func ms(_ t: timeval) -> Double { Double(t.tv_sec) * 1000 + Double(t.tv_usec) / 1000 }
        return ms(usage.ru_utime) + ms(usage.ru_stime)
    }

    static func percentile(_ values: [Double], _ p: Double) -> Double {
        guard !values.isEmpty else { return .nan }
        let sorted = values.sorted()
        let rank = Int((p / 100 * Double(sorted.count - 1)).rounded())
        return sorted[min(sorted.count - 1, max(0, rank))]
    }

    static func median(_ values: [Double]) -> Double { percentile(values, 50) }

    static func f(_ v: Double, _ digits: Int = 1) -> String { String(format: "%.\(digits)f", v) }
}

enum Machine {
    static func printHeader() {
        let cpu =
            (try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8))?
            .split(separator: "\n").first { $0.hasPrefix("model name") }?
            .split(separator: ":").last?.trimmingCharacters(in: .whitespaces) ?? "unknown CPU"
        let cores = ProcessInfo.processInfo.activeProcessorCount
        let memory = ProcessInfo.processInfo.physicalMemory / (1 << 30)
        print("machine: \(cpu), \(cores) cores, \(memory) GiB; \(ProcessInfo.processInfo.operatingSystemVersionString)")
        print("date: \(ISODate.string(Date()))")
    }

    /// Peak resident set size of this process in MB (VmHWM).
    static func peakRSSMB() -> Double { Double(statusKB("VmHWM:")) / 1024 }

    /// A field of `/proc/PROCESS/status` given in KB (VmHWM:, VmRSS:…), 0 when unreadable.
    static func statusKB(_ field: String, process: String = "self") -> Int {
        guard let text = try? String(contentsOfFile: "/proc/\(process)/status", encoding: .utf8),
            let line = text.split(separator: "\n").first(where: { $0.hasPrefix(field) })
        else { return 0 }
        return Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0
    }

    static func which(_ tool: String) -> String? {
        for dir in (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":") {
            let path = "\(dir)/\(tool)"
            if FileManager.default.isExecutableFile(atPath: path) { return path }
        }
        return nil
    }

    /// Runs a command with this process's stdout and stderr; fails on a non-zero exit.
    static func runInheritingOutput(_ executable: String, _ arguments: [String]) throws {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: executable)
        p.arguments = arguments
        try p.run()
        p.waitUntilExit()
        if p.terminationStatus != 0 { throw CocoaError(.executableLoad) }
    }

    /// Runs a command, discarding output; returns the exit status and its peak RSS in MB
    /// (VmHWM, read every 5 ms while it runs: the last reading before it exits).
    static func runMeasuringPeak(_ executable: String, _ arguments: [String]) throws -> (status: Int32, peakMB: Double)
    {
        let p = try started(executable, arguments)
        var peak = 0
        while p.isRunning {
            peak = max(peak, statusKB("VmHWM:", process: String(p.processIdentifier)))
            usleep(5_000)
        }
        p.waitUntilExit()
        return (p.terminationStatus, Double(peak) / 1024)
    }

    /// Runs a command, discarding output; returns the exit status.
    @discardableResult
    static func run(_ executable: String, _ arguments: [String]) throws -> Int32 {
        let p = try started(executable, arguments)
        p.waitUntilExit()
        return p.terminationStatus
    }

    /// A command started with its output discarded.
    private static func started(_ executable: String, _ arguments: [String]) throws -> Process {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: executable)
        p.arguments = arguments
        p.standardOutput = FileHandle.nullDevice
        p.standardError = FileHandle.nullDevice
        try p.run()
        return p
    }
}
