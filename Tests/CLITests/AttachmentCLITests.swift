import Foundation
import Glibc
import NotesTestSupport
import Testing

/// `attach`, `attachments`, `attachment` and `detach` against the real binary, and attachments
/// crossing between two devices (SYNC-FORMAT rule 15).
@Suite("Attachments from the command line")
struct AttachmentCLITests {
    /// A file of `bytes` random bytes (every chunk different) under the runner's home.
    static func randomFile(_ runner: CLIRunner, _ name: String, bytes: Int) throws -> URL {
        let url = runner.home.appendingPathComponent(name)
        _ = FileManager.default.createFile(atPath: url.path, contents: nil)
        let handle = try FileHandle(forWritingTo: url)
        defer { try? handle.close() }
        let source = try #require(FileHandle(forReadingAtPath: "/dev/urandom"))
        defer { try? source.close() }
        var left = bytes
        while left > 0 {
            let piece = source.readData(ofLength: min(left, 1 << 20))
            try handle.write(contentsOf: piece)
            left -= piece.count
        }
        return url
    }

    @Test("attach, list, write out and detach; each mistake is one line and changes nothing")
    func commands() throws {
        let runner = try CLIRunner()
        defer { runner.cleanUp() }
        let id = try runner.add("with files", body: "body")
        let report = runner.home.appendingPathComponent("report.txt")
        try Data("quarterly numbers\n".utf8).write(to: report)
        let photo = try Self.randomFile(runner, "photo.bin", bytes: 1_500_000)
        let attached = try runner.cn("attach", String(id.prefix(8)), report.path, photo.path)
        #expect(attached.status == 0, "\(attached.stderr)")
        #expect(attached.stdout.contains("attached report.txt (18 B)"), "\(attached.stdout)")
        let listed = try runner.cn("attachments", id, "--json")
        let rows = try #require(try JSONSerialization.jsonObject(with: listed.stdoutData) as? [[String: Any]])
        #expect(rows.map { $0["name"] as? String } == ["photo.bin", "report.txt"])
        #expect(rows.map { $0["size"] as? Int } == [1_500_000, 18])
        #expect(rows.allSatisfy { $0["present"] as? Bool == true })
        let out = try runner.cn("attachment", id, "photo.bin", "--output", "-")
        #expect(out.stdoutData == (try Data(contentsOf: photo)))
        let copy = runner.home.appendingPathComponent("copy.txt")
        #expect(try runner.cn("attachment", id, "report.txt", "-o", copy.path).status == 0)
        #expect(try String(contentsOf: copy, encoding: .utf8) == "quarterly numbers\n")

        // Mistakes: one line on stderr, exit 1, the note unchanged.
        let before = try runner.cn("attachments", id).stdout
        try Data("other numbers\n".utf8).write(to: report)
        let mistakes: [[String]] = [
            ["attach", id, report.path],
            ["attach", id, runner.home.appendingPathComponent("missing.pdf").path],
            ["attach", id, runner.home.path],
            ["attachment", id, "nope.txt", "-o", "-"],
            ["detach", id, "nope.txt"],
        ]
        for arguments in mistakes {
            let result = try runner.run(arguments + ["--data-dir", runner.dataDirectory.path])
            #expect(result.status == 1, "\(arguments)")
            #expect(result.stderr.split(separator: "\n").count == 1, "\(arguments): \(result.stderr)")
        }
        #expect(try runner.cn("attach", id, report.path).stderr.contains("--force"))
        #expect(try runner.cn("attachments", id).stdout == before)
        #expect(try runner.cn("attach", id, report.path, "--force").status == 0)
        #expect(try runner.cn("attachment", id, "report.txt", "-o", "-").stdout == "other numbers\n")
        #expect(try runner.cn("detach", id, "photo.bin").status == 0)
        #expect(try runner.cn("attachments", id).stdout.contains("photo.bin") == false)
    }

    @Test("a file over maxNoteBytes is refused before anything is copied")
    func overTheLimit() throws {
        let runner = try CLIRunner()
        defer { runner.cleanUp() }
        try runner.limitNotes(to: 2048)
        let id = try runner.add("small limit")
        let big = try Self.randomFile(runner, "big.bin", bytes: 2049)
        let result = try runner.cn("attach", id, big.path)
        #expect(result.status == 1)
        #expect(result.stderr.contains("over the 2048-byte limit (maxNoteBytes)"), "\(result.stderr)")
        #expect(try runner.cn("attachments", id).stdout.isEmpty)
    }

    @Test(
        "a 200 MB attachment crosses between two devices byte-identical with under 100 MB of extra RSS",
        arguments: [false, true])
    func twoHundredMegabytesCross(encrypted: Bool) throws {
        let runner = try CLIRunner()
        defer { runner.cleanUp() }
        let (_, a, b) = try runner.devicesSharingACloudFolder(encrypted: encrypted)
        #expect(try runner.cn(at: a, "add", "big file", "--body", "").status == 0)
        let file = try Self.randomFile(runner, "big.bin", bytes: 200 * 1_048_576)
        let baseline = try PeakRSS.run(runner, ["attachments", "big file", "--data-dir", a.path])
        #expect(baseline.status == 0)
        var peaks: [String: Int] = [:]
        for (step, arguments) in [
            ("attach", ["attach", "big file", file.path, "--data-dir", a.path]),
            ("upload", ["sync", "--data-dir", a.path]), ("download", ["sync", "--data-dir", b.path]),
            (
                "output",
                [
                    "attachment", "big file", "big.bin", "-o", runner.home.appendingPathComponent("out").path,
                    "--data-dir", b.path,
                ]
            ),
        ] {
            let measured = try PeakRSS.run(runner, arguments)
            #expect(measured.status == 0, "\(step)")
            peaks[step] = measured.maxRSSKilobytes
        }
        print(
            "200 MB attachment (encrypted: \(encrypted)): baseline \(baseline.maxRSSKilobytes / 1024) MB, peaks \(peaks.mapValues { $0 / 1024 }) MB"
        )
        for (step, peak) in peaks {
            #expect(peak - baseline.maxRSSKilobytes < 100 * 1024, "\(step): \(peak / 1024) MB")
        }
        let out = runner.home.appendingPathComponent("out")
        #expect(try Self.sameBytes(out, file))
    }

    @Test("kill -9 during an attachment's upload and its download loses nothing and resumes", arguments: [false, true])
    func killDuringTransfer(encrypted: Bool) throws {
        let runner = try CLIRunner()
        defer { runner.cleanUp() }
        let (_, a, b) = try runner.devicesSharingACloudFolder(encrypted: encrypted)
        #expect(try runner.cn(at: a, "add", "kill me", "--body", "").status == 0)
        let file = try Self.randomFile(runner, "big.bin", bytes: 64 * 1_048_576)
        #expect(try runner.cn(at: a, "attach", "kill me", file.path).status == 0)
        let seed = SeededRandom.seed(default: 13)
        var random = SeededRandom(seed: seed)
        let killed = try runner.killSyncs(
            [a, b], .init(rounds: 4, earlyRounds: 2, base: 20_000, early: 150_000, late: 500_000), random: &random)
        #expect(killed > 0, "seed \(seed): no sync was killed")
        #expect(try runner.cn(at: a, "sync").status == 0)
        let final = try runner.cn(at: b, "sync")
        #expect(final.status == 0, "\(final.stderr)")
        let out = runner.home.appendingPathComponent("out")
        let written = try runner.cn(at: b, "attachment", "kill me", "big.bin", "-o", out.path)
        #expect(written.status == 0, "seed \(seed), \(killed) kills: \(written.stderr)")
        #expect(try Self.sameBytes(out, file), "seed \(seed), \(killed) kills")
        let status = try #require(
            try JSONSerialization.jsonObject(with: try runner.cn(at: a, "status", "--json").stdoutData)
                as? [String: Any])
        #expect(status["pending"] as? Int == 0)
    }

    @Test("a chunk that has not arrived: sync says it waits for the attachment, and applies the note once it is back")
    func waitingForAttachment() throws {
        let runner = try CLIRunner()
        defer { runner.cleanUp() }
        let (cloud, a, b) = try runner.devicesSharingACloudFolder()
        #expect(try runner.cn(at: a, "add", "late", "--body", "").status == 0)
        let file = try Self.randomFile(runner, "late.bin", bytes: 1_100_000)
        #expect(try runner.cn(at: a, "attach", "late", file.path).status == 0)
        #expect(try runner.cn(at: a, "sync").status == 0)
        let assets = cloud + "/private/assets"
        let chunk = try #require(
            FileManager.default.enumerator(atPath: assets)?.allObjects.compactMap { $0 as? String }
                .first { $0.count > 60 })
        let aside = runner.home.appendingPathComponent("aside").path
        try FileManager.default.moveItem(atPath: assets + "/" + chunk, toPath: aside)
        let waiting = try runner.cn(at: b, "sync")
        #expect(waiting.stdout.contains("↻ waiting for attachment"), "\(waiting.stdout)")
        #expect(waiting.stderr.contains("waiting for attachment late.bin"), "\(waiting.stderr)")
        // The note is there at its revision before the attachment: only that revision waits.
        let out = runner.home.appendingPathComponent("out")
        #expect(try runner.cn(at: b, "attachment", "late", "late.bin", "-o", out.path).status != 0)
        // The reader's status names the note; the writer's names its chunk and the fix.
        let readerStatus = try runner.cn(at: b, "status").stdout
        #expect(readerStatus.contains("is waiting for attachment late.bin"), "\(readerStatus)")
        let writerStatus = try runner.cn(at: a, "status").stdout
        #expect(writerStatus.contains("damaged    chunk"), "\(writerStatus)")
        #expect(writerStatus.contains("is missing"), "\(writerStatus)")
        #expect(writerStatus.contains("cloudnotes sync --repair"), "\(writerStatus)")
        try FileManager.default.moveItem(atPath: aside, toPath: assets + "/" + chunk)
        let arrived = try runner.cn(at: b, "sync")
        #expect(!arrived.stdout.contains("waiting for attachment"), "\(arrived.stdout)")
        #expect(try runner.cn(at: b, "attachment", "late", "late.bin", "-o", out.path).status == 0)
        #expect(try Self.sameBytes(out, file))
    }

    /// Compares two files a mebibyte at a time.
    static func sameBytes(_ x: URL, _ y: URL) throws -> Bool {
        guard let first = FileHandle(forReadingAtPath: x.path), let second = FileHandle(forReadingAtPath: y.path)
        else { return false }
        defer {
            try? first.close()
            try? second.close()
        }
        while true {
            let (p, q) = (first.readData(ofLength: 1 << 20), second.readData(ofLength: 1 << 20))
            if p != q { return false }
            if p.isEmpty { return true }
        }
    }
}

/// Runs the binary as a child and samples its peak RSS (`VmHWM` of `/proc/<pid>/status`, the
/// high-water mark of the child's own memory after exec; `wait4`'s `ru_maxrss` would carry the
/// test runner's, which a spawned child inherits across exec).
enum PeakRSS {
    struct Measured {
        var status: Int32
        var maxRSSKilobytes: Int
    }

    /// The high-water RSS of a running process in KB, or nil once it has exited.
    static func highWater(_ pid: pid_t) -> Int? {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
            let line = text.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") })
        else { return nil }
        return Int(line.split(separator: " ").dropFirst().first ?? "")
    }

    /// `environment`: variables added to the runner's (the AWS ones of a bucket).
    static func run(
        _ runner: CLIRunner, _ arguments: [String], environment extra: [String: String] = [:],
        deadline: TimeInterval = CLIRunner.deadline
    ) throws -> Measured {
        let path = CLIRunner.binary.path
        let environment =
            [
                "HOME=\(runner.home.path)", "XDG_DATA_HOME=\(runner.home.appendingPathComponent("xdg-data").path)",
                "XDG_CONFIG_HOME=\(runner.home.appendingPathComponent("xdg-config").path)", "LANG=C.UTF-8",
            ] + extra.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        let argv = ([path] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup($0) } + [nil]
        defer { for pointer in argv + envp { free(pointer) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, path, &actions, nil, argv, envp)
        guard spawned == 0 else { throw CocoaError(.fileReadUnknown) }
        // posix_spawn returns once the child has exec'd: every sample is of the child's own memory.
        var status: Int32 = 0
        var peak = 0
        let end = Date().addingTimeInterval(deadline)
        while true {
            if let sample = highWater(pid) { peak = max(peak, sample) }
            if waitpid(pid, &status, WNOHANG) == pid { break }
            if Date() > end {
                kill(pid, SIGKILL)
                _ = waitpid(pid, &status, 0)
                return Measured(status: -1, maxRSSKilobytes: peak)
            }
            usleep(5_000)
        }
        let exited = status & 0x7F == 0
        return Measured(status: exited ? (status >> 8) & 0xFF : -1, maxRSSKilobytes: peak)
    }
}
