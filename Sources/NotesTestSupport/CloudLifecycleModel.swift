import Foundation

/// A model-based test of the cloud's life cycle (issue 21) against the real `cloudnotes`
/// binary: three devices bound to one container add, edit and sync while, at random moments,
/// one of them moves the container to a fresh place, encrypts it in place or changes its
/// passphrase, each of those (and some syncs) killed with SIGKILL at a random instant and run
/// again as a user would. Afterwards every device syncs until quiet, and the run checks that
/// all devices converge on one place and the same notes, that no edit the CLI acknowledged is
/// lost, and that an encrypted folder holds no marker word. Seeded: a seed replays its run.
public struct CloudLifecycleModel {
    /// What one seed's run did and what it found wrong.
    public struct Outcome: Sendable {
        public var seed: UInt64
        /// Every operation and its result, in order: what to read when a check fails.
        public var log: [String]
        /// Each broken promise, one sentence each; empty when the run passed.
        public var failures: [String]
        /// How many runs a SIGKILL, not their end, ended.
        public var kills: Int
        public var operations: Int
    }

    /// An edit the CLI acknowledged (exit 0): the marker word its text holds.
    struct Edit {
        var note: String
        var marker: String
        var device: String
        var step: Int
    }

    let shell: LifecycleShell
    let seed: UInt64
    let steps: Int
    var random: SeededRandom
    let devices: [String] = ["a", "b", "c"]
    var notes: [String] = []
    var edits: [Edit] = []
    var markerCount = 0
    var placeCount = 0
    /// Passphrases the container may have now: the last acknowledged one first, then those a
    /// killed or refused change may have left.
    var passphrases: [String] = ["lifecycle passphrase 0"]
    var encryptAcknowledged = false
    var newKeySupported = false
    var outcome: Outcome

    /// The words no file of an encrypted cloud folder may hold: every note text, title and
    /// notebook name the model writes contains one.
    static let leakWords = ["zqmarker", "zqtitle", "zqbook"]

    /// A run of `steps` random operations for `seed`, in a new folder under `work` (removed
    /// afterwards when the run passed).
    public init(binary: URL, work: URL, seed: UInt64, steps: Int) {
        shell = LifecycleShell(
            binary: binary, home: work.appendingPathComponent("lifecycle-\(seed)-\(UUID().uuidString.prefix(8))"))
        self.seed = seed
        self.steps = steps
        random = SeededRandom(seed: seed)
        outcome = Outcome(seed: seed, log: [], failures: [], kills: 0, operations: 0)
    }

    /// The seed for the test: `CLOUDNOTES_LIFECYCLE_SEED` when set (to replay a printed
    /// failure), else nil.
    public static var replaySeed: UInt64? {
        ProcessInfo.processInfo.environment["CLOUDNOTES_LIFECYCLE_SEED"].flatMap { UInt64($0) }
    }

    /// Runs the model and its checks; the folder stays when a check failed (its path is in the log).
    public mutating func run() -> Outcome {
        do {
            try FileManager.default.createDirectory(at: shell.home, withIntermediateDirectories: true)
        } catch {
            fail("could not create \(shell.home.path): \(error)")
            return outcome
        }
        note("seed \(seed), folder \(shell.home.path)")
        setUp()
        if outcome.failures.isEmpty {
            for step in 0..<steps { randomStep(step) }
            converge()
            check()
        }
        if outcome.failures.isEmpty { try? FileManager.default.removeItem(at: shell.home) }  // a passed run's scratch
        return outcome
    }

    func device(_ name: String) -> URL { shell.home.appendingPathComponent("device-\(name)") }

    mutating func note(_ line: String) { outcome.log.append(line) }

    mutating func fail(_ message: String) {
        outcome.failures.append("seed \(seed): \(message)")
        note("FAILED: \(message)")
    }

    /// A fresh, never used place for `sync move`.
    mutating func freshPlace() -> String {
        placeCount += 1
        return shell.home.appendingPathComponent("place-\(placeCount)").path
    }

    mutating func nextMarker() -> String {
        markerCount += 1
        return "zqmarker\(markerCount)"
    }

    /// The passphrase environment: the current passphrase (and the new one, for a change).
    func passphraseEnvironment(_ current: String? = nil, new: String? = nil) -> [String: String] {
        var environment = ["CLOUDNOTES_PASSPHRASE": current ?? passphrases[0]]
        if let new { environment["CLOUDNOTES_NEW_PASSPHRASE"] = new }
        return environment
    }

    /// Three devices on one plain container, each with a notebook of its own and a note in it.
    mutating func setUp() {
        let first = freshPlace()
        for name in devices {
            let bound = runChecked(["sync", "init", first], on: name, what: "sync init")
            if bound?.succeeded != true { fail("\(name) could not join the new cloud folder") }
            _ = runChecked(["notebook", "create", "zqbook\(name)"], on: name, what: "notebook create")
            add(on: name, step: -1, notebook: "zqbook\(name)")
        }
        for name in devices + devices { _ = runChecked(["sync"], on: name, environment: [:], what: "sync") }
        let help = shell.run(["sync", "passphrase", "--help"], device: device("a"))
        newKeySupported = help.stdout.contains("--new-key")
        note("sync passphrase --new-key \(newKeySupported ? "exists" : "does not exist") in this build")
    }

    /// Runs a command that must end: exit 0, or a refusal of one line. Anything else (a
    /// crash, a trace, a hang) is a failure. Returns nil when the binary could not be run.
    @discardableResult
    mutating func runChecked(
        _ arguments: [String], on name: String, environment: [String: String]? = nil, killAfter: Int? = nil,
        what: String
    ) -> LifecycleShell.Run? {
        let result = shell.run(
            arguments, device: device(name), environment: environment ?? passphraseEnvironment(), killAfter: killAfter)
        outcome.operations += 1
        let shown = "\(name): cloudnotes \(arguments.joined(separator: " "))"
        if result.hung {
            fail("\(shown) hung for \(Int(LifecycleShell.deadline)) s")
            return result
        }
        if result.killed {
            outcome.kills += 1
            note("\(shown) → killed after \(killAfter ?? 0) µs")
            return result
        }
        let errorLines = result.stderr.split(separator: "\n")
        if result.status == 0 {
            let said = errorLines.isEmpty ? "" : " (stderr: \(errorLines.joined(separator: " | ")))"
            note("\(shown) → ok\(said)")
        } else {
            note("\(shown) → exit \(result.status): \(errorLines.joined(separator: " | "))")
            // One error line, the last; lines before it are notices of what was done first
            // (a pointer followed), never a second error or a trace.
            let errors = errorLines.filter { $0.hasPrefix("cloudnotes: ") }
            let oneLine = errors.count == 1 && errorLines.last?.hasPrefix("cloudnotes: ") == true
            if !oneLine || result.stderr.contains("Fatal error") || result.status > 1 {
                fail("\(what) on \(name) failed without one clear line (exit \(result.status)): \(result.stderr)")
            }
        }
        return result
    }

    /// Runs a cloud-changing command, with probability `killChance` killed at a random
    /// instant first, then run again as a user would until it exits 0 or refuses (at most
    /// three times). Returns whether it was acknowledged and the last refusal.
    mutating func runKillable(
        _ arguments: [String], on name: String, environment: [String: String], killChance: Int, what: String
    ) -> (acknowledged: Bool, refusal: String?) {
        if random.below(100) < killChance {
            let delay = Self.killDelay(&random)
            let first = runChecked(arguments, on: name, environment: environment, killAfter: delay, what: what)
            if first?.killed == false { return (first?.succeeded == true, first?.refusal) }
        }
        var last: LifecycleShell.Run?
        for _ in 0..<3 {
            let previous = last?.refusal
            last = runChecked(arguments, on: name, environment: environment, what: what)
            if last?.succeeded == true { return (true, nil) }
            // The same refusal twice is the command's answer, not a passing state.
            if last?.hung == true || last == nil || (previous != nil && last?.refusal == previous) { break }
        }
        return (false, last?.refusal)
    }
}

extension CloudLifecycleModel {
    /// When a kill comes, in µs after the start: the binary takes some 60 ms to start and a
    /// container operation 50–150 ms more, so most kills land inside one.
    static func killDelay(_ random: inout SeededRandom) -> Int { 10_000 + random.below(180_000) }
}

extension LifecycleShell.Run {
    /// The one line a refused command printed, without the program's name.
    var refusal: String? {
        guard !succeeded else { return nil }
        let line = stderr.split(separator: "\n").first.map(String.init) ?? "exit \(status)"
        return line.hasPrefix("cloudnotes: ") ? String(line.dropFirst("cloudnotes: ".count)) : line
    }
}
