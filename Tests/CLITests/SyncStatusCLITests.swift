import Foundation
import Testing

/// `cloudnotes status` after a failed sync (the last error is kept until a sync succeeds).
@Suite("status after a failed sync")
struct SyncStatusCLITests {
    @Test("status and status --json carry the last sync error until a sync succeeds")
    func lastErrorShown() throws {
        let runner = try CLIRunner()
        defer { runner.cleanUp() }
        let cloud = runner.home.appendingPathComponent("cloud").path
        #expect(try runner.cn("sync", "init", cloud).status == 0)
        let zones = cloud + "/private/zones"
        try? FileManager.default.removeItem(atPath: zones)
        #expect(FileManager.default.createFile(atPath: zones, contents: Data("not a folder".utf8)))
        try runner.add("waits")
        #expect(try runner.cn("sync").status != 0)
        let json = try #require(try runner.json("status", "--json") as? [String: Any])
        let lastError = try #require(json["lastError"] as? [String: Any], "\(json)")
        #expect((lastError["message"] as? String)?.isEmpty == false)
        #expect(lastError["code"] is String)
        let text = try runner.cn("status")
        #expect(text.stdout.contains("last error "), "\(text.stdout)")
        try FileManager.default.removeItem(atPath: zones)
        #expect(try runner.cn("sync").status == 0)
        let after = try #require(try runner.json("status", "--json") as? [String: Any])
        #expect(after["lastError"] == nil)
        #expect(!(try runner.cn("status").stdout.contains("last error")))
    }

    @Test("a cloud folder on the data directory's disk is said to be one, with how to bind a real one")
    func cloudOnThisDisk() throws {
        let runner = try CLIRunner()
        defer { runner.cleanUp() }
        // The data directory and this folder are both under the runner's temporary home.
        let cloud = runner.home.appendingPathComponent("cloud").path
        #expect(try runner.cn("sync", "init", cloud).status == 0)
        let json = try #require(try runner.json("status", "--json") as? [String: Any])
        #expect(json["cloudOnThisDisk"] as? Bool == true, "\(json)")
        let text = try runner.cn("status").stdout
        #expect(text.contains("the cloud folder is on the same disk as the data directory"), "\(text)")
        #expect(text.contains("cloudnotes sync init PATH"), "\(text)")
    }
}
