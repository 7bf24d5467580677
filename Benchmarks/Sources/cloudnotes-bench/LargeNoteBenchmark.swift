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
        for (megabytes, lines) in [(10, 100_000), (1, 100_000), (1, 10_000), (10, 1)] {
            let directory = "\(work)/large-\(megabytes)mb-\(lines)"
            try? FileManager.default.removeItem(atPath: directory)
            let cloud = directory + "/cloud"
            try FileManager.default.createDirectory(atPath: cloud, withIntermediateDirectories: true)
            let store = try NoteStore(directory: URL(fileURLWithPath: directory + "/a"))
            let engine = try SyncEngine(
                store: store,
                configuration: SyncEngine.Configuration(folder: DirectoryCloudFolder(root: cloud), deviceName: "a"))
            _ = try store.create(title: "large", body: Self.body(bytes: megabytes * 1_000_000 - 64, lines: lines))
            var walls: [Double] = []
            var summary = SyncSummary()
            for _ in 0..<3 {
                walls.append(await Stats.timeAsync { summary = await engine.syncNow() })
            }
            print(
                "\(megabytes) MB in \(lines) line(s): sync median \(Stats.f(Stats.median(walls) / 1000, 3)) s "
                    + "(first \(Stats.f(walls[0] / 1000, 3)) s); sent \(summary.sent.sent), "
                    + "held \(summary.sent.failed.count), pending \(summary.pending)")
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
