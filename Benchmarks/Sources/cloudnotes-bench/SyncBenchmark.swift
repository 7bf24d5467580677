import CloudFolder
import Foundation
import NotesCore
import NotesStore
import NotesSync

// The benchmark wires NoteStore to the engine as the executable does (NotesStore may not import NotesSync).
extension NoteStore: SyncStore {}

/// Sync benchmarks (issue 3): initial sync into an empty device, CPU of a no-change fetch with
/// three devices, bytes written to the folder per edit, and the propagation latency of one
/// `cloudnotes add` on device A to device B's store while both run `cloudnotes sync --watch`.
/// Side by side, one changed Markdown file copied with rsync or unison, where installed.
struct SyncBenchmark {
    let count: Int
    let work: String
    /// The release `cloudnotes` binary for the latency part (skipped without it).
    let cloudnotes: String?

    var directory: String { "\(work)/sync-\(count)" }

    func run() async throws {
        try? FileManager.default.removeItem(atPath: directory)
        let cloud = directory + "/cloud"
        try FileManager.default.createDirectory(atPath: cloud, withIntermediateDirectories: true)
        print("\n== sync, \(count) notes ==")
        let a = try device("a", cloud: cloud)
        let notes = (0..<count).map(Self.note)
        _ = try a.store.importNotes(notes)
        var cpu = Stats.cpuMs()
        var summary = SyncSummary()
        let publishMs = await Stats.timeAsync { summary = await a.engine.syncNow() }
        precondition(summary.error == nil, "A's send failed: \(String(describing: summary.error))")
        let logBytes = Self.folderBytes(cloud)
        print(
            "publish from A: \(summary.sent.sent) revisions in \(summary.sent.batches) log files, "
                + "\(Stats.f(publishMs / 1000, 2)) s wall, CPU \(Stats.f((Stats.cpuMs() - cpu) / 1000, 2)) s; "
                + "folder \(logBytes / 1_000_000) MB")

        let b = try device("b", cloud: cloud)
        cpu = Stats.cpuMs()
        let initialMs = await Stats.timeAsync { summary = await b.engine.syncNow() }
        precondition(summary.fetched.changed.count == count, "B got \(summary.fetched.changed.count) notes")
        print(
            "initial sync into an empty device: \(Stats.f(initialMs / 1000, 2)) s wall = "
                + "\(Int(Double(count) / (initialMs / 1000))) notes/s; CPU \(Stats.f((Stats.cpuMs() - cpu) / 1000, 2)) s"
                + " (target: 100k in under 15 s)")

        // A third device with an edit of its own: three device logs to probe.
        let c = try device("c", cloud: cloud)
        _ = await c.engine.syncNow()
        _ = try c.store.update(notes[0].id) { $0.body += "from c\n" }
        _ = await c.engine.syncNow()
        _ = await a.engine.syncNow()
        _ = await b.engine.syncNow()
        var fetchCPU: [Double] = []
        var fetchWall: [Double] = []
        for _ in 0..<50 {
            let before = Stats.cpuMs()
            fetchWall.append(await Stats.timeAsync { _ = try? await b.engine.fetchChanges() })
            fetchCPU.append(Stats.cpuMs() - before)
        }
        print(
            "no-change fetch (3 devices): CPU median \(Stats.f(Stats.median(fetchCPU), 2)) ms, "
                + "p99 \(Stats.f(Stats.percentile(fetchCPU, 99), 2)) ms; wall median \(Stats.f(Stats.median(fetchWall), 2)) ms"
                + " (target: under 5 ms)")

        // Bytes per edit: one edit of a typical note, sent; what the folder grew by.
        var perEdit: [Int] = []
        var sizes: [Int] = []
        for n in 1...20 {
            let before = Self.folderBytes(cloud)
            let edited = try a.store.update(notes[n].id) { $0.body += "edit \(n)\n" }
            _ = await a.engine.syncNow()
            perEdit.append(Self.folderBytes(cloud) - before)
            sizes.append(edited.body.utf8.count + edited.title.utf8.count)
        }
        let size = sizes.reduce(0, +) / sizes.count
        print(
            "bytes written per edit: median \(Int(Stats.median(perEdit.map(Double.init)))) for a \(size)-byte note "
                + "(target: under \(2 * size + 1024))")

        if let cloudnotes { try await propagation(cloudnotes, a: a, b: b, cloud: cloud) }
        try sideBySide()
    }

    /// One `cloudnotes add` on A until the note is in B's store, both running `sync --watch`.
    func propagation(_ cloudnotes: String, a: Device, b: Device, cloud: String) async throws {
        try a.store.bindCloudFolder(cloud)
        try b.store.bindCloudFolder(cloud)
        let cli = CloudnotesCLI(cloudnotes, home: directory)
        let watchers = try cli.startWatchers([a.directory, b.directory])
        defer { watchers.stop() }
        try await Task.sleep(for: .seconds(2))
        var latencies: [Double] = []
        var addOnly: [Double] = []
        for n in 0..<100 {
            let start = Stats.now()
            let id = try cli.add(["latency \(n)", "--body", "propagation test \(n)", "--data-dir", a.directory])
            addOnly.append(Stats.ms(start, Stats.now()))
            try await Stats.wait(since: start, timeoutMs: 10_000, every: .milliseconds(1), "note \(n) did not reach B")
            {
                try b.store.note(id) != nil
            }
            latencies.append(Stats.ms(start, Stats.now()))
        }
        print(
            "propagation, `cloudnotes add` on A to B's store (both `sync --watch --debounce 0`, 100 edits): "
                + "median \(Stats.f(Stats.median(latencies))) ms, p99 \(Stats.f(Stats.percentile(latencies, 99))) ms "
                + "(slowest: \(latencies.enumerated().sorted { $0.element > $1.element }.prefix(3).map { "#\($0.offset) \(Int($0.element)) ms" }.joined(separator: ", "))); "
                + "of which the add process itself: median \(Stats.f(Stats.median(addOnly))) ms "
                + "(targets: median under 100 ms, p99 under 300 ms)")
    }

    /// The same one-file propagation with rsync or unison over the notes as Markdown files.
    func sideBySide() throws {
        let tool = Machine.which("unison") ?? Machine.which("rsync")
        guard let tool else { return print("side by side: neither unison nor rsync is installed") }
        let source = directory + "/md-a"
        let target = directory + "/md-b"
        try FileManager.default.createDirectory(atPath: source, withIntermediateDirectories: true)
        for n in 0..<count {
            try Data(Self.note(n).body.utf8).write(to: URL(fileURLWithPath: "\(source)/note-\(n).md"))
        }
        let arguments: (String) -> [String] = { tool in
            tool.hasSuffix("unison") ? [source, target, "-batch", "-silent"] : ["-a", source + "/", target + "/"]
        }
        try Machine.run(tool, arguments(tool))
        var times: [Double] = []
        for n in 0..<20 {
            try Data("edited \(n)\n".utf8).write(to: URL(fileURLWithPath: "\(source)/note-\(n).md"))
            times.append(try Stats.time { try Machine.run(tool, arguments(tool)) })
        }
        print(
            "side by side, \((tool as NSString).lastPathComponent) of one changed file among \(count) Markdown files: "
                + "median \(Stats.f(Stats.median(times))) ms (one run, no watcher)")
    }

    struct Device {
        let directory: String
        let store: NoteStore
        let engine: SyncEngine
    }

    func device(_ name: String, cloud: String) throws -> Device {
        let path = directory + "/" + name
        let store = try NoteStore(directory: URL(fileURLWithPath: path))
        let engine = try SyncEngine(
            store: store,
            configuration: SyncEngine.Configuration(folder: DirectoryCloudFolder(root: cloud), deviceName: name))
        return Device(directory: path, store: store, engine: engine)
    }

    /// A note of a few hundred bytes: deterministic words, a few tags.
    static func note(_ n: Int) -> Note {
        let words = [
            "meeting", "project", "kernel", "budget", "review", "latency", "garden", "ångström", "東京", "notes",
        ]
        var body = ""
        var x = UInt64(n) &* 6_364_136_223_846_793_005 &+ 1
        for line in 0..<8 {
            var text = "line \(line):"
            for _ in 0..<8 {
                x = x &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                text += " " + words[Int(x >> 60) % words.count]
            }
            body += text + "\n"
        }
        let id = UUID(uuidString: String(format: "00000000-0000-4000-8000-%012d", n))!
        let date = Date(millisecondsSince1970: 1_700_000_000_000 + Int64(n) * 1000)
        return Note(id: id, title: "note \(n)", body: body, tags: ["t\(n % 7)"], createdAt: date)
    }

    /// Bytes of every file under the folder.
    static func folderBytes(_ root: String) -> Int {
        guard let items = FileManager.default.enumerator(atPath: root) else { return 0 }
        var total = 0
        for case let item as String in items {
            let attributes = try? FileManager.default.attributesOfItem(atPath: root + "/" + item)
            if attributes?[.type] as? FileAttributeType == .typeRegular { total += attributes?[.size] as? Int ?? 0 }
        }
        return total
    }
}

extension Stats {
    static func timeAsync(_ body: () async throws -> Void) async rethrows -> Double {
        let start = now()
        try await body()
        return ms(start, now())
    }
}
