import Foundation
import NotesTestSupport
import Testing

/// Issue 21's model-based test of the cloud's life cycle (CloudLifecycleModel): three devices
/// edit and sync while the container is moved, encrypted and re-keyed at random moments, with
/// kill -9 at random points of each operation. The short form for CI; the soak is
/// `cloudnotes-bench --lifecycle-soak --seconds N`.
@Suite("cloud life cycle: move, encrypt, re-key under kill -9")
struct CloudLifecycleModelTests {
    /// The seeds CI runs; `CLOUDNOTES_LIFECYCLE_SEED=<seed>` replays one instead.
    static let seeds: [UInt64] = [1, 2, 3, 4, 5, 7, 8, 9]
    /// Operations per seed; `CLOUDNOTES_LIFECYCLE_STEPS` replays a soak's longer seeds.
    static let steps = ProcessInfo.processInfo.environment["CLOUDNOTES_LIFECYCLE_STEPS"].flatMap { Int($0) } ?? 36

    @Test("three devices converge, lose no acknowledged edit and leak no word, whatever the seed")
    func lifecycle() throws {
        let seeds = CloudLifecycleModel.replaySeed.map { [$0] } ?? Self.seeds
        var kills = 0
        for seed in seeds {
            print(
                "cloud life cycle seed \(seed), \(Self.steps) steps "
                    + "(CLOUDNOTES_LIFECYCLE_SEED=\(seed) CLOUDNOTES_LIFECYCLE_STEPS=\(Self.steps) replays it)")
            var model = CloudLifecycleModel(
                binary: CLIRunner.binary, work: FileManager.default.temporaryDirectory, seed: seed, steps: Self.steps)
            let outcome = model.run()
            print(
                "seed \(seed): \(outcome.operations) command(s), \(outcome.kills) killed, "
                    + "\(outcome.failures.count) failure(s)")
            if !outcome.failures.isEmpty { print(outcome.log.joined(separator: "\n")) }
            kills += outcome.kills
            for failure in outcome.failures { Issue.record("\(failure)") }
        }
        // A seed whose kills all came after the command ended tests no interruption; the run as a
        // whole must have killed some.
        #expect(kills > 0, "seeds \(seeds): nothing was killed, so no interruption was tested")
    }
}
