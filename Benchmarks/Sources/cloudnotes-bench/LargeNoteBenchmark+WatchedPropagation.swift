import Foundation
import NotesStore

/// A large note between two watching devices (issue 13), as users meet it: devices A and B on
/// one cloud folder (a directory, plain and an encrypted container made by `sync init --encrypt`),
/// both running `cloudnotes sync --watch --debounce 0`; `cloudnotes add --file` of a
/// `megabytes` MB note of text lines on A until B's store holds its bytes, then `cloudnotes edit
/// --file` of one line of it on A until B holds the edited bytes. Each run on fresh devices and
/// a fresh folder; median and p90 over `runs`, and the watchers' peak RSS (VmHWM).
extension LargeNoteBenchmark {
    func watchedPropagation(_ cloudnotes: String, megabytes: Int, runs: Int) async throws {
        let body = Self.text(bytes: megabytes * 1_048_576)
        let lines = body.utf8.reduce(0) { $1 == UInt8(ascii: "\n") ? $0 + 1 : $0 }
        let edited = Self.editOneLine(body)
        print(
            "\n== a \(megabytes) MB note between two watching devices (\(body.utf8.count) bytes in \(lines) lines, "
                + "both `sync --watch --debounce 0`, runs: \(runs)) ==")
        for encrypted in [false, true] {
            var created = Timings()
            var changed = Timings()
            var peaks: [[Double]] = []
            for run in 0..<runs {
                let directory = "\(work)/large-propagation-\(encrypted ? "encrypted" : "plain")-\(run)"
                try? FileManager.default.removeItem(atPath: directory)
                try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
                let files = (directory + "/note.md", directory + "/edited.md")
                try Data(body.utf8).write(to: URL(fileURLWithPath: files.0))
                try Data(edited.utf8).write(to: URL(fileURLWithPath: files.1))
                let cli = CloudnotesCLI(
                    cloudnotes, home: directory, extra: encrypted ? ["CLOUDNOTES_PASSPHRASE": "large note bench"] : [:])
                let (a, b) = (directory + "/a", directory + "/b")
                try cli.run(["sync", "init", directory + "/cloud", "--data-dir", a] + (encrypted ? ["--encrypt"] : []))
                try cli.run(["sync", "init", directory + "/cloud", "--data-dir", b])
                let storeB = try NoteStore(directory: URL(fileURLWithPath: b))
                let watchers = try cli.startWatchers([a, b])
                defer { watchers.stop() }
                try await Task.sleep(for: .seconds(2))

                var start = Stats.now()
                let id = try cli.add(["large \(megabytes) MB", "--file", files.0, "--data-dir", a])
                created.process.append(Stats.ms(start, Stats.now()))
                try await Self.waitUntil(storeB, has: id, body, since: start, "the new note did not reach B")
                created.total.append(Stats.ms(start, Stats.now()))
                try Self.check(cli, id, body, b)

                try await Task.sleep(for: .seconds(1))
                start = Stats.now()
                try cli.run(["edit", id.uuidString, "--file", files.1, "--data-dir", a])
                changed.process.append(Stats.ms(start, Stats.now()))
                try await Self.waitUntil(storeB, has: id, edited, since: start, "the edit did not reach B")
                changed.total.append(Stats.ms(start, Stats.now()))
                try Self.check(cli, id, edited, b)
                peaks.append(watchers.peakRSSMB())
            }
            let label = encrypted ? "encrypted" : "plain"
            let peak = { (device: Int) in Stats.f(peaks.map { $0[device] }.max() ?? .nan, 0) }
            print("\(label): `add --file` on A until B's store has the note byte-identical: \(created)")
            print("\(label): `edit --file` of one line on A until B has it: \(changed)")
            print("\(label): the watchers' peak RSS (VmHWM), largest of the runs: A \(peak(0)) MB, B \(peak(1)) MB")
        }
    }

    /// One step's times over the runs: from starting the command to B having the bytes, and the
    /// command's own process.
    struct Timings: CustomStringConvertible {
        var total: [Double] = []
        var process: [Double] = []

        var description: String {
            "median \(Stats.f(Stats.median(total) / 1000, 2)) s, p90 \(Stats.f(Stats.percentile(total, 90) / 1000, 2)) s "
                + "(runs \(total.map { Stats.f($0 / 1000, 2) }.joined(separator: ", ")) s); "
                + "of which the command itself: median \(Stats.f(Stats.median(process) / 1000, 2)) s"
        }
    }

    /// Waits until B's store has note `id` with exactly `expected`'s bytes. The note is read when
    /// B's database files changed (size or time), and every 250 ms besides (two writes within
    /// one tick of the file clock can leave size and time as they were), so the wait does not
    /// read 20 MB every few milliseconds beside the watchers it measures.
    static func waitUntil(
        _ store: NoteStore, has id: UUID, _ expected: String, since start: UInt64, _ what: String
    ) async throws {
        var seen: [String] = []
        var lastRead: UInt64 = 0
        try await Stats.wait(since: start, timeoutMs: 300_000, every: .milliseconds(2), what) {
            let signature = ["", "-wal"].map { suffix -> String in
                var info = stat()
                guard stat(store.directory.path + "/" + NoteStore.databaseFileName + suffix, &info) == 0 else {
                    return "none"
                }
                return "\(info.st_size) \(info.st_mtim.tv_sec) \(info.st_mtim.tv_nsec)"
            }
            guard signature != seen || Stats.ms(lastRead, Stats.now()) > 250 else { return false }
            (seen, lastRead) = (signature, Stats.now())
            return try store.note(id)?.body.utf8.elementsEqual(expected.utf8) ?? false
        }
    }

    /// `cloudnotes show ID` on B, piped: the stored body bytes, which must be `expected`'s.
    static func check(_ cli: CloudnotesCLI, _ id: UUID, _ expected: String, _ b: String) throws {
        let shown = try cli.run(["show", id.uuidString, "--data-dir", b])
        guard shown.elementsEqual(expected.utf8) else {
            throw BenchError("`cloudnotes show` on B printed \(shown.count) bytes, not the \(expected.utf8.count) sent")
        }
    }

    /// About `bytes` bytes of notes-like text: paragraphs of lines of 4 to 19 words (some not
    /// ASCII), a heading every 40 lines and a list item now and then; the same text every run.
    static func text(bytes: Int) -> String {
        let words = [
            "meeting", "project", "kernel", "budget", "review", "latency", "garden", "ångström", "東京", "notes",
            "the", "a", "of", "and", "to", "in", "sync", "folder", "draft", "Zürich", "call", "plan", "🙂", "is",
        ]
        var text = ""
        text.reserveCapacity(bytes + 200)
        var x: UInt64 = 0x9E37_79B9_7F4A_7C15
        var line = 0
        while text.utf8.count < bytes {
            x = x &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            if line % 40 == 0 { text += "\n## Section \(line / 40)\n\n" }
            text += x >> 61 == 0 ? "- " : ""
            for n in 0..<(4 + Int(x >> 32) % 16) {
                x = x &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                text += (n == 0 ? "" : " ") + words[Int(x >> 40) % words.count]
            }
            text += ".\n"
            line += 1
        }
        return text
    }

    /// `text` with one line in its middle changed as a user edits one: a few words inserted.
    static func editOneLine(_ text: String) -> String {
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        let middle = lines.count / 2
        lines[middle] = "An edited line: " + lines[middle] + " (edited)"
        return lines.joined(separator: "\n")
    }
}
