import CloudFolder
import Foundation
import NotesCore
import NotesStore
import NotesSync

/// Sync through an S3 bucket vs through a directory (SYNC-FORMAT "On S3"): the publication of
/// `count` notes from device A and the initial sync into an empty device B, with the requests
/// each made. The bucket comes from the AWS variables (`AWS_ENDPOINT_URL`, keys) and
/// `--bucket NAME` (default `cloudnotes-bench`), e.g. a local `weed mini`.
struct S3Benchmark {
    let count: Int
    let work: String
    let bucket: String

    func run() async throws {
        print("\n== S3 vs directory, \(count) notes ==")
        let endpoint = try S3Endpoint.resolve(bucket: bucket, environment: ProcessInfo.processInfo.environment)
        print("endpoint \(endpoint.url.absoluteString), bucket \(bucket)")
        for overS3 in [false, true] {
            let label = overS3 ? "s3" : "directory"
            let directory = "\(work)/s3-\(count)-\(label)"
            try? FileManager.default.removeItem(atPath: directory)
            let cloud = directory + "/cloud"
            try FileManager.default.createDirectory(atPath: cloud, withIntermediateDirectories: true)
            let prefix = "bench-\(UUID().uuidString.lowercased())"
            func device(_ name: String) throws -> (NoteStore, SyncEngine, S3FileIO?) {
                let store = try NoteStore(directory: URL(fileURLWithPath: directory + "/" + name))
                let io = overS3 ? S3FileIO(client: S3Client(endpoint: endpoint)) : nil
                let folder =
                    io.map { DirectoryCloudFolder(root: "/" + prefix, io: $0) } ?? DirectoryCloudFolder(root: cloud)
                let engine = try SyncEngine(
                    store: store, configuration: SyncEngine.Configuration(folder: folder, deviceName: name))
                return (store, engine, io)
            }
            let (storeA, engineA, ioA) = try device("a")
            _ = try storeA.importNotes((0..<count).map(SyncBenchmark.note))
            var summary = SyncSummary()
            let publishMs = await Stats.timeAsync { summary = await engineA.syncNow() }
            precondition(summary.error == nil, "\(label): A's send failed: \(String(describing: summary.error))")
            let (_, engineB, ioB) = try device("b")
            let initialMs = await Stats.timeAsync { summary = await engineB.syncNow() }
            precondition(summary.fetched.changed.count == count, "\(label): B got \(summary.fetched.changed.count)")
            let idleMs = await Stats.timeAsync { summary = await engineB.syncNow() }
            func requests(_ io: S3FileIO?) -> String {
                guard let io else { return "" }
                let counts = io.requestCounts
                let total = counts.values.reduce(0, +)
                return " (\(total) requests: "
                    + counts.keys.sorted().map { "\($0) \(counts[$0] ?? 0)" }.joined(separator: ", ") + ")"
            }
            print("\(label): publish \(Stats.f(publishMs / 1000, 2)) s\(requests(ioA))")
            print(
                "\(label): initial sync into an empty device \(Stats.f(initialMs / 1000, 2)) s, "
                    + "then an idle sync \(Stats.f(idleMs, 0)) ms\(requests(ioB))")
        }
    }
}
