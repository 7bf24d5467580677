import Foundation
import Testing

/// `cloudnotes sync init` is atomic (SYNC-FORMAT rule 12, "Joining").
@Suite("sync init from the command line")
struct SyncInitCLITests {
    @Test("an init whose first sync fails leaves the data directory bound, not stranded: init and sync work after")
    func firstSyncFails() throws {
        let runner = try CLIRunner()
        defer { runner.cleanUp() }
        let cloud = runner.home.appendingPathComponent("cloud").path
        let a = runner.device("a")
        let b = runner.device("b")
        #expect(try runner.cn(at: a, "sync", "init", cloud).status == 0)
        // The zones folder is a file: B's first sync cannot read or write any zone.
        let zones = cloud + "/private/zones"
        try? FileManager.default.removeItem(atPath: zones)
        #expect(FileManager.default.createFile(atPath: zones, contents: Data("not a folder".utf8)))
        #expect(try runner.cn(at: b, "add", "from b", "--body", "x").status == 0)
        let failed = try runner.cn(at: b, "sync", "init", cloud)
        #expect(failed.status != 0, "\(failed.stdout) \(failed.stderr)")
        try FileManager.default.removeItem(atPath: zones)
        let again = try runner.cn(at: b, "sync", "init", cloud)
        #expect(again.status == 0, "\(again.stderr)")
        #expect(!again.stderr.contains("already bound"), "\(again.stderr)")
        let sync = try runner.cn(at: b, "sync")
        #expect(sync.status == 0, "\(sync.stderr)")
        #expect(sync.stdout.contains("pending 0"), "\(sync.stdout)")
    }
}
