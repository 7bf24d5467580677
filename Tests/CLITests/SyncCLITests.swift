import Foundation
import Testing

/// `cloudnotes sync`, `status`, `conflicts` and `resolve` with two data directories (two
/// devices) sharing one cloud folder.
@Suite("Sync from the command line")
struct SyncCLITests {
    @Test("two data directories share one cloud folder: add on A, sync A and B, B has it")
    func addOnASyncBoth() throws {
        let runner = try CLIRunner()
        defer { runner.cleanUp() }
        let cloud = runner.home.appendingPathComponent("cloud").path
        let a = runner.device("a")
        let b = runner.device("b")
        let initA = try runner.cn(at: a, "sync", "init", cloud)
        #expect(initA.status == 0, "\(initA.stderr)")
        #expect(initA.stdout.contains("bound to cloud folder \(cloud)"))
        #expect(try runner.cn(at: b, "sync", "init", cloud).status == 0)
        let added = try runner.cn(at: a, "add", "Milk", "--body", "2 litres")
        let id = added.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        let sentA = try runner.cn(at: a, "sync")
        #expect(sentA.status == 0, "\(sentA.stderr)")
        #expect(sentA.stdout.contains("sent 1 change(s)"))
        let gotB = try runner.cn(at: b, "sync")
        #expect(gotB.stdout.contains("1 note(s) changed"), "\(gotB.stdout) \(gotB.stderr)")
        let shown = try runner.cn(at: b, "show", id)
        #expect(shown.stdout == "2 litres")
        let status = try runner.cn(at: b, "status", "--json")
        let json = try #require(try JSONSerialization.jsonObject(with: status.stdoutData) as? [String: Any])
        #expect(json["accountStatus"] as? String == "available")
        #expect(json["pending"] as? Int == 0)
        #expect((json["devices"] as? [Any])?.count == 2)
        #expect(json["lastSync"] is String)
    }

    @Test("on a fresh machine 'sync' creates the default cloud folder and its container")
    func freshMachine() throws {
        let runner = try CLIRunner()
        defer { runner.cleanUp() }
        try runner.add("first")
        let result = try runner.cn("sync")
        #expect(result.status == 0, "\(result.stderr)")
        let container = runner.home.appendingPathComponent("xdg-data/cloudnotes-cloud/container.json").path
        #expect(FileManager.default.fileExists(atPath: container))
    }

    @Test("a missing cloud folder: sync fails with the reason, status says temporarilyUnavailable, the note waits")
    func folderMissing() throws {
        let runner = try CLIRunner()
        defer { runner.cleanUp() }
        let cloud = runner.home.appendingPathComponent("cloud").path
        #expect(try runner.cn("sync", "init", cloud).status == 0)
        try FileManager.default.moveItem(atPath: cloud, toPath: cloud + ".away")
        try runner.add("waiting")
        let sync = try runner.cn("sync")
        #expect(sync.status == 1)
        #expect(sync.stderr.contains("1 change(s) wait"), "\(sync.stderr)")
        #expect(!FileManager.default.fileExists(atPath: cloud))
        let status = try #require(try runner.json("status", "--json") as? [String: Any])
        #expect(status["accountStatus"] as? String == "temporarilyUnavailable")
        #expect(status["pending"] as? Int == 1)
        try FileManager.default.moveItem(atPath: cloud + ".away", toPath: cloud)
        #expect(try runner.cn("sync").stdout.contains("sent 1 change(s)"))
    }

    @Test("a note over maxNoteBytes (1 MB): sync warns and exits 0, the note stays pending, status --json lists it")
    func overLimitWarning() throws {
        let runner = try CLIRunner()
        defer { runner.cleanUp() }
        try runner.limitNotes(to: 1_048_576)
        #expect(try runner.cn("sync", "init", runner.home.appendingPathComponent("cloud").path).status == 0)
        let big = runner.home.appendingPathComponent("big.txt")
        try Data(String(repeating: "0123456789abcdef\n", count: 70_000).utf8).write(to: big)
        #expect(try runner.cn("add", "big", "--file", big.path).status == 0)
        let sync = try runner.cn("sync")
        #expect(sync.status == 0)
        #expect(sync.stderr.contains("1 MB"), "\(sync.stderr)")
        let status = try #require(try runner.json("status", "--json") as? [String: Any])
        #expect(status["pending"] as? Int == 1)
        #expect((status["warnings"] as? [String])?.contains { $0.contains("1 MB") } == true, "\(status)")
    }

    @Test("overlapping edits on two devices: conflicts lists the note, resolve --keep theirs closes it")
    func conflictsAndResolve() throws {
        let runner = try CLIRunner()
        defer { runner.cleanUp() }
        let (_, a, b) = try runner.devicesSharingACloudFolder()
        let id = try runner.cn(at: a, "add", "Plan", "--body", "one\ntwo\n").stdout
            .trimmingCharacters(in: .whitespacesAndNewlines)
        try runner.cn(at: a, "sync")
        try runner.cn(at: b, "sync")
        try runner.cn(at: a, "edit", id, "--body", "one\nA's line\n")
        try runner.cn(at: b, "edit", id, "--body", "one\nB's line\n")
        try runner.cn(at: a, "sync")
        try runner.cn(at: b, "sync")
        try runner.cn(at: a, "sync")
        let listed = try runner.cn(at: a, "conflicts")
        #expect(listed.stdout.contains(id), "\(listed.stdout)")
        let resolved = try runner.cn(at: a, "resolve", id, "--keep", "theirs")
        #expect(resolved.status == 0, "\(resolved.stderr)")
        #expect(try runner.cn(at: a, "show", id).stdout == "one\nB's line\n")
        #expect(try runner.cn(at: a, "conflicts").stdout.contains("no conflicts"))
        try runner.cn(at: a, "sync")
        try runner.cn(at: b, "sync")
        #expect(try runner.cn(at: b, "show", id).stdout == "one\nB's line\n")
        let records = try runner.cn(at: b, "debug", "records", "notes")
        #expect(records.stdout.contains(id))
    }
}
