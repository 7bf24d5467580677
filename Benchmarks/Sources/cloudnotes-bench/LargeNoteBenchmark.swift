import CloudFolder
import Foundation
import NotesCore
import NotesStore
import NotesSync

/// One `syncNow` with one large note pending (issue: sync that nothing can wedge): a 10 MB note
/// of 100k lines (over the 1 MB record limit: the local pipeline only, the note stays held) and
/// notes of 1 MB of 100k and of 10k lines (published). Linear in the note's size is the target:
/// the 10 MB sync should cost about ten times the 1 MB one, whatever the number of lines.
struct LargeNoteBenchmark {
    let work: String

    func run() async throws {
        print("\n== sync with one large note pending ==")
        // "1 MB": 900 kB, so that with its escaped newlines the record stays under the limit.
        for (megabytes, lines) in [(10.0, 100_000), (0.9, 100_000), (0.9, 10_000), (10.0, 1)] {
            let directory = "\(work)/large-\(Int(megabytes * 1000))kb-\(lines)"
            try? FileManager.default.removeItem(atPath: directory)
            let cloud = directory + "/cloud"
            try FileManager.default.createDirectory(atPath: cloud, withIntermediateDirectories: true)
            let store = try NoteStore(directory: URL(fileURLWithPath: directory + "/a"))
            var configuration = SyncEngine.Configuration(folder: DirectoryCloudFolder(root: cloud), deviceName: "a")
            configuration.logger.logLevel = .critical
            let engine = try SyncEngine(store: store, configuration: configuration)
            _ = try store.create(title: "large", body: Self.body(bytes: Int(megabytes * 1_000_000) - 64, lines: lines))
            var first = SyncSummary()
            let firstMs = await Stats.timeAsync { first = await engine.syncNow() }
            var later: [Double] = []
            for _ in 0..<3 { later.append(await Stats.timeAsync { _ = await engine.syncNow() }) }
            print(
                "\(megabytes) MB in \(lines) line(s): first sync \(Stats.f(firstMs / 1000, 3)) s "
                    + "(sent \(first.sent.sent), held \(first.sent.failed.count)); later syncs median "
                    + "\(Stats.f(Stats.median(later) / 1000, 3)) s, pending \(try store.pendingCount())")
        }
    }

    /// About `bytes` bytes in `lines` lines.
    static func body(bytes: Int, lines: Int) -> String {
        let width = max(1, bytes / lines)
        let line = String(repeating: "x", count: max(0, width - 1)) + "\n"
        var text = ""
        text.reserveCapacity(width * lines)
        for _ in 0..<lines { text += line }
        return text
    }
}
