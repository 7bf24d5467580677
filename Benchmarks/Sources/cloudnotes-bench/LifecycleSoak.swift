import Foundation
import NotesTestSupport

/// The soak form of issue 21's life-cycle model (CloudLifecycleModel, whose short form is the
/// CLITests suite "cloud life cycle"): seeds run one after another until `seconds` are up,
/// each a longer random run of moves, encryptions and re-keyings under kill -9.
struct LifecycleSoak {
    let binary: String
    let work: String
    let seconds: Double
    /// The first seed; later ones count up from it, so a soak's seeds are known in advance.
    let firstSeed: UInt64
    let steps: Int

    /// Runs seeds until the time is up; prints each failing seed's log and a summary line.
    /// Returns how many seeds failed.
    func run() -> Int {
        let started = Date()
        var seed = firstSeed
        var ran = 0
        var failed: [UInt64] = []
        print("lifecycle soak: \(Int(seconds)) s, seeds from \(firstSeed), \(steps) steps each, binary \(binary)")
        while -started.timeIntervalSinceNow < seconds {
            var model = CloudLifecycleModel(
                binary: URL(fileURLWithPath: binary), work: URL(fileURLWithPath: work), seed: seed, steps: steps)
            let outcome = model.run()
            ran += 1
            print(
                "seed \(seed): \(outcome.operations) command(s), \(outcome.kills) killed, "
                    + (outcome.failures.isEmpty ? "passed" : "\(outcome.failures.count) failure(s)"))
            if !outcome.failures.isEmpty {
                failed.append(seed)
                print("  replay: CLOUDNOTES_LIFECYCLE_SEED=\(seed) CLOUDNOTES_LIFECYCLE_STEPS=\(steps)")
                for line in outcome.log { print("  \(line)") }
            }
            seed += 1
        }
        print(
            "lifecycle soak: \(ran) seed(s) run in \(Int(-started.timeIntervalSinceNow)) s, \(failed.count) failed"
                + (failed.isEmpty ? "" : ": \(failed.map(String.init).joined(separator: " "))"))
        return failed.count
    }
}
