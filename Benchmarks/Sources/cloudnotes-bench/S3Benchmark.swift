import CloudFolder
import Foundation
import NotesCore
import NotesStore
import NotesSync
import NotesTestSupport

/// Sync through an S3 bucket vs through a directory (issue 14, SYNC-FORMAT "On S3"), against
/// the SeaweedFS this run started on loopback (`SeaweedServer`, as the tests start it), with the project's corpus (`BenchCorpus`):
/// the publication of every note from device A, the initial sync into an empty device (median
/// of `runs` fresh devices) with the requests it made, one edit there and back, an idle sync
/// and what an idle hour costs; then (`+Propagation`) `cloudnotes add` on A to B's store with
/// both watching, and (`+AWS`) `aws s3 sync` of the same notes as Markdown files.
struct S3Benchmark {
    let count: Int
    let work: String
    let server: SeaweedServer.Endpoint
    /// The release `cloudnotes` binary for the propagation part (skipped without it).
    let cloudnotes: String?
    /// `pollIntervalSeconds` of the watchers in the propagation part.
    let poll: Double
    let runs: Int

    var directory: String { "\(work)/s3-\(count)" }

    /// The corpus's `count` notes (its JSON lines kept in `work/N`, as the store benchmark keeps them).
    func corpus() throws -> [Note] {
        let jsonl = try BenchCorpus.jsonLines(count: count, work: work)
        return try StoreBenchmark(count: count, work: work, importRuns: 1).loadCorpus(jsonl)
    }

    /// A device over the directory `cloud` or (with `prefix`) the bucket.
    struct Device {
        let directory: String
        let store: NoteStore
        let engine: SyncEngine
        let io: S3FileIO?

        var requests: Int { io?.client.requestCount ?? 0 }
        var counts: String {
            guard let io else { return "" }
            let counts = io.requestCounts
            return counts.keys.sorted().map { "\($0) \(counts[$0] ?? 0)" }.joined(separator: ", ")
        }

        /// The requests by method since `before` (an earlier `requestCounts`).
        func countsSince(_ before: [String: Int]) -> String {
            guard let io else { return "" }
            let counts = io.requestCounts
            return counts.keys.sorted().compactMap {
                let n = (counts[$0] ?? 0) - (before[$0] ?? 0)
                return n > 0 ? "\($0) \(n)" : nil
            }.joined(separator: ", ")
        }
    }

    func device(_ name: String, cloud: String, prefix: String?) throws -> Device {
        let path = directory + "/" + name
        try? FileManager.default.removeItem(atPath: path)
        let store = try NoteStore(directory: URL(fileURLWithPath: path))
        let io = prefix.map { _ in S3FileIO(client: S3Client(endpoint: server.s3)) }
        let folder = io.map { DirectoryCloudFolder(root: "/" + prefix!, io: $0) } ?? DirectoryCloudFolder(root: cloud)
        var configuration = SyncEngine.Configuration(folder: folder, deviceName: name)
        configuration.logger.logLevel = .critical
        return Device(
            directory: path, store: store, engine: try SyncEngine(store: store, configuration: configuration), io: io)
    }

    func run() async throws {
        let notes = try corpus()
        let text = notes.reduce(0) { $0 + $1.title.utf8.count + $1.body.utf8.count }
        print(
            "\n== S3 (SeaweedFS on loopback) vs directory, \(count) notes (\(BenchCorpus.label(count)): \(Stats.f(Double(text) / 1_000_000, 1)) MB of text) =="
        )
        print(Machine.load())
        try? FileManager.default.removeItem(atPath: directory)
        try FileManager.default.createDirectory(atPath: directory + "/cloud", withIntermediateDirectories: true)
        var s3Pair: (a: Device, b: Device, prefix: String)?
        for overS3 in [false, true] {
            let label = overS3 ? "S3" : "directory"
            let prefix = overS3 ? "bench-\(UUID().uuidString.lowercased())" : nil
            let cloud = directory + "/cloud"
            let a = try device("a-\(label)", cloud: cloud, prefix: prefix)
            _ = try a.store.importNotes(notes)
            var summary = SyncSummary()
            let publishMs = await Stats.timeAsync { summary = await a.engine.syncNow() }
            guard summary.error == nil else { throw BenchError("\(label): A's send failed: \(summary.error!)") }
            print(
                "\(label): publish from A \(Stats.f(publishMs / 1000, 2)) s, \(summary.sent.batches) log files"
                    + (overS3 ? "; \(a.requests) requests (\(a.counts))" : ""))
            var initial: [Double] = []
            var b: Device?
            for run in 0..<runs {
                let fresh = try device("b\(run)-\(label)", cloud: cloud, prefix: prefix)
                initial.append(await Stats.timeAsync { summary = await fresh.engine.syncNow() })
                guard summary.fetched.changed.count == count else {
                    throw BenchError("\(label): the new device got \(summary.fetched.changed.count) notes")
                }
                if run == 0 {
                    b = fresh
                    if overS3 {
                        print("S3: initial sync into an empty device: \(fresh.requests) requests (\(fresh.counts))")
                    }
                }
            }
            print(
                "\(label): initial sync into an empty device, median of \(runs): \(Stats.f(Stats.median(initial) / 1000, 2)) s "
                    + "(runs \(initial.map { Stats.f($0 / 1000, 1) }.joined(separator: ", ")) s)"
                    + (overS3 ? "; target at 100k: under 60 s" : ""))
            guard let b else { continue }
            try await oneEdit(label, a: a, b: b, notes: notes)
            if let prefix { s3Pair = (a, b, prefix) }
        }
        guard let (a, b, prefix) = s3Pair else { return }
        try await idleHour(b)
        if let cloudnotes {
            try await propagation(cloudnotes, a: a, b: b, url: "s3://\(server.bucket)/\(prefix)")
        } else {
            print("propagation: skipped (give --cloudnotes PATH to a release binary)")
        }
        try awsSideBySide()
    }

    /// One edit of a note on A, sent, then fetched by B: median of 5, with the requests of each side.
    func oneEdit(_ label: String, a: Device, b: Device, notes: [Note]) async throws {
        var send: [Double] = []
        var fetch: [Double] = []
        var sendRequests = 0
        var fetchRequests = 0
        var (sendMethods, fetchMethods) = ("", "")
        for n in 0..<5 {
            _ = try a.store.update(notes[n].id) { $0.body += "one more line \(n)\n" }
            let (ra, rb) = (a.requests, b.requests)
            let (ca, cb) = (a.io?.requestCounts ?? [:], b.io?.requestCounts ?? [:])
            send.append(await Stats.timeAsync { _ = await a.engine.syncNow() })
            fetch.append(await Stats.timeAsync { _ = await b.engine.syncNow() })
            (sendRequests, fetchRequests) = (a.requests - ra, b.requests - rb)
            (sendMethods, fetchMethods) = (a.countsSince(ca), b.countsSince(cb))
        }
        print(
            "\(label): one changed note: A's sync \(Stats.f(Stats.median(send), 1)) ms, B's sync \(Stats.f(Stats.median(fetch), 1)) ms (medians of 5)"
                + (a.io == nil
                    ? "" : "; \(sendRequests) + \(fetchRequests) requests (A: \(sendMethods); B: \(fetchMethods))"))
    }

    /// Requests of an idle sync (what each poll of a watching device runs), times the polls of
    /// an hour on `AdaptivePoll`'s schedule at the default `pollIntervalSeconds` (30 s).
    func idleHour(_ b: Device) async throws {
        var perSync: [Double] = []
        var times: [Double] = []
        var last = ""
        for _ in 0..<7 {
            let before = b.requests
            times.append(await Stats.timeAsync { _ = await b.engine.syncNow() })
            perSync.append(Double(b.requests - before))
            // The sync's own requests: the newest of the client's log of recent ones.
            var methods: [String: Int] = [:]
            for request in b.io?.client.recentRequests.suffix(b.requests - before) ?? [] {
                methods[String(request.prefix { $0 != " " }), default: 0] += 1
            }
            last = methods.keys.sorted().map { "\($0) \(methods[$0] ?? 0)" }.joined(separator: ", ")
        }
        let requests = Stats.median(perSync)
        let base = AppConfig.defaults(environment: [:]).pollIntervalSeconds
        let poll = AdaptivePoll(base: base)
        // A device idle all hour (over 10 minutes since any activity): every 4 × base.
        let idlePolls = 3600 / poll.interval(sinceActivity: AdaptivePoll.idleAfter)
        // The hour after one edit: a minute at the busy interval, nine at base, fifty at 4 × base.
        let busy = poll.interval(sinceActivity: 0)
        let afterEdit =
            AdaptivePoll.busyWindow / busy + (AdaptivePoll.idleAfter - AdaptivePoll.busyWindow) / base
            + (3600 - AdaptivePoll.idleAfter) / poll.interval(sinceActivity: AdaptivePoll.idleAfter)
        print(
            "S3: an idle sync (\(runs + 1) devices, one of them publishing, one zone): \(Int(requests)) requests (\(last)), \(Stats.f(Stats.median(times), 1)) ms (median of 7)"
        )
        print(
            "S3: an idle hour at pollIntervalSeconds \(Int(base)) = requests per idle sync × polls: idle device "
                + "\(Int(requests)) × 3600/(4×\(Int(base))) = \(Int(requests * idlePolls)) requests; the hour after one edit "
                + "\(Int(requests)) × (60/\(Stats.f(busy, 0)) + 540/\(Int(base)) + 3000/\(Int(4 * base))) = \(Int(requests * afterEdit)) requests "
                + "(plus that edit's own requests)")
    }
}

extension Machine {
    /// The load average and cores, printed with each corpus size (others share the machine).
    static func load() -> String {
        let average =
            (try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8))?.split(separator: " ").prefix(3)
            .joined(separator: " ") ?? "?"
        return "machine: \(ProcessInfo.processInfo.activeProcessorCount) cores, load average \(average) (1, 5, 15 min)"
    }
}
