import Foundation
import Testing

/// One sync at a time per data directory, between processes (SYNC-FORMAT "One sync at a time").
@Suite("Two sync processes on one data directory")
struct SyncLockCLITests {
    @Test("two one-shot syncs at once, 10 rounds: both succeed and no clone is detected")
    func twoAtOnce() throws {
        let runner = try CLIRunner()
        defer { runner.cleanUp() }
        let cloud = runner.home.appendingPathComponent("cloud").path
        #expect(try runner.cn("sync", "init", cloud).status == 0)
        for round in 0..<10 {
            try runner.add("note \(round)")
            let results = ResultPair()
            DispatchQueue.concurrentPerform(iterations: 2) { index in
                results.set(index, try? runner.cn("sync"))
            }
            for result in results.all {
                #expect(result?.status == 0, "round \(round): \(result?.stderr ?? "did not run")")
            }
        }
        let status = try runner.cn("status")
        #expect(!status.stdout.contains("was a copy of device"), "\(status.stdout)")
        #expect(status.stdout.contains("pending    0"), "\(status.stdout)")
    }
}

/// The two results of concurrent runs.
private final class ResultPair: @unchecked Sendable {
    private let lock = NSLock()
    private var results: [CLIRunner.Result?] = [nil, nil]

    func set(_ index: Int, _ result: CLIRunner.Result?) { lock.withLock { results[index] = result } }
    var all: [CLIRunner.Result?] { lock.withLock { results } }
}
