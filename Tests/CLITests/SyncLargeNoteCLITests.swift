import Foundation
import NotesTestSupport
import Testing

/// `cloudnotes sync` with a note over the 1 MB record limit (SYNC-FORMAT "Bodies").
@Suite("Sync from the command line: a note over the limit")
struct SyncLargeNoteCLITests {
    @Test("the note that stays on this device is named once per sync, and syncs once it is shrunk")
    func heldNoteSaidOnce() throws {
        let runner = try CLIRunner()
        defer { runner.cleanUp() }
        try runner.limitNotes(to: 1_048_576)
        let cloud = runner.home.appendingPathComponent("cloud").path
        #expect(try runner.cn("sync", "init", cloud).status == 0)
        let body = String(repeating: "a line of a big note\n", count: 60_000)
        let added = try runner.cn("add", "big", "--file", "-", stdin: body)
        let id = added.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        let sync = try runner.cn("sync")
        #expect(sync.status == 0, "\(sync.stderr)")
        #expect(sync.stderr.components(separatedBy: "stays on this device").count == 2, "\(sync.stderr)")
        #expect(sync.stdout.contains("pending 1"))
        #expect(try runner.cn("edit", id, "--body", "small now").status == 0)
        let again = try runner.cn("sync")
        #expect(again.status == 0, "\(again.stderr)")
        #expect(!again.stderr.contains("stays on this device"), "\(again.stderr)")
        #expect(again.stdout.contains("pending 0"), "\(again.stdout)")
    }

    @Test("a 20 MB note crosses to another device byte-identical, plain and encrypted", arguments: [false, true])
    func twentyMegabytesCross(encrypted: Bool) throws {
        let runner = try CLIRunner()
        defer { runner.cleanUp() }
        let (cloud, a, b) = try runner.devicesSharingACloudFolder(encrypted: encrypted)
        var random = SeededRandom(seed: SeededRandom.seed(default: 20))
        let words = ["alpha", "beta", "gamma", "delta", "épsilon", "ζήτα", "🙂", "\t", "line"]
        var body = ""
        while body.utf8.count < 20 * 1_048_576 {
            body += (0..<12).map { _ in words[random.below(words.count)] }.joined(separator: " ") + "\n"
        }
        let file = runner.home.appendingPathComponent("big.txt")
        try Data(body.utf8).write(to: file)
        let added = try runner.cn(at: a, "add", "twenty megabytes", "--file", file.path)
        #expect(added.status == 0, "\(added.stderr)")
        let sent = try runner.cn(at: a, "sync")
        #expect(sent.status == 0 && !sent.stderr.contains("stays on this device"), "\(sent.stderr)")
        let received = try runner.cn(at: b, "sync")
        #expect(received.status == 0, "\(received.stderr)")
        let shown = try runner.cn(at: b, "show", "twenty megabytes")
        #expect(shown.stdoutData == Data(body.utf8))
        // The note travelled as chunks under assets/ (rule 15), none of them over 1 MB plus a seal.
        let assets = FileManager.default.enumerator(atPath: cloud + "/private/assets")?.allObjects as? [String] ?? []
        #expect(assets.filter { $0.contains("/") }.count >= 20, "\(assets.count) asset entries")
    }
}
