import Foundation

/// `cloudnotes import` as a user runs it (issue 27): the corpus's JSON Lines (`BenchCorpus`)
/// and the same notes as a folder of Markdown files, each imported into a new data directory
/// as a whole process (wall clock and peak RSS, the median of `runs`), beside the sqlite3
/// CLI loading the same text into FTS5 (unicode61), and then what each table and index of the
/// store costs (`dbstat`, through the sqlite3 CLI). Pass the binary with `--cloudnotes PATH`.
struct ImportBenchmark {
    let count: Int
    let work: String
    let cloudnotes: String
    let runs: Int

    func run() throws {
        let base = try freshFolder("import")
        let jsonl = try BenchCorpus.jsonLines(count: count, work: work)
        let markdown = try BenchCorpus.markdown(count: count, work: work)
        let markdownBytes = Self.bytes(under: markdown)
        let jsonlBytes = Self.bytes(under: jsonl)
        print(
            "\n== import \(count) notes (\(BenchCorpus.label(count))): JSON Lines \(Self.mb(jsonlBytes)) MB, "
                + "Markdown folder \(Self.mb(markdownBytes)) MB; load \(Self.load()) ==")
        var kept = ""
        for (name, source) in [("JSON Lines", jsonl), ("Markdown folder", markdown)] {
            var walls: [Double] = []
            var peaks: [Double] = []
            var cpus: [Double] = []
            for run in 0..<runs {
                let data = "\(base)/data-\(name.prefix(4))-\(run)"
                var measured: (status: Int32, peakMB: Double) = (0, 0)
                let cpuBefore = Stats.cpuMs(of: RUSAGE_CHILDREN) / 1000
                walls.append(
                    try Stats.time {
                        measured = try Machine.runMeasuringPeak(cloudnotes, ["import", source, "--data-dir", data])
                    })
                cpus.append(Stats.cpuMs(of: RUSAGE_CHILDREN) / 1000 - cpuBefore)
                guard measured.status == 0 else { throw BenchError("import \(source) exited \(measured.status)") }
                peaks.append(measured.peakMB)
                if run == runs - 1, name == "Markdown folder" {
                    kept = data
                } else {
                    try? FileManager.default.removeItem(atPath: data)
                }
            }
            let wall = Stats.median(walls) / 1000
            print(
                "cloudnotes import (\(name)): median \(Stats.f(wall, 2)) s = \(Int(Double(count) / wall)) notes/s, "
                    + "CPU \(Stats.f(Stats.median(cpus), 2)) s, peak RSS \(Stats.f(Stats.median(peaks), 0)) MB; runs \(walls.map { Stats.f($0 / 1000, 2) }.joined(separator: ", ")) s"
            )
        }
        try sqlitePeer(jsonl: jsonl, markdown: markdown, base: base)
        try storeBreakdown(kept + "/notes.sqlite", textBytes: markdownBytes)
    }

    /// The sqlite3 CLI loading the same notes into an FTS5 table (unicode61): the JSON Lines
    /// through `.import` into a scratch table, the Markdown files through `fsdir`.
    private func sqlitePeer(jsonl: String, markdown: String, base: String) throws {
        guard let sqlite3 = Machine.which("sqlite3") else {
            print("sqlite3: not installed, no FTS5 peer")
            return
        }
        let fts = "CREATE VIRTUAL TABLE note USING fts5(title, body, tokenize = 'unicode61');"
        let scripts = [
            (
                "JSON Lines",
                """
                CREATE TEMP TABLE line(json TEXT);
                .mode ascii
                .separator "\\037" "\\n"
                .import \(jsonl) line
                \(fts)
                INSERT INTO note(title, body) SELECT json ->> 'title', json ->> 'body' FROM line;
                """
            ),
            (
                "Markdown folder",
                """
                \(fts)
                INSERT INTO note(title, body) SELECT name, CAST(data AS TEXT) FROM fsdir('\(markdown)') WHERE name LIKE '%.md';
                """
            ),
        ]
        for (name, script) in scripts {
            let database = "\(base)/fts5-\(name.prefix(4)).sqlite"
            let scriptFile = database + ".sql"
            try script.write(toFile: scriptFile, atomically: true, encoding: .utf8)
            var measured: (status: Int32, peakMB: Double) = (0, 0)
            let cpuBefore = Stats.cpuMs(of: RUSAGE_CHILDREN) / 1000
            let ms = try Stats.time {
                measured = try Machine.runMeasuringPeak(sqlite3, [database, "-cmd", ".read \(scriptFile)", ".quit"])
            }
            let cpu = Stats.cpuMs(of: RUSAGE_CHILDREN) / 1000 - cpuBefore
            guard measured.status == 0 else {
                throw BenchError("sqlite3 FTS5 load of \(name) exited \(measured.status)")
            }
            let rows = try Self.sqlite(sqlite3, database, "SELECT count(*) FROM note").trimmingCharacters(
                in: .whitespacesAndNewlines)
            print(
                "  peer: sqlite3 CLI into FTS5 (\(name), \(rows) rows): \(Stats.f(ms / 1000, 2)) s, CPU \(Stats.f(cpu, 2)) s, peak RSS \(Stats.f(measured.peakMB, 0)) MB, "
                    + "database \(Self.mb(Self.bytes(under: database))) MB")
            try? FileManager.default.removeItem(atPath: database)
        }
    }

    /// What each table and index of the store costs (`dbstat`), largest first, and the store's
    /// size against the text's.
    private func storeBreakdown(_ database: String, textBytes: Int) throws {
        let total = Self.bytes(under: database)
        print(
            "store after the Markdown import: \(Self.mb(total)) MB = \(Stats.f(Double(total) / Double(max(textBytes, 1)), 2))x "
                + "the Markdown text (\(Self.mb(textBytes)) MB)")
        guard let sqlite3 = Machine.which("sqlite3") else {
            print("  sqlite3: not installed, no breakdown per table")
            return
        }
        let rows = try Self.sqlite(
            sqlite3, database,
            "SELECT name, sum(pgsize), sum(payload), sum(unused) FROM dbstat GROUP BY name ORDER BY 2 DESC")
        for row in rows.split(separator: "\n") {
            let fields = row.split(separator: "|", omittingEmptySubsequences: false)
            guard fields.count == 4, let size = Int(fields[1]), let payload = Int(fields[2]),
                let unused = Int(fields[3])
            else { continue }
            guard size * 200 >= total else { continue }
            print(
                "  \(String(fields[0]).padding(toLength: 34, withPad: " ", startingAt: 0)) \(Self.mb(size).leftPadded(7)) MB "
                    + "(\(Stats.f(Double(size) * 100 / Double(max(total, 1)), 1))%; payload \(Self.mb(payload)) MB, unused \(Self.mb(unused)) MB)"
            )
        }
        print("  (parts under 0.5% of the file not shown)")
    }

    /// Output of one statement run by the sqlite3 CLI.
    private static func sqlite(_ sqlite3: String, _ database: String, _ sql: String) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: sqlite3)
        process.arguments = ["-readonly", database, sql]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw BenchError("sqlite3 \(sql) exited \(process.terminationStatus)")
        }
        return String(decoding: data, as: UTF8.self)
    }

    /// Bytes of a file, or of every regular file under a folder.
    static func bytes(under path: String) -> Int {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else { return 0 }
        guard isDirectory.boolValue else {
            return (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
        }
        var total = 0
        for case let name as String in FileManager.default.enumerator(atPath: path) ?? NSEnumerator() {
            let attributes = try? FileManager.default.attributesOfItem(atPath: path + "/" + name)
            if attributes?[.type] as? FileAttributeType == .typeRegular { total += attributes?[.size] as? Int ?? 0 }
        }
        return total
    }

    static func mb(_ bytes: Int) -> String { Stats.f(Double(bytes) / 1_000_000, 1) }

    /// The 1-minute load average (`/proc/loadavg`), as the machine is shared.
    static func load() -> String {
        ((try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8)) ?? "?").split(separator: " ").first.map(
            String.init) ?? "?"
    }
}

extension String {
    /// The string right-aligned in `width` characters.
    func leftPadded(_ width: Int) -> String { String(repeating: " ", count: max(0, width - count)) + self }
}
