import Foundation
import NotesCore

/// Propagation through the bucket: `cloudnotes add` on A until the note is in B's store, both
/// data directories bound to the bucket and running `cloudnotes sync --watch --debounce 0`. A
/// bucket has no change events, so B finds the note at its next poll (`AdaptivePoll`: every
/// `pollIntervalSeconds` for a minute after activity, when it is 12 s or less): the figures are
/// read against the poll interval.
extension S3Benchmark {
    func propagation(_ cloudnotes: String, a: Device, b: Device, url: String) async throws {
        try a.store.bindCloudFolder(url)
        try b.store.bindCloudFolder(url)
        let config = directory + "/config/cloudnotes"
        try FileManager.default.createDirectory(atPath: config, withIntermediateDirectories: true)
        try Data(#"{"pollIntervalSeconds": \#(poll)}"#.utf8).write(to: URL(fileURLWithPath: config + "/config.json"))
        let cli = CloudnotesCLI(cloudnotes, home: directory, extra: server.awsEnvironment)
        let watchers = try cli.startWatchers([a.directory, b.directory])
        defer { watchers.stop() }
        try await Task.sleep(for: .seconds(3))
        let edits = 40
        var random = SystemRandomNumberGenerator()
        var latencies: [Double] = []
        for n in 0..<edits {
            // A pause of a random share of the poll interval, so the edits fall at every phase of B's poll.
            try await Task.sleep(for: .milliseconds(Int.random(in: 0..<Int(poll * 1000), using: &random)))
            let start = Stats.now()
            let id = try cli.add(["latency \(n)", "--body", "propagation test \(n)", "--data-dir", a.directory])
            try await Stats.wait(since: start, timeoutMs: 60_000, every: .milliseconds(5), "note \(n) did not reach B")
            {
                try b.store.note(id) != nil
            }
            latencies.append(Stats.ms(start, Stats.now()))
        }
        let median = Stats.median(latencies)
        let p99 = Stats.percentile(latencies, 99)
        print(
            "S3: propagation, `cloudnotes add` on A to B's store (both `sync --watch --debounce 0`, "
                + "pollIntervalSeconds \(Stats.f(poll, 1)) for the benchmark, \(edits) edits): median \(Stats.f(median, 0)) ms "
                + "= \(Stats.f(median / 1000 / poll, 2)) × the poll interval, p99 \(Stats.f(p99, 0)) ms = \(Stats.f(p99 / 1000 / poll, 2)) × "
                + "(a poll-bound wait is uniform over one interval: median ≈ 0.5 ×, p99 ≈ 1 ×, plus the add and the send)"
        )
    }
}
