import CloudFolder
import Foundation
import NotesCore
import NotesStore
import NotesSync

/// One `syncNow` with one large note pending (issue: sync that nothing can wedge): notes of 10 MB
/// in 100k lines and in one line, and of 0.9 MB in 100k and 10k lines, all published (notes over
/// 256 KB as asset chunks, SYNC-FORMAT rule 15). Linear in the note's size is the target: the
/// 10 MB sync should cost about ten times the 1 MB one, whatever the number of lines. Then a
/// 20 MB note's trip from device A to device B (A's sync, then B's), plain and encrypted, and a
/// merge of concurrent edits of it.
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
        try await propagation()
        try await merge()
    }

    /// Concurrent edits of a 20 MB note with ten earlier revisions: B's sync merges A's edit with
    /// its own, reading the two heads and their base (`RevisionHistory`). Beside it, the read of
    /// the whole history that the merge made before (11 revisions of 20 MB, parsed).
    func merge() async throws {
        var merges: [Double] = []
        var wholeHistory: [Double] = []
        for run in 0..<3 {
            let folder = try BenchFolder(directory: "\(work)/large-20mb-merge-\(run)", encrypted: false)
            let (a, engineA) = try folder.device("a")
            let (b, engineB) = try folder.device("b")
            var note = try a.create(title: "twenty", body: Self.body(bytes: 20 * 1_048_576, lines: 200_000))
            for n in 0..<10 {
                note = try a.update(note.id) { $0.body = "edit \(n)\n" + $0.body.drop { $0 != "\n" }.dropFirst() }
                _ = await engineA.syncNow()
            }
            _ = await engineB.syncNow()
            _ = try a.update(note.id) { $0.body = "A's first line\n" + $0.body.drop { $0 != "\n" }.dropFirst() }
            _ = try b.update(note.id) { $0.body += "B's last line\n" }
            _ = await engineA.syncNow()
            var summary = SyncSummary()
            merges.append(await Stats.timeAsync { summary = await engineB.syncNow() })
            let merged = try b.note(note.id)?.body ?? ""
            precondition(
                summary.fetched.merged == 1 && merged.hasPrefix("A's first line\n")
                    && merged.hasSuffix("B's last line\n"),
                "B did not merge the two edits")
            wholeHistory.append(Stats.time { _ = try? b.revisions(of: note.id) })
        }
        print(
            "20 MB note with 11 revisions, concurrent edits: B's merging sync median "
                + "\(Stats.f(Stats.median(merges) / 1000, 3)) s; reading its whole history (what the merge read "
                + "before) median \(Stats.f(Stats.median(wholeHistory) / 1000, 3)) s (3 runs)")
    }

    /// A 20 MB note from A to B through a folder, plain and encrypted: medians of three runs.
    func propagation() async throws {
        let body = Self.body(bytes: 20 * 1_048_576, lines: 200_000)
        for encrypted in [false, true] {
            var send: [Double] = []
            var receive: [Double] = []
            for run in 0..<3 {
                let folder = try BenchFolder(
                    directory: "\(work)/large-20mb-\(encrypted ? "encrypted" : "plain")-\(run)", encrypted: encrypted)
                let device = folder.device
                let (a, engineA) = try device("a")
                let (b, engineB) = try device("b")
                _ = await engineA.syncNow()
                _ = await engineB.syncNow()
                let note = try a.create(title: "twenty", body: body)
                send.append(await Stats.timeAsync { _ = await engineA.syncNow() })
                receive.append(await Stats.timeAsync { _ = await engineB.syncNow() })
                let received = try b.note(note.id)?.body
                precondition(received == body, "B did not get the 20 MB note")
            }
            print(
                "20 MB note, \(encrypted ? "encrypted" : "plain"): A's sync median \(Stats.f(Stats.median(send) / 1000, 3)) s, "
                    + "B's sync median \(Stats.f(Stats.median(receive) / 1000, 3)) s (3 runs)")
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
