import Foundation
import NotesCore
import NotesStore
import NotesTestSupport

// Store benchmarks (issue: foundation): import throughput, open + first 200 list rows,
// as-you-type search latency, peak RSS, and ripgrep over the same notes as Markdown files.
//
// Usage: cloudnotes-bench [--count N]... [--work DIR] [--phase all|import|query]
//        cloudnotes-bench --sync [--count N]... [--cloudnotes PATH]    (SyncBenchmark.swift)
//        cloudnotes-bench --editor                                     (EditorBenchmark.swift)
//        cloudnotes-bench --preview                                    (PreviewBenchmark.swift)
//        cloudnotes-bench --encryption [--count N]...                  (EncryptionBenchmark.swift)
//        cloudnotes-bench --s3 [--cloudnotes PATH] [--poll S] [--runs N] [--count N]...  (S3Benchmark.swift)
//        cloudnotes-bench --large-note                                 (LargeNoteBenchmark.swift)
//        cloudnotes-bench --large-note-propagation --cloudnotes PATH [--megabytes N] [--runs N]  (LargeNoteBenchmark+WatchedPropagation.swift)
//        cloudnotes-bench --attachment [--megabytes N]                 (AttachmentBenchmark.swift)
//        cloudnotes-bench --export --cloudnotes PATH [--count N]...      (ExportBenchmark.swift)
//        cloudnotes-bench --import --cloudnotes PATH [--count N]...      (ImportBenchmark.swift)
//        cloudnotes-bench --publish --cloudnotes PATH [--count N]...     (PublishBenchmark.swift)
//        cloudnotes-bench --folder --cloudnotes PATH [--count N]...      (FolderBenchmark.swift)
//        cloudnotes-bench --organise [--count N]...                    (OrganiseBenchmark.swift)
//        cloudnotes-bench --lifecycle-soak --cloudnotes PATH [--seconds N] [--seed S] [--steps N]  (LifecycleSoak.swift)
// Each count runs the import in this process, then the queries in a fresh child process, so
// the query phase's peak RSS is what an app that opens the store and searches would use.

// Line by line, so a run's figures show as they come (and survive an interrupted run).
Machine.lineBufferedOutput()
var counts: [Int] = []
var work = "/tmp/cloudnotes-bench"
var phase = "all"
/// Imports per corpus size (the machine is noisy: the median of several is printed).
var importRuns = 3
var cloudnotesBinary: String?
var bucket = "cloudnotes-bench"
/// `--attachment`: the file's size (default 200); `--large-note-propagation`: the note's (default 20).
var megabytes: Int?
/// `--s3`: the watchers' pollIntervalSeconds in the propagation part.
var pollSeconds = 2.0
/// `--s3`: the initial syncs per backend (default 3); `--large-note-propagation`: the runs (default 5).
var runs: Int?
/// `--lifecycle-soak`: how long to run seeds (default 600), the first seed, steps per seed.
var soakSeconds = 600.0
var soakSeed: UInt64 = 1000
var soakSteps = 80
var args = CommandLine.arguments.dropFirst()
while let arg = args.popFirst() {
    switch arg {
    case "--count": counts.append(Int(args.popFirst() ?? "") ?? 10000)
    case "--import-runs": importRuns = max(1, Int(args.popFirst() ?? "") ?? 3)
    case "--work": work = args.popFirst() ?? work
    case "--phase": phase = args.popFirst() ?? phase
    case "--sync": phase = "sync"
    case "--editor": phase = "editor"
    case "--preview": phase = "preview"
    case "--large-note": phase = "large-note"
    case "--large-note-propagation": phase = "large-note-propagation"
    case "--encryption": phase = "encryption"
    case "--s3": phase = "s3"
    case "--attachment": phase = "attachment"
    case "--megabytes": megabytes = Int(args.popFirst() ?? "").map { max(1, $0) }
    case "--export": phase = "export"
    case "--import": phase = "import-cli"
    case "--publish": phase = "publish"
    case "--folder": phase = "folder"
    case "--share": phase = "share"
    case "--organise": phase = "organise"
    case "--lifecycle-soak": phase = "lifecycle-soak"
    case "--seconds": soakSeconds = max(1, Double(args.popFirst() ?? "") ?? 600)
    case "--seed": soakSeed = UInt64(args.popFirst() ?? "") ?? soakSeed
    case "--steps": soakSteps = max(1, Int(args.popFirst() ?? "") ?? 80)
    case "--bucket": bucket = args.popFirst() ?? bucket
    // The config takes pollIntervalSeconds from 1 s.
    case "--poll": pollSeconds = max(1, Double(args.popFirst() ?? "") ?? 2)
    case "--runs": runs = Int(args.popFirst() ?? "").map { max(1, $0) }
    case "--cloudnotes": cloudnotesBinary = args.popFirst()
    default:
        FileHandle.standardError.write(Data("unknown argument \(arg)\n".utf8))
        exit(1)
    }
}
if counts.isEmpty { counts = [10_000, 100_000] }

if phase != "query" { Machine.printHeader() }
if phase == "lifecycle-soak" {
    // Issue 21's life-cycle model for N seconds (LifecycleSoak.swift): exit 1 when a seed failed.
    guard let cloudnotesBinary else {
        FileHandle.standardError.write(Data("--lifecycle-soak needs --cloudnotes PATH\n".utf8))
        exit(1)
    }
    let failed = LifecycleSoak(
        binary: cloudnotesBinary, work: work, seconds: soakSeconds, firstSeed: soakSeed, steps: soakSteps
    ).run()
    exit(failed == 0 ? 0 : 1)
}
if phase == "preview" {
    PreviewBenchmark().run()
    exit(0)
}
if phase == "editor" {
    EditorBenchmark().run()
    exit(0)
}
if phase == "large-note" {
    // One sync with a large note pending (LargeNoteBenchmark.swift): --large-note
    try await LargeNoteBenchmark(work: work).run()
    exit(0)
}
if phase == "large-note-propagation" {
    // A large note's add and one-line edit between two `sync --watch` devices (LargeNoteBenchmark+WatchedPropagation.swift):
    // --large-note-propagation --cloudnotes PATH-TO-RELEASE-BINARY [--megabytes N] [--runs N]
    guard let cloudnotesBinary else {
        FileHandle.standardError.write(
            Data("--large-note-propagation needs --cloudnotes PATH (a release build)\n".utf8))
        exit(1)
    }
    try await LargeNoteBenchmark(work: work).watchedPropagation(
        cloudnotesBinary, megabytes: megabytes ?? 20, runs: runs ?? 5)
    exit(0)
}
if phase == "encryption" {
    // Plain vs encrypted folders side by side (EncryptionBenchmark.swift): --encryption [--count N]
    for count in counts { try await EncryptionBenchmark(count: count, work: work).run() }
    exit(0)
}
if phase == "attachment" {
    // A 200 MB attachment A→B, plain and encrypted (AttachmentBenchmark.swift): --attachment
    try await AttachmentBenchmark(work: work, megabytes: megabytes ?? 200).run()
    exit(0)
}
if phase == "organise" {
    // Backlinks, tags and notebooks at scale (OrganiseBenchmark.swift): --organise [--count N]
    for count in counts { try OrganiseBenchmark(count: count, work: work).run() }
    exit(0)
}
if phase == "s3" {
    // S3 vs directory against a SeaweedFS started here on loopback (S3Benchmark.swift):
    // --s3 [--cloudnotes PATH-TO-RELEASE-BINARY] [--poll SECONDS] [--runs N] [--count N]
    let seaweed = SeaweedServer(bucket: bucket)
    let server = try await seaweed.endpoint()
    print("SeaweedFS (weed mini from \(BenchVenv.path)) at \(server.url), bucket \(bucket)")
    do {
        for count in counts {
            try await S3Benchmark(
                count: count, work: work, server: server, cloudnotes: cloudnotesBinary,
                poll: pollSeconds, runs: runs ?? 3
            ).run()
        }
    } catch {
        await seaweed.stop()
        throw error
    }
    await seaweed.stop()
    exit(0)
}
// The benchmarks that run the binary as a user does, each beside its peers (export and import
// beside sqlite3's FTS5, publish and the notes folder beside export and rsync, sharing beside a
// private sync): `--export`, `--import`, `--publish`, `--folder` or `--share`, with
// `--cloudnotes PATH` (a release build) [--count N] [--import-runs N].
if let (flag, benchmark) = binaryBenchmark(phase) {
    guard let cloudnotesBinary else {
        FileHandle.standardError.write(Data("\(flag) needs --cloudnotes PATH (a release build)\n".utf8))
        exit(1)
    }
    for count in counts {
        // An error says what failed and ends the run; thrown at the top level it is a trap
        // (an illegal instruction) that says nothing.
        do {
            try benchmark.init(count: count, work: work, cloudnotes: cloudnotesBinary, runs: importRuns).run()
        } catch {
            FileHandle.standardError.write(Data("\(flag) at \(count) notes failed: \(error)\n".utf8))
            exit(1)
        }
    }
    exit(0)
}
if phase == "sync" {
    // Sync benchmarks (SyncBenchmark.swift): --sync [--cloudnotes PATH-TO-RELEASE-BINARY]
    for count in counts { try await SyncBenchmark(count: count, work: work, cloudnotes: cloudnotesBinary).run() }
    exit(0)
}
for count in counts {
    let benchmark = StoreBenchmark(count: count, work: work, importRuns: importRuns)
    if phase == "all" || phase == "import" { try benchmark.runImport() }
    if phase == "query" { try benchmark.runQueries() }
    if phase == "all" {
        fflush(nil)
        try Machine.runInheritingOutput(
            CommandLine.arguments[0],
            ["--phase", "query", "--count", String(count), "--work", work])
    }
}
