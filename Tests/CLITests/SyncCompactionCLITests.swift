import Foundation
import Testing

/// `cloudnotes sync --compact` and the progress of a long sync, against the real binary.
@Suite("Sync compaction and progress from the command line")
struct SyncCompactionCLITests {
    @Test("initial sync of a large zone shows progress on stderr when it is a terminal, nothing when piped")
    func progressOnATerminal() throws {
        let runner = try CLIRunner()
        defer { runner.cleanUp() }
        let (cloud, a, b) = try runner.devicesSharingACloudFolder(bindingB: false)
        let notes = (0..<2000).map { n in
            CLIRunner.fixture(
                id: String(format: "00000000-0000-4000-8000-%012d", n), title: "note \(n)", body: "\(n)\n")
        }
        try runner.seed(notes, into: a)
        #expect(try runner.cn(at: a, "sync").status == 0)
        // `script` runs the command on a pseudo-terminal and copies what it printed.
        let command = "\(CLIRunner.binary.path) sync init \(cloud) --data-dir \(b.path)"
        let onTerminal = try runner.runProgram("/usr/bin/script", ["-qec", command, "/dev/null"])
        #expect(onTerminal.status == 0, "\(onTerminal.stdout)")
        #expect(onTerminal.stdout.contains("\rsyncing: 2000 change(s)"), "\(onTerminal.stdout.debugDescription)")
        #expect(onTerminal.stdout.contains("bound to cloud folder"))
        try runner.cn(at: a, "add", "one more", "--body", "x")
        #expect(try runner.cn(at: a, "sync").status == 0)
        let piped = try runner.cn(at: b, "sync")
        #expect(piped.status == 0, "\(piped.stderr)")
        #expect(!piped.stderr.contains("syncing"), "\(piped.stderr.debugDescription)")
        #expect(piped.stdout.contains("received 1"))
    }

    @Test("sync --compact writes a snapshot and deletes nothing before it is a day old; the other device still syncs")
    func compactWritesASnapshot() throws {
        let runner = try CLIRunner()
        defer { runner.cleanUp() }
        let (cloud, a, b) = try runner.devicesSharingACloudFolder(bindingB: true)
        for n in 0..<3 {
            try runner.cn(at: a, "add", "note \(n)", "--body", "\(n)")
            #expect(try runner.cn(at: a, "sync").status == 0)
        }
        let compacted = try runner.cn(at: a, "sync", "--compact")
        #expect(compacted.status == 0, "\(compacted.stderr)")
        #expect(compacted.stdout.contains("compact: zone notes: snapshot written at seq 3"), "\(compacted.stdout)")
        #expect(compacted.stdout.contains("0 log file(s) deleted"), "\(compacted.stdout)")
        #expect(compacted.stdout.contains("not yet more"), "\(compacted.stdout)")
        let snapshots = try FileManager.default.contentsOfDirectory(atPath: cloud + "/private/zones/notes/snapshots")
        #expect(snapshots.count == 1 && snapshots[0].hasSuffix("-000000000003.json"), "\(snapshots)")
        let again = try runner.cn(at: a, "sync", "--compact")
        #expect(!again.stdout.contains("snapshot written"), "a second snapshot at the same seq: \(again.stdout)")
        let gotB = try runner.cn(at: b, "sync")
        #expect(gotB.stdout.contains("3 note(s) changed"), "\(gotB.stdout) \(gotB.stderr)")
    }

    @Test("a copied data directory: the copy that finds the other's file rotates, status says so, nothing is lost")
    func copiedDataDirectory() throws {
        let runner = try CLIRunner()
        defer { runner.cleanUp() }
        let (_, a, b) = try runner.devicesSharingACloudFolder()
        try runner.cn(at: a, "add", "before the copy", "--body", "1")
        #expect(try runner.cn(at: a, "sync").status == 0)
        let copy = runner.device("a-copy")
        try FileManager.default.copyItem(at: a, to: copy)
        let status = try JSONSerialization.jsonObject(with: try runner.cn(at: a, "status", "--json").stdoutData)
        let original = try #require((status as? [String: Any])?["device"] as? String)
        try runner.cn(at: copy, "add", "on the copy", "--body", "2")
        #expect(try runner.cn(at: copy, "sync").status == 0)
        try runner.cn(at: a, "add", "on the original", "--body", "3")
        let rotated = try runner.cn(at: a, "sync")
        #expect(rotated.status == 0, "\(rotated.stderr)")
        #expect(rotated.stderr.contains("now publishes as"), "\(rotated.stderr)")
        let after = try runner.cn(at: a, "status")
        #expect(after.stdout.contains("was a copy of device \(original)"), "\(after.stdout)")
        #expect(!after.stdout.contains("device     \(original)\n"), "\(after.stdout)")
        for device in [copy, b, a, copy, b] { #expect(try runner.cn(at: device, "sync").status == 0) }
        for device in [a, copy, b] {
            let list = try runner.run(["list", "--json", "--data-dir", device.path])
            let rows = try #require(try JSONSerialization.jsonObject(with: list.stdoutData) as? [[String: Any]])
            #expect(
                Set(rows.compactMap { $0["title"] as? String })
                    == ["before the copy", "on the copy", "on the original"], "\(device.lastPathComponent)")
        }
    }
}
