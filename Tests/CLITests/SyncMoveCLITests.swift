import Foundation
import NotesTestSupport
import Testing

/// `cloudnotes sync move`: a folder to a bucket and back, the other device following the
/// `moved.json` each old place keeps (SYNC-FORMAT "Moving").
@Suite("sync move between a folder and S3")
struct SyncMoveCLITests {
    /// Every file under `root` (relative path → bytes).
    static func files(_ root: URL) -> [String: Data] {
        var result: [String: Data] = [:]
        for case let path as String in FileManager.default.enumerator(atPath: root.path) ?? .init() {
            let url = root.appendingPathComponent(path)
            var isFolder: ObjCBool = false
            if FileManager.default.fileExists(atPath: url.path, isDirectory: &isFolder), !isFolder.boolValue {
                result[path] = FileManager.default.contents(atPath: url.path)
            }
        }
        return result
    }

    @Test(
        "folder → s3:// → folder: A moves, B follows each moved.json, every note arrives, the old places keep their files"
    )
    func folderToS3AndBack() async throws {
        let server = try await SeaweedServer.shared.endpoint()
        let runner = try CLIRunner()
        defer { runner.cleanUp() }
        let (a, b) = (runner.device("a"), runner.device("b"))
        let first = runner.home.appendingPathComponent("cloud-first")
        let last = runner.home.appendingPathComponent("cloud-last")
        let bucket = "s3://\(server.bucket)/move-\(UUID().uuidString.lowercased())/notes"
        func cn(_ device: URL, _ arguments: String...) throws -> CLIRunner.Result {
            try runner.run(
                arguments + ["--data-dir", device.path], environment: server.environment, currentDirectory: runner.home)
        }
        #expect(try cn(a, "sync", "init", first.path).status == 0)
        #expect(try cn(a, "add", "One", "--body", "before the move").status == 0)
        #expect(try cn(a, "sync").status == 0)
        #expect(try cn(b, "sync", "init", first.path).status == 0)
        let before = Self.files(first)

        let toBucket = try cn(a, "sync", "move", bucket)
        #expect(toBucket.status == 0, "\(toBucket.stderr)")
        #expect(
            toBucket.stdout.contains("moved the cloud folder from \(first.path) to \(bucket)"), "\(toBucket.stdout)")
        #expect(try cn(a, "status").stdout.contains(bucket))
        #expect(try cn(a, "add", "Two", "--body", "in the bucket").status == 0)
        #expect(try cn(a, "sync").status == 0)
        // The old place: every file as it was, plus the pointer.
        var after = Self.files(first)
        let removed = after.removeValue(forKey: "moved.json")
        let pointer = try #require(removed)
        #expect(after == before)
        #expect(String(decoding: pointer, as: UTF8.self).contains("move-"))

        let follows = try cn(b, "sync")
        #expect(follows.status == 0, "\(follows.stderr)")
        #expect(follows.stderr.contains("the cloud folder moved from \(first.path) to \(bucket)"), "\(follows.stderr)")
        let listed = try cn(b, "list")
        #expect(listed.stdout.contains("One") && listed.stdout.contains("Two"), "\(listed.stdout)")

        let back = try cn(a, "sync", "move", last.path)
        #expect(back.status == 0, "\(back.stderr)")
        #expect(try cn(a, "add", "Three", "--body", "in the folder again").status == 0)
        #expect(try cn(a, "sync").status == 0)
        #expect(try cn(b, "add", "Four", "--body", "from b").status == 0)
        let followsBack = try cn(b, "sync")
        #expect(followsBack.status == 0, "\(followsBack.stderr)")
        #expect(followsBack.stderr.contains("to \(last.path)"), "\(followsBack.stderr)")
        #expect(try cn(a, "sync").status == 0)
        for device in [a, b] {
            let all = try cn(device, "list").stdout
            for title in ["One", "Two", "Three", "Four"] {
                #expect(all.contains(title), "\(device.lastPathComponent): \(all)")
            }
        }
        #expect(Self.files(last)["container.json"] == before["container.json"])
        // A place that holds another container is refused, nothing copied.
        let other = runner.home.appendingPathComponent("cloud-other")
        let c = runner.device("c")
        #expect(try cn(c, "sync", "init", other.path).status == 0)
        let refused = try cn(a, "sync", "move", other.path)
        #expect(refused.status != 0)
        #expect(refused.stderr.contains("is not empty"), "\(refused.stderr)")
    }

    /// Devices a, b and c bound to the place `first` (`second` and `third` not made yet).
    static func threeDevicesOnAFirstPlace(_ runner: CLIRunner) throws -> (
        a: URL, b: URL, c: URL, first: URL, second: URL, third: URL
    ) {
        let (a, b, c) = (runner.device("a"), runner.device("b"), runner.device("c"))
        let first = runner.home.appendingPathComponent("first")
        for device in [a, b, c] { #expect(try runner.cn(at: device, "sync", "init", first.path).status == 0) }
        return (
            a, b, c, first, runner.home.appendingPathComponent("second"), runner.home.appendingPathComponent("third")
        )
    }

    /// The titles `device` lists.
    static func titles(_ runner: CLIRunner, _ device: URL) throws -> Set<String> {
        let list = try runner.run(["list", "--limit", "100000", "--json", "--data-dir", device.path])
        let rows = try JSONSerialization.jsonObject(with: list.stdoutData) as? [[String: Any]] ?? []
        return Set(rows.compactMap { $0["title"] as? String })
    }

    @Test(
        "a move into a place that is not empty, or from a place with no container, is refused in one line, exit 1, nothing written"
    )
    func refusedMoves() throws {
        let runner = try CLIRunner()
        defer { runner.cleanUp() }
        let a = runner.device("a")
        let cloud = runner.home.appendingPathComponent("cloud")
        #expect(try runner.cn(at: a, "sync", "init", cloud.path).status == 0)
        #expect(try runner.cn(at: a, "add", "One", "--body", "x").status == 0)
        #expect(try runner.cn(at: a, "sync").status == 0)
        let before = Self.files(cloud)

        let busy = runner.home.appendingPathComponent("busy")
        try FileManager.default.createDirectory(at: busy, withIntermediateDirectories: true)
        try Data("mine".utf8).write(to: busy.appendingPathComponent("notes.txt"))
        let refused = try runner.cn(at: a, "sync", "move", busy.path)
        #expect(refused.status == 1, "\(refused.stdout) \(refused.stderr)")
        #expect(refused.stderr.contains("is not empty"), "\(refused.stderr)")
        #expect(refused.stderr.split(separator: "\n").count == 1, "\(refused.stderr)")
        #expect(Self.files(busy).keys.sorted() == ["notes.txt"])
        #expect(Self.files(cloud) == before, "nothing written at the old place")

        let file = runner.home.appendingPathComponent("a-file")
        try Data("x".utf8).write(to: file)
        let onFile = try runner.cn(at: a, "sync", "move", file.path)
        #expect(onFile.status == 1, "\(onFile.stderr)")
        #expect(Self.files(cloud) == before)

        // The cloud folder emptied: there is nothing to move, and nothing is created.
        for name in try FileManager.default.contentsOfDirectory(atPath: cloud.path) {
            try FileManager.default.removeItem(at: cloud.appendingPathComponent(name))
        }
        let fresh = runner.home.appendingPathComponent("fresh")
        let empty = try runner.cn(at: a, "sync", "move", fresh.path)
        #expect(empty.status == 1, "\(empty.stdout) \(empty.stderr)")
        #expect(empty.stderr.contains("no cloud folder to move"), "\(empty.stderr)")
        #expect(!empty.stdout.contains("moved the cloud folder"), "\(empty.stdout)")
        #expect(!FileManager.default.fileExists(atPath: fresh.path))
        #expect(try runner.cn(at: a, "status").stdout.contains(cloud.path))
    }

    @Test("A moves twice (to a 2nd, then a 3rd place) while B and C edit on each side: every device gets every edit")
    func twoMovesThreeDevices() throws {
        let runner = try CLIRunner()
        defer { runner.cleanUp() }
        let (a, b, c, first, second, third) = try Self.threeDevicesOnAFirstPlace(runner)
        #expect(try runner.cn(at: a, "add", "A1", "--body", "a").status == 0)
        for device in [a, b, c] { #expect(try runner.cn(at: device, "sync").status == 0) }

        #expect(try runner.cn(at: a, "sync", "move", second.path).status == 0)
        #expect(try runner.cn(at: b, "add", "B1", "--body", "b").status == 0)
        let bFollows = try runner.cn(at: b, "sync")
        #expect(bFollows.status == 0, "\(bFollows.stderr)")
        #expect(bFollows.stderr.contains("to \(second.path)"), "\(bFollows.stderr)")
        // C publishes at the first place after the move copied it (its pointer not there yet, as
        // a replicator may deliver it late): that edit must still reach everyone.
        let pointer = first.appendingPathComponent("moved.json")
        let held = runner.home.appendingPathComponent("held-pointer")
        try FileManager.default.moveItem(at: pointer, to: held)
        #expect(try runner.cn(at: c, "add", "C1", "--body", "c").status == 0)
        #expect(try runner.cn(at: c, "sync").status == 0)
        try FileManager.default.moveItem(at: held, to: pointer)

        #expect(try runner.cn(at: a, "add", "A2", "--body", "a").status == 0)
        #expect(try runner.cn(at: a, "sync").status == 0)
        let again = try runner.cn(at: a, "sync", "move", third.path)
        #expect(again.status == 0, "\(again.stderr)")
        #expect(try runner.cn(at: a, "add", "A3", "--body", "a").status == 0)
        #expect(try runner.cn(at: a, "sync").status == 0)
        #expect(try runner.cn(at: b, "add", "B2", "--body", "b").status == 0)
        #expect(try runner.cn(at: b, "sync").status == 0)
        #expect(try runner.cn(at: c, "add", "C2", "--body", "c").status == 0)
        // C follows both pointers in one run, and takes C1 along.
        let cFollows = try runner.cn(at: c, "sync")
        #expect(cFollows.status == 0, "\(cFollows.stderr)")
        #expect(cFollows.stderr.contains("to \(third.path) (via \(second.path))"), "\(cFollows.stderr)")
        for _ in 0..<2 {
            for device in [a, b, c] {
                let sync = try runner.cn(at: device, "sync")
                #expect(sync.status == 0, "\(sync.stderr)")
                #expect(!sync.stderr.contains("moved"), "a device follows once, then is quiet: \(sync.stderr)")
            }
        }
        let all: Set = ["A1", "A2", "A3", "B1", "B2", "C1", "C2"]
        for device in [a, b, c] {
            #expect(try Self.titles(runner, device) == all, "\(device.lastPathComponent)")
            #expect(try runner.cn(at: device, "status").stdout.contains("folder     \(third.path)"))
        }
        // Nothing is ever published at a place the container left.
        #expect(Self.files(second)["moved.json"] != nil)
        let late = Self.files(second).keys.filter { $0.contains("/log/") }.count
        #expect(try runner.cn(at: b, "add", "B3", "--body", "b").status == 0)
        #expect(try runner.cn(at: b, "sync").status == 0)
        #expect(Self.files(second).keys.filter { $0.contains("/log/") }.count == late)
    }

    @Test(
        "a device left on a place the container moved from encrypts where the container is now, and a device on the plain root follows encryption and a later move in one sync"
    )
    func encryptAfterAMoveFollowsTheMove() throws {
        let runner = try CLIRunner()
        defer { runner.cleanUp() }
        let (a, b, c, first, second, third) = try Self.threeDevicesOnAFirstPlace(runner)
        let good = CLIRunner.passphraseEnvironment(CLIRunner.passphrase)
        #expect(try runner.cn(at: c, "add", "C1", "--body", "c").status == 0)
        for device in [a, b, c, a] { #expect(try runner.cn(at: device, "sync").status == 0) }
        // A moves; B, still bound to the first place, encrypts: the second place is encrypted,
        // the first (which the container left) is not touched.
        #expect(try runner.cn(at: a, "sync", "move", second.path).status == 0)
        let encrypted = try runner.run(["sync", "encrypt", "--data-dir", b.path], environment: good)
        #expect(encrypted.status == 0, "\(encrypted.stderr)")
        #expect(FileManager.default.fileExists(atPath: second.appendingPathComponent("encrypted.json").path))
        #expect(!FileManager.default.fileExists(atPath: first.appendingPathComponent("encrypted.json").path))
        #expect(!FileManager.default.fileExists(atPath: first.appendingPathComponent("sealed").path))
        // A follows the encryption, then moves the encrypted container on.
        #expect(try runner.run(["sync", "--data-dir", a.path], environment: good).status == 0)
        let moved = try runner.run(["sync", "move", third.path, "--data-dir", a.path], environment: good)
        #expect(moved.status == 0, "\(moved.stderr)")
        // C, on the plain first place all along, reaches the third in one sync, C2 with it.
        #expect(try runner.cn(at: c, "add", "C2", "--body", "c").status == 0)
        let follows = try runner.run(["sync", "--data-dir", c.path], environment: good)
        #expect(follows.status == 0, "\(follows.stderr)")
        for device in [a, b, c, a, b] {
            let sync = try runner.run(["sync", "--data-dir", device.path], environment: good)
            #expect(sync.status == 0, "\(device.lastPathComponent): \(sync.stderr)")
        }
        for device in [a, b, c] {
            #expect(try Self.titles(runner, device) == ["C1", "C2"], "\(device.lastPathComponent)")
            let status = try runner.cn(at: device, "status").stdout
            #expect(status.contains("folder     \(third.path)"), "\(device.lastPathComponent): \(status)")
        }
    }

    @Test("forward pointers that loop are refused with one message, named in status, and never followed")
    func pointerLoop() throws {
        let runner = try CLIRunner()
        defer { runner.cleanUp() }
        let (a, b) = (runner.device("a"), runner.device("b"))
        let first = runner.home.appendingPathComponent("first")
        let second = runner.home.appendingPathComponent("second")
        for device in [a, b] { #expect(try runner.cn(at: device, "sync", "init", first.path).status == 0) }
        #expect(try runner.cn(at: a, "sync", "move", second.path).status == 0)
        // An older build's pointer at the new place, back to the first: a loop.
        let back = "{\"movedTo\":\"\(first.path.replacingOccurrences(of: "/", with: "\\/"))\"}"
        try Data(back.utf8).write(to: second.appendingPathComponent("moved.json"))
        for device in [b, a] {
            let sync = try runner.cn(at: device, "sync")
            #expect(sync.status == 1, "\(sync.stdout) \(sync.stderr)")
            #expect(sync.stderr.contains("form a loop"), "\(sync.stderr)")
            #expect(sync.stderr.split(separator: "\n").count == 1, "\(sync.stderr)")
            let status = try runner.cn(at: device, "status")
            #expect(status.status == 0)
            #expect(status.stdout.contains("form a loop: "), "\(status.stdout)")
        }
        #expect(try runner.cn(at: b, "status").stdout.contains("folder     \(first.path)"))
        #expect(try runner.cn(at: a, "status").stdout.contains("folder     \(second.path)"))
    }
}
