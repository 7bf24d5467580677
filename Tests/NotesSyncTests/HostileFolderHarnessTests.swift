import Foundation
import NotesTestSupport
import Testing

/// Runs the hostile-folder harness (ARCHITECTURE §7) for a bounded number of actions per CI
/// run: `CLOUDNOTES_HOSTILE_ITERATIONS` sets the actions per test (split into runs of
/// `actionsPerRun`), `CLOUDNOTES_SEED` the first run's seed; each failure names the run's seed
/// and the environment that replays it alone.
@Suite("Hostile folder harness: nothing wedges sync")
struct HostileFolderHarnessTests {
    static let actionsPerRun = 48

    static var iterations: Int {
        ProcessInfo.processInfo.environment["CLOUDNOTES_HOSTILE_ITERATIONS"].flatMap { Int($0) } ?? 1_200
    }

    @Test(
        "two and three devices: no crash, no hang, acknowledged writes everywhere, refused files reported",
        arguments: [2, 3], FolderKind.allCases)
    func devices(count: Int, kind: FolderKind) async throws {
        let first = SeededRandom.seed(default: UInt64(count) * 1_000_000)
        let total = Self.iterations
        print("hostile folder, \(count) devices, \(kind): \(total) actions from CLOUDNOTES_SEED=\(first)")
        var done = 0
        var seed = first
        var acknowledged = 0
        var planted = 0
        var held = 0
        while done < total {
            let actions = min(Self.actionsPerRun, total - done)
            var harness = HostileFolderHarness(seed: seed, deviceCount: count, actions: actions)
            harness.kind = kind
            let outcome = try await harness.run()
            for failure in outcome.failures { Issue.record(Comment(rawValue: failure)) }
            if !outcome.failures.isEmpty { return }
            acknowledged += outcome.acknowledged
            planted += outcome.planted
            held += outcome.heldByChunks
            done += actions
            seed &+= 1
        }
        print(
            "hostile folder, \(count) devices: \(done) actions, \(acknowledged) acknowledged writes, \(planted) planted files, "
                + "\(held) syncs holding notes back for a damaged chunk"
        )
        // The runs must really publish writes and plant files, or the invariants prove nothing.
        #expect(acknowledged > total / 20, "only \(acknowledged) acknowledged writes")
        #expect(planted > total / 4, "only \(planted) planted files")
    }

    /// The oracle is not vacuous: a replicator that loses other devices' published files for
    /// good must make the harness report lost writes.
    @Test("an attacker that never gives published files back is caught")
    func unfairAttackerCaught() async throws {
        var caught = 0
        for seed in UInt64(500)..<UInt64(520) {
            var harness = HostileFolderHarness(seed: seed, deviceCount: 2, actions: 48)
            harness.unfair = true
            let outcome = try await harness.run()
            if outcome.failures.contains(where: { $0.contains("lost on") || $0.contains("differs from") }) {
                caught += 1
            }
        }
        print("unfair attacker: \(caught) of 20 runs lost a write")
        #expect(caught >= 3, "only \(caught) of 20 unfair runs lost a write")
    }
}
