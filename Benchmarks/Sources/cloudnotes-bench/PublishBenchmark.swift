import Foundation

/// `cloudnotes publish` of a corpus (issue 26), through the binary as a user runs it: import the
/// corpus (`BenchCorpus`, every note in the default notebook) into a new data directory, publish
/// the notebook into a new folder, publish again with nothing changed, edit one note and publish
/// again; beside `export` of the same notes and `rsync -a` of the export folder into a new one
/// (what copying the notes as files costs). Wall clock of each whole process, median of `runs`.
struct PublishBenchmark {
    let count: Int
    let work: String
    let cloudnotes: String
    let runs: Int

    func run() throws {
        let base = try freshFolder("publish")
        let corpus = try BenchCorpus.jsonLines(count: count, work: work)
        let rsync = Machine.which("rsync")
        var first: [Double] = []
        var unchanged: [Double] = []
        var edited: [Double] = []
        var export: [Double] = []
        var copy: [Double] = []
        var siteMB = 0.0
        for run in 0..<runs {
            let data = "\(base)/data-\(run)"
            let site = "\(base)/site-\(run)"
            try check(Machine.run(cloudnotes, ["import", corpus, "--data-dir", data]), "import")
            first.append(try timed(["publish", "notes", site, "--data-dir", data], "publish"))
            unchanged.append(try timed(["publish", "notes", site, "--data-dir", data], "publish again"))
            let id = try firstNoteID(data)
            try check(
                Machine.run(cloudnotes, ["edit", id, "--body", "edited for the benchmark \(run)", "--data-dir", data]),
                "edit")
            edited.append(try timed(["publish", "notes", site, "--data-dir", data], "publish after an edit"))
            siteMB = Double(Self.bytes(under: site)) / 1_048_576
            export.append(try timed(["export", "\(base)/md-\(run)", "--data-dir", data], "export"))
            if let rsync {
                copy.append(
                    try Stats.time {
                        try check(Machine.run(rsync, ["-a", "\(base)/md-\(run)/", "\(base)/copy-\(run)/"]), "rsync")
                    })
            }
            let pages =
                (try? FileManager.default.contentsOfDirectory(atPath: site + "/notes"))?.filter {
                    $0.hasSuffix(".html")
                }.count ?? 0
            guard pages == count else { throw BenchError("publish wrote \(pages) pages for \(count) notes") }
            for folder in [data, site, "\(base)/md-\(run)", "\(base)/copy-\(run)"] {
                try? FileManager.default.removeItem(atPath: folder)
            }
        }
        func s(_ values: [Double]) -> String { Stats.f(Stats.median(values) / 1000, 2) + " s" }
        print(
            "publish \(count) notes (site \(Stats.f(siteMB, 1)) MB): first \(s(first)) | again, unchanged \(s(unchanged)) | after one edit \(s(edited)) | export markdown \(s(export)) | rsync -a of the export \(rsync == nil ? "(rsync not installed)" : s(copy))  (median of \(runs))"
        )
    }

    /// The id of one note of the store (`list --json --limit 1`).
    private func firstNoteID(_ data: String) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: cloudnotes)
        process.arguments = ["list", "--json", "--limit", "1", "--data-dir", data]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let bytes = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        struct Row: Decodable { var id: String }
        guard let id = try JSONDecoder().decode([Row].self, from: bytes).first?.id else {
            throw BenchError("list --json gave no note")
        }
        return id
    }

    /// The bytes of the files under `path`.
    static func bytes(under path: String) -> Int {
        let files = FileManager.default.enumerator(atPath: path)?.allObjects as? [String] ?? []
        return files.reduce(0) { total, file in
            total + ((try? FileManager.default.attributesOfItem(atPath: path + "/" + file)[.size] as? Int) ?? 0)
        }
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
