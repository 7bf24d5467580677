import Foundation
import NotesCore
import NotesStore

/// The live notes folder (issue 26), through the binary as a user runs it: import the corpus
/// (`BenchCorpus`, every note in the default notebook), `files on DIR` (the first write, each
/// file fsynced and renamed), then with `files --watch` running: a file saved until its note is
/// in the store, and a store change (another connection, as the app or a command) until its
/// file is written, each polled every 5 ms; beside `export` of the same notes and `rsync -a` of
/// the folder. Wall clock, median of `runs` (the latencies: of 5 saves each way per run).
struct FolderBenchmark {
    let count: Int
    let work: String
    let cloudnotes: String
    let runs: Int

    func run() throws {
        let base = try freshFolder("folder")
        let corpus = try BenchCorpus.jsonLines(count: count, work: work)
        let rsync = Machine.which("rsync")
        var first: [Double] = []
        var fileToStore: [Double] = []
        var storeToFile: [Double] = []
        var export: [Double] = []
        var copy: [Double] = []
        for run in 0..<runs {
            let data = "\(base)/data-\(run)"
            let folder = "\(base)/notes-\(run)"
            try check(Machine.run(cloudnotes, ["import", corpus, "--data-dir", data]), "import")
            first.append(try timed(["files", "on", folder, "--data-dir", data], "files on"))
            export.append(try timed(["export", "\(base)/md-\(run)", "--data-dir", data], "export"))
            if let rsync {
                copy.append(
                    try Stats.time {
                        try check(Machine.run(rsync, ["-a", folder + "/", "\(base)/copy-\(run)/"]), "rsync")
                    })
            }
            let watch = Process()
            watch.executableURL = URL(fileURLWithPath: cloudnotes)
            watch.arguments = ["files", "--watch", "--data-dir", data]
            watch.standardOutput = FileHandle.nullDevice
            watch.standardError = FileHandle.nullDevice
            try watch.run()
            defer {
                watch.interrupt()
                watch.waitUntilExit()
            }
            let store = try NoteStore(directory: URL(fileURLWithPath: data))
            let notes = try store.list(ListRequest(section: .all, limit: 6))
            // The watcher's first pass is over once a change gets through: not timed, and given
            // as long as it takes (at 100,000 notes it hashes every file `files on` just wrote,
            // far more than a fixed wait or the 30 s allowed a timed change).
            if let warm = notes.last {
                let path = try notePath(folder, warm)
                _ = try until(what: "the watcher's first pass", limit: 1800) {
                    try store.update(warm.id) { $0.body += "\nbefore the timed changes" }
                } done: {
                    (try? String(contentsOfFile: path, encoding: .utf8))?.contains("before the timed changes") == true
                }
            }
            for (index, summary) in notes.dropLast().enumerated() {
                let path = try notePath(folder, summary)
                let marker = "saved by the benchmark \(run)-\(index)"
                let text = try String(contentsOfFile: path, encoding: .utf8)
                fileToStore.append(
                    try until(what: "file to store") {
                        try Data((text + marker + "\n").utf8).write(to: URL(fileURLWithPath: path), options: .atomic)
                    } done: {
                        (try store.note(summary.id))?.body.contains(marker) == true
                    })
                let changed = "changed in the store \(run)-\(index)"
                storeToFile.append(
                    try until(what: "store to file") {
                        try store.update(summary.id) { $0.body += "\n" + changed }
                    } done: {
                        (try? String(contentsOfFile: path, encoding: .utf8))?.contains(changed) == true
                    })
            }
            for path in [data, folder, "\(base)/md-\(run)", "\(base)/copy-\(run)"] {
                try? FileManager.default.removeItem(atPath: path)
            }
        }
        func s(_ values: [Double]) -> String { Stats.f(Stats.median(values) / 1000, 2) + " s" }
        print(
            "notes folder \(count) notes: files on (first write) \(s(first)) | a file saved → in the store \(s(fileToStore)) | a store change → its file \(s(storeToFile)) | export \(s(export)) | rsync -a of the folder \(rsync == nil ? "(rsync not installed)" : s(copy))  (median of \(runs) runs; latencies of \(fileToStore.count))"
        )
    }

    /// The file of `note` in the default notebook's folder: of the files named after its title
    /// (export's name for it, or that name with a suffix), the one whose front matter has its id.
    /// At 100,000 notes titles repeat ("Postmortem an" three times), so the name alone may be a
    /// namesake's file.
    private func notePath(_ folder: String, _ note: NoteSummary) throws -> String {
        let names = try FileManager.default.contentsOfDirectory(atPath: folder + "/notes")
        let stem = ExportNames.safe(note.title)
        let idLine = "\nid: \(note.id.lowercasedString)\n"
        for name in names where name.hasPrefix(stem) && name.hasSuffix(".md") {
            let path = folder + "/notes/" + name
            if (try? String(contentsOfFile: path, encoding: .utf8))?.contains(idLine) == true { return path }
        }
        throw BenchError("no file for \(note.title) (\(note.id))")
    }

    /// Milliseconds from `start` until `done` holds, polled every 5 ms (at most `limit` seconds).
    private func until(
        what: String, limit: Double = 30, _ start: () throws -> Void, done: () throws -> Bool
    ) throws -> Double {
        let began = Date()
        try start()
        while try !done() {
            guard Date().timeIntervalSince(began) < limit else {
                throw BenchError("\(what) took over \(Int(limit)) s")
            }
            Thread.sleep(forTimeInterval: 0.005)
        }
        return Date().timeIntervalSince(began) * 1000
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
