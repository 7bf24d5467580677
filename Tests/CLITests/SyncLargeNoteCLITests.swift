import Foundation
import Testing

/// `cloudnotes sync` with a note over the 1 MB record limit (SYNC-FORMAT "Bodies").
@Suite("Sync from the command line: a note over the limit")
struct SyncLargeNoteCLITests {
    @Test("the note that stays on this device is named once per sync, and syncs once it is shrunk")
    func heldNoteSaidOnce() throws {
        let runner = try CLIRunner()
        defer { runner.cleanUp() }
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
}
