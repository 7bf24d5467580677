import Foundation

/// Markdown export beside the import of the same notes (issue 15), through the `cloudnotes`
/// binary as a user runs it: the corpus's JSON Lines (`BenchCorpus`) `F`, `cloudnotes import F` into a new
/// data directory, then `cloudnotes export DIR` (a folder per notebook, a file per note) and
/// `cloudnotes export F.json --format json`. Each is timed as a whole process, wall clock;
/// the median of `runs`. Pass the release binary with `--cloudnotes PATH`.
struct ExportBenchmark {
    let count: Int
    let work: String
    let cloudnotes: String
    let runs: Int

    func run() throws {
        let base = try freshFolder("export")
        let corpus = try BenchCorpus.jsonLines(count: count, work: work)
        var imports: [Double] = []
        var markdown: [Double] = []
        var json: [Double] = []
        var jsonPeak: [Double] = []
        for run in 0..<runs {
            let data = "\(base)/data-\(run)"
            imports.append(try timed(["import", corpus, "--data-dir", data], "import"))
            markdown.append(try timed(["export", "\(base)/md-\(run)", "--data-dir", data], "export"))
            var measured: (status: Int32, peakMB: Double) = (0, 0)
            json.append(
                try Stats.time {
                    measured = try Machine.runMeasuringPeak(
                        cloudnotes, ["export", "\(base)/notes-\(run).json", "--format", "json", "--data-dir", data])
                })
            try check(measured.status, "export --format json")
            jsonPeak.append(measured.peakMB)
            let files = (FileManager.default.enumerator(atPath: "\(base)/md-\(run)")?.allObjects as? [String] ?? [])
                .filter { $0.hasSuffix(".md") }.count
            guard files == count else { throw BenchError("export wrote \(files) files for \(count) notes") }
            try? FileManager.default.removeItem(atPath: "\(base)/md-\(run)")
            try? FileManager.default.removeItem(atPath: data)
        }
        let i = Stats.median(imports)
        let m = Stats.median(markdown)
        print(
            "export \(count) notes: import \(Stats.f(i / 1000, 2)) s | export markdown \(Stats.f(m / 1000, 2)) s (\(Stats.f(m / i, 2))× import) | export json \(Stats.f(Stats.median(json) / 1000, 2)) s, peak RSS \(Stats.f(Stats.median(jsonPeak), 0)) MB  (median of \(runs))"
        )
    }

    private func timed(_ arguments: [String], _ what: String) throws -> Double {
        var status: Int32 = 0
        let ms = try Stats.time { status = try Machine.run(cloudnotes, arguments) }
        try check(status, what)
        return ms
    }

    private func check(_ status: Int32, _ what: String) throws {
        guard status == 0 else { throw BenchError("\(what) exited \(status)") }
    }
}

struct BenchError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
