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

    @Test("an emptied cloud folder: status and sync say so plainly, and how to get it back")
    func emptiedFolderSaysHowToRecover() throws {
        let runner = try CLIRunner()
        defer { runner.cleanUp() }
        let cloud = runner.home.appendingPathComponent("cloud")
        #expect(try runner.cn("sync", "init", cloud.path).status == 0)
        try runner.add("kept here")
        #expect(try runner.cn("sync").status == 0)
        for name in try FileManager.default.contentsOfDirectory(atPath: cloud.path) {
            try FileManager.default.removeItem(at: cloud.appendingPathComponent(name))
        }
        let status = try runner.cn("status")
        #expect(status.status == 0)
        #expect(status.stdout.contains("the cloud folder is empty"), "\(status.stdout)")
        #expect(status.stdout.contains("cloudnotes sync init --restore \(cloud.path)"), "\(status.stdout)")
        let sync = try runner.cn("sync")
        #expect(sync.status == 1)
        #expect(sync.stderr.contains("the cloud folder is empty"), "\(sync.stderr)")
        #expect(sync.stderr.contains("sync init --restore \(cloud.path)"), "\(sync.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: cloud.path).isEmpty)
    }

    @Test("a cloudFolder in the config that is not the bound place is shown and warned about, never ignored silently")
    func configNamesAnotherPlace() throws {
        let runner = try CLIRunner()
        defer { runner.cleanUp() }
        let bound = runner.home.appendingPathComponent("cloud").path
        let other = runner.home.appendingPathComponent("elsewhere").path
        #expect(try runner.cn("sync", "init", bound).status == 0)
        let config = runner.home.appendingPathComponent("other.json").path
        try Data("{\"cloudFolder\": \"\(other)\"}".utf8).write(to: URL(fileURLWithPath: config))
        let shown = try runner.cn("config", "--config", config)
        #expect(shown.stdout.contains("bound"), "\(shown.stdout)")
        #expect(shown.stdout.contains(bound), "\(shown.stdout)")
        #expect(shown.stderr.contains("sync move \(other)"), "\(shown.stderr)")
        let sync = try runner.cn("sync", "--config", config)
        #expect(sync.status == 0, "\(sync.stderr)")
        #expect(sync.stderr.contains("bound to \(bound)"), "\(sync.stderr)")
        let status = try runner.cn("status", "--config", config)
        #expect(status.stdout.contains("warning    the config names cloudFolder \(other)"), "\(status.stdout)")
        #expect(status.stdout.contains("folder     \(bound)"), "\(status.stdout)")
        #expect(!FileManager.default.fileExists(atPath: other), "the config's place is not created")
        // The same place: no warning.
        try Data("{\"cloudFolder\": \"\(bound)\"}".utf8).write(to: URL(fileURLWithPath: config))
        #expect(!(try runner.cn("sync", "--config", config).stderr.contains("the config names")))
    }
}
