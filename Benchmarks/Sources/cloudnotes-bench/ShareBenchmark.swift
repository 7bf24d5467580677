import Foundation

/// Sharing a notebook beside syncing it privately (issue 24), through the `cloudnotes` binary
/// as people run it, each command timed as a whole process (wall clock; the median of `runs`):
///
/// - private: the owner's first `sync` of the notebook to their cloud folder (publish), their
///   second device's first `sync` (receive), and one edit's propagation (`edit`, `sync` on the
///   owner's device, `sync` on the second device, until it shows the edit);
/// - shared: `share create` (moves the notebook into a new place and syncs it there), the
///   member's `share accept` (checks the owner, opens the key, receives the notebook), and one
///   edit's propagation to the member the same way.
///
/// The corpus (`BenchCorpus`, seed 1) is imported into one notebook, `Shared`. Pass the release
/// binary with `--cloudnotes PATH`.
struct ShareBenchmark {
    let count: Int
    let work: String
    let cloudnotes: String
    let runs: Int

    func run() throws {
        let base = try freshFolder("share")
        let corpus = try notebookCorpus(base)
        var figures: [String: [Double]] = [:]
        for run in 0..<runs {
            for (name, ms) in try measure(corpus, home: "\(base)/run-\(run)") { figures[name, default: []].append(ms) }
            try? FileManager.default.removeItem(atPath: "\(base)/run-\(run)")
        }
        let seconds = { (name: String) in Stats.f(Stats.median(figures[name] ?? []) / 1000, 2) }
        print(
            "share \(count) notes (\(BenchCorpus.label(count))), median of \(runs):\n"
                + "  private: first sync \(seconds("private publish")) s | second device's first sync "
                + "\(seconds("private receive")) s | one edit to the second device \(seconds("private edit")) s\n"
                + "  shared:  share create \(seconds("share create")) s | member's share accept "
                + "\(seconds("share accept")) s | one edit to the member \(seconds("shared edit")) s")
    }

    /// The corpus's JSON Lines with every note in the notebook `Shared`.
    private func notebookCorpus(_ base: String) throws -> String {
        let source = try String(contentsOfFile: try BenchCorpus.jsonLines(count: count, work: work), encoding: .utf8)
        var lines: [String] = []
        for line in source.split(separator: "\n") where line.hasPrefix("{") {
            lines.append("{\"notebook\":\"shared\",\"notebookName\":\"Shared\"," + line.dropFirst())
        }
        let path = "\(base)/corpus-shared.jsonl"
        try (lines.joined(separator: "\n") + "\n").write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    private func measure(_ corpus: String, home: String) throws -> [(String, Double)] {
        let cli = CloudnotesCLI(cloudnotes, home: home)
        let (ana, ana2, bo) = ("\(home)/ana", "\(home)/ana2", "\(home)/bo")
        try cli.run(["sync", "init", "\(home)/cloud-ana", "--data-dir", ana])
        try cli.run(["sync", "init", "\(home)/cloud-ana", "--data-dir", ana2])
        try cli.run(["sync", "init", "\(home)/cloud-bo", "--data-dir", bo])
        try cli.run(["import", corpus, "--data-dir", ana])
        let ids = try cli.run(["list", "--json", "--limit", "1", "--data-dir", ana])
        guard let row = (try JSONSerialization.jsonObject(with: ids) as? [[String: Any]])?.first,
            let id = row["id"] as? String
        else { throw BenchError("list printed no note") }
        var figures: [(String, Double)] = []
        figures.append(("private publish", try Stats.time { try cli.run(["sync", "--data-dir", ana]) }))
        figures.append(("private receive", try Stats.time { try cli.run(["sync", "--data-dir", ana2]) }))
        figures.append(("private edit", try propagate(cli, id, from: ana, to: ana2, word: "privately")))

        let fingerprint = try identity(cli, ana, name: "Ana")["fingerprint"] ?? ""
        let code = try identity(cli, bo, name: "Bo")["code"] ?? ""
        let place = "\(home)/shared-place"
        figures.append(
            ("share create", try Stats.time { try cli.run(["share", "create", "Shared", place, "--data-dir", ana]) }))
        try cli.run(["share", "invite", place, code, "--role", "read-write", "--data-dir", ana])
        figures.append(
            (
                "share accept",
                try Stats.time {
                    try cli.run(["share", "accept", place, "--fingerprint", fingerprint, "--data-dir", bo])
                }
            ))
        figures.append(("shared edit", try propagate(cli, id, from: ana, to: bo, word: "shared")))
        return figures
    }

    /// `edit` on `from`, `sync` there, `sync` on `to`; checks `to` shows the edit.
    private func propagate(_ cli: CloudnotesCLI, _ id: String, from: String, to: String, word: String) throws -> Double
    {
        let marker = "\(word)-\(UUID().uuidString.prefix(8))"
        let ms = try Stats.time {
            try cli.run(["edit", id, "--body", "edited \(marker)", "--data-dir", from])
            try cli.run(["sync", "--data-dir", from])
            try cli.run(["sync", "--data-dir", to])
        }
        let shown = String(decoding: try cli.run(["show", id, "--data-dir", to]), as: UTF8.self)
        guard shown.contains(marker) else { throw BenchError("the edit did not reach \(to)") }
        return ms
    }

    private func identity(_ cli: CloudnotesCLI, _ directory: String, name: String) throws -> [String: String] {
        let output = try cli.run(["share", "id", "--name", name, "--json", "--data-dir", directory])
        return (try JSONSerialization.jsonObject(with: output) as? [String: String]) ?? [:]
    }
}
