import CloudFolder
import Foundation
import NotesCore
import NotesStore
import NotesSync
import NotesTestSupport
import Testing

/// ARCHITECTURE §7's hostile-folder harness: real devices edit and sync over an in-memory cloud
/// folder while an attacker plants adversarial files into it, one action per iteration. The
/// attacker writes only what a broken replicator or a hostile writer could: files under forged
/// device ids, damaged or identical copies beside real files under replicators' renamed-copy
/// names (SYNC-FORMAT rule 9), junk names, and, for one device's sync at a time, real files of
/// *other* devices withheld (late arrival) or torn (a partial replica); those real bytes are put
/// back right after that sync, so the owner never sees them damaged and the final round sees
/// the folder a real replicator would deliver. The invariants: no sync fails or passes its
/// deadline, every write a device published is on every device after a final quiet round, the
/// devices are identical, and every planted file that does not check out is named in a
/// warning of each device that syncs after it was planted.
struct HostileFolderHarness {
    let seed: UInt64
    let deviceCount: Int
    let actions: Int
    /// The most one sync (or send, or fetch) may take before the run fails as a hang.
    var deadline: Duration = .seconds(20)
    /// An unfair attacker for the harness's own test: withheld and torn files never come back
    /// (a replicator that loses published files), so published writes must go missing.
    var unfair = false
    /// A plain or an encrypted container (the attacker has no key: every byte it forges is unsealed
    /// or a sealed file moved or damaged).
    var kind = FolderKind.plain

    static let zone = ZoneID("notes")!
    static let conflictNames = [
        "%@.sync-conflict-20240101-120000-ABCDEFG.json", "%@ (conflicted copy).json",
        "%@ (Someone's conflicted copy 2024-01-01).json", "%@_conflict-20240101-120000.json", "%@ 2.json",
    ]

    /// What a run found; empty `failures` is a pass.
    struct Outcome {
        var failures: [String] = []
        var acknowledged = 0
        var planted = 0
        /// Syncs after a chunk attack that held notes back (records waiting for the chunk).
        var heldByChunks = 0
    }

    var label: String {
        "hostile folder seed \(seed), \(deviceCount) devices, \(kind), \(actions) actions "
            + "(replay: CLOUDNOTES_SEED=\(seed) CLOUDNOTES_HOSTILE_ITERATIONS=\(actions))"
    }

    /// Mutable state of one run.
    final class Run: @unchecked Sendable {
        var random: SeededRandom
        let folder: DirectoryCloudFolder
        let io: InMemoryFileIO
        let devices: [TestDevice]
        var outcome = Outcome()
        /// Tokens written by each device and not yet published.
        var unpublished: [[String]]
        var ledger: [String] = []
        var notes: [UUID] = []
        /// Paths planted by the attacker (never real files), and which must be reported by each device.
        var planted: Set<String> = []
        var unreported: [Set<String>]
        /// Every device id a device has used (ids rotate), with the device's index.
        var writers: [String: Int] = [:]
        /// Chunks the attacker left damaged or missing, for the final round's repair.
        var damagedChunks: Set<String> = []

        init(seed: UInt64, deviceCount: Int, kind: FolderKind) throws {
            var random = SeededRandom(seed: seed)
            let (folder, io) = TestFolder.memory(encrypted: kind == .encrypted)
            devices = try (0..<deviceCount).map {
                try TestDevice(
                    "d\($0)", folder: folder, clock: TestClock(1_700_000_000_000 + Int64(random.below(5000))))
            }
            self.random = random
            self.folder = folder
            self.io = io
            unpublished = Array(repeating: [], count: deviceCount)
            unreported = Array(repeating: [], count: deviceCount)
        }
    }

    func run() async throws -> Outcome {
        let run = try Run(seed: seed, deviceCount: deviceCount, kind: kind)
        for device in run.devices.indices { await step(run, device, .sync) }
        for iteration in 0..<actions {
            try await act(run, iteration: iteration)
            if run.outcome.failures.count > 5 { return run.outcome }
        }
        try await finalRound(run)
        return run.outcome
    }

    enum Step { case sync, send, fetch }

    /// One device's sync, send or fetch under the deadline; publishing acknowledges its writes.
    func step(_ run: Run, _ index: Int, _ kind: Step) async {
        let engine = run.devices[index].engine
        defer { run.writers[run.devices[index].store.deviceID] = index }
        let result = await Self.within(deadline) { () -> String? in
            switch kind {
            case .sync: return await engine.syncNow().error.map { String(describing: $0) }
            case .send:
                do { _ = try await engine.sendChanges() } catch { return String(describing: error) }
                return nil
            case .fetch:
                do { _ = try await engine.fetchChanges() } catch { return String(describing: error) }
                return nil
            }
        }
        guard let error = result else {
            run.outcome.failures.append("\(label): d\(index) \(kind) passed its deadline of \(deadline)")
            return
        }
        if let error {
            run.outcome.failures.append("\(label): d\(index) \(kind) failed: \(error)")
            return
        }
        if kind != .fetch, (try? run.devices[index].store.pendingCount()) == 0 {
            run.ledger += run.unpublished[index]
            run.outcome.acknowledged += run.unpublished[index].count
            run.unpublished[index] = []
        }
        if kind != .send { await checkReported(run, index) }
    }

    /// Every planted file that does not check out is named in this device's warnings.
    func checkReported(_ run: Run, _ index: Int) async {
        guard !run.unreported[index].isEmpty else { return }
        let warnings = await run.devices[index].engine.warnings
        for path in run.unreported[index] {
            let relative = String(path.dropFirst(run.folder.layout.root.count + 1))
            if !warnings.contains(where: { $0.contains(path) || $0.contains(relative) || $0.contains(Self.tail(path)) })
            {
                let own = await run.devices[index].engine.device
                run.outcome.failures.append(
                    "\(label): d\(index) (device id \(own)) never reported the refused file \(path): \(warnings.count) warnings \(warnings)"
                )
            }
        }
        run.unreported[index] = []
    }

    /// The last three path components (device/segment/name), as warnings name renamed copies.
    static func tail(_ path: String) -> String { path.split(separator: "/").suffix(3).joined(separator: "/") }

    /// Runs `work`, or returns nil once `limit` has passed (the work is left running: the run fails).
    static func within<T: Sendable>(_ limit: Duration, _ work: @escaping @Sendable () async -> T) async -> T? {
        let once = ResumeOnce<T?>()
        return await withCheckedContinuation { continuation in
            once.set(continuation)
            let timer = Task {
                try? await Task.sleep(for: limit)
                if !Task.isCancelled { once.resume(nil) }
            }
            Task {
                let value = await work()
                timer.cancel()
                once.resume(.some(value))
            }
        }
    }
}

/// A continuation resumed by whichever of two tasks comes first.
final class ResumeOnce<T: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var continuation: CheckedContinuation<T, Never>?

    func set(_ continuation: CheckedContinuation<T, Never>) { lock.withLock { self.continuation = continuation } }

    func resume(_ value: T) {
        let taken = lock.withLock { () -> CheckedContinuation<T, Never>? in
            defer { continuation = nil }
            return continuation
        }
        taken?.resume(returning: value)
    }
}
