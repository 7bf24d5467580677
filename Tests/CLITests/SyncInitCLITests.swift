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

    /// The container id `status --json` reports for `device`.
    static func containerID(_ runner: CLIRunner, _ device: URL) throws -> String? {
        let status = try runner.cn(at: device, "status", "--json")
        return (try JSONSerialization.jsonObject(with: status.stdoutData) as? [String: Any])?["containerID"] as? String
    }

    /// The titles `device` lists.
    static func titles(_ runner: CLIRunner, _ device: URL) throws -> Set<String> {
        let list = try runner.run(["list", "--limit", "100000", "--json", "--data-dir", device.path])
        let rows = try JSONSerialization.jsonObject(with: list.stdoutData) as? [[String: Any]] ?? []
        return Set(rows.compactMap { $0["title"] as? String })
    }

    @Test(
        "an emptied cloud folder: init on it creates no stray container; init --restore re-creates the same one; B rejoins and sends what only it had"
    )
    func restoreAnEmptiedFolder() throws {
        let runner = try CLIRunner()
        defer { runner.cleanUp() }
        let cloud = runner.home.appendingPathComponent("cloud")
        let (a, b, c) = (runner.device("a"), runner.device("b"), runner.device("c"))
        for device in [a, b] { #expect(try runner.cn(at: device, "sync", "init", cloud.path).status == 0) }
        #expect(try runner.cn(at: a, "add", "A1", "--body", "a").status == 0)
        #expect(try runner.cn(at: a, "sync").status == 0)
        #expect(try runner.cn(at: b, "add", "B0", "--body", "b").status == 0)
        #expect(try runner.cn(at: b, "sync").status == 0)
        #expect(try runner.cn(at: a, "sync").status == 0)
        let container = try #require(try Self.containerID(runner, a))
        for name in try FileManager.default.contentsOfDirectory(atPath: cloud.path) {
            try FileManager.default.removeItem(at: cloud.appendingPathComponent(name))
        }
        #expect(try runner.cn(at: b, "add", "B1", "--body", "only on b").status == 0)

        let stray = try runner.cn(at: a, "sync", "init", cloud.path)
        #expect(stray.status == 1, "\(stray.stdout) \(stray.stderr)")
        #expect(stray.stderr.contains("sync init --restore"), "\(stray.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: cloud.path).isEmpty, "no stray container")

        let restored = try runner.cn(at: a, "sync", "init", "--restore", cloud.path)
        #expect(restored.status == 0, "\(restored.stdout) \(restored.stderr)")
        #expect(restored.stdout.contains("re-created container \(container)"), "\(restored.stdout)")
        #expect(try Self.containerID(runner, a) == container)
        let rejoin = try runner.cn(at: b, "sync")
        #expect(rejoin.status == 0, "\(rejoin.stderr)")
        #expect(rejoin.stderr.contains("emptied and re-created"), "\(rejoin.stderr)")
        #expect(try runner.cn(at: a, "sync").status == 0)
        #expect(try runner.cn(at: c, "sync", "init", cloud.path).status == 0)
        for device in [a, b, c] {
            #expect(try Self.titles(runner, device) == ["A1", "B0", "B1"], "\(device.lastPathComponent)")
            #expect(try Self.containerID(runner, device) == container)
        }
        let quiet = try runner.cn(at: b, "sync")
        #expect(!quiet.stderr.contains("re-created"), "said once: \(quiet.stderr)")
        #expect(quiet.stdout.contains("sent 0 change(s)"), "\(quiet.stdout)")
    }
}
