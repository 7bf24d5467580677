import Foundation
import Glibc
import Testing

/// What the user is told when the disk, the database, the config or the cloud folder is wrong:
/// the problem in their words, never an internal code, and nothing read whole or reinitialised.
@Suite("Messages for a broken environment")
struct SyncMessagesCLITests {
    @Test("a zero-length notes.sqlite in a data directory that was used is refused as damaged, not reinitialised")
    func emptyDatabaseOfAUsedDirectory() throws {
        let runner = try CLIRunner()
        defer { runner.cleanUp() }
        try FileManager.default.createDirectory(
            at: runner.dataDirectory.appendingPathComponent("attachments"), withIntermediateDirectories: true)
        let database = runner.dataDirectory.appendingPathComponent("notes.sqlite").path
        #expect(FileManager.default.createFile(atPath: database, contents: Data()))
        let list = try runner.cn("list")
        #expect(list.status == 1)
        #expect(list.stderr.contains("empty (0 bytes)"), "\(list.stderr)")
        let size = try FileManager.default.attributesOfItem(atPath: database)[.size] as? Int
        #expect(size == 0)
    }

    @Test(
        "a database a failed first start left (0 bytes, or zeros without a header) is created afresh",
        arguments: [0, 4096])
    func unfinishedFirstStart(zeros: Int) throws {
        let runner = try CLIRunner()
        defer { runner.cleanUp() }
        try FileManager.default.createDirectory(at: runner.dataDirectory, withIntermediateDirectories: true)
        let database = runner.dataDirectory.appendingPathComponent("notes.sqlite").path
        #expect(FileManager.default.createFile(atPath: database, contents: Data(count: zeros)))
        let add = try runner.cn("add", "First note", "--body", "kept")
        #expect(add.status == 0, "\(add.stderr)")
        #expect(try runner.cn("show", "First note").stdout == "kept")
    }

    @Test(
        "a first start on a full disk fails with a message, and works once there is space again (tmpfs)",
        .enabled(if: Tmpfs.isAvailable, "mounts a tmpfs: needs root (CI runs as root)"))
    func firstStartOnAFullDisk() throws {
        let runner = try CLIRunner()
        defer { runner.cleanUp() }
        // Room for a new store (16 KB pages, D-229) once the filler is gone.
        let disk = try Tmpfs(runner, size: "4m")
        defer { disk.unmount() }
        let data = disk.path.appendingPathComponent("data")
        try FileManager.default.createDirectory(at: data, withIntermediateDirectories: true)
        disk.fill()
        let full = try runner.cn(at: data, "add", "Lost", "--body", "no room")
        #expect(full.status == 1)
        #expect(full.stderr.contains("the disk is full"), "\(full.stderr)")
        try disk.free()
        let add = try runner.cn(at: data, "add", "Later", "--body", "room again")
        #expect(add.status == 0, "\(add.stderr)")
        let list = try runner.cn(at: data, "list")
        #expect(list.status == 0, "\(list.stderr)")
        #expect(list.stdout.contains("Later") && !list.stdout.contains("Lost"), "\(list.stdout)")
    }

    @Test("a 1 GB sparse config file is refused from its size, at once")
    func hugeConfig() throws {
        let runner = try CLIRunner()
        defer { runner.cleanUp() }
        let path = runner.home.appendingPathComponent("huge.json").path
        let fd = open(path, O_CREAT | O_WRONLY, 0o600)
        #expect(fd >= 0 && ftruncate(fd, 1 << 30) == 0)
        close(fd)
        let start = ContinuousClock.now
        let list = try runner.cn("list", "--config", path)
        #expect(list.status == 1)
        #expect(list.stderr.contains("at most 1048576 bytes"), "\(list.stderr)")
        #expect(ContinuousClock.now - start < .seconds(20))
    }

    @Test("a cloud folder holding another account: the message says so without an internal code")
    func noInternalCodes() throws {
        let runner = try CLIRunner()
        defer { runner.cleanUp() }
        let (cloud, a, _) = try runner.devicesSharingACloudFolder(bindingB: false)
        let other = runner.home.appendingPathComponent("other").path
        #expect(try runner.cn(at: runner.device("c"), "sync", "init", other).status == 0)
        try FileManager.default.removeItem(atPath: cloud + "/container.json")
        try FileManager.default.copyItem(atPath: other + "/container.json", toPath: cloud + "/container.json")
        let sync = try runner.cn(at: a, "sync")
        #expect(sync.status == 1)
        #expect(sync.stderr.contains("another account"), "\(sync.stderr)")
        for code in ["badContainer:", "internalError:", "unknownItem:"] {
            #expect(!sync.stderr.contains(code), "\(sync.stderr)")
        }
        let status = try runner.cn(at: a, "status")
        for code in ["badContainer:", "internalError:", "unknownItem:"] {
            #expect(!status.stdout.contains(code), "\(status.stdout)")
        }
    }

    @Test(
        "0 bytes free and no -shm: list says the disk is full (tmpfs)",
        .enabled(if: Tmpfs.isAvailable, "mounts a tmpfs: needs root (CI runs as root)"))
    func diskFull() throws {
        let runner = try CLIRunner()
        defer { runner.cleanUp() }
        try runner.add("kept")
        let disk = try Tmpfs(runner, size: "2m")
        defer { disk.unmount() }
        try FileManager.default.copyItem(
            at: runner.dataDirectory.appendingPathComponent("notes.sqlite"),
            to: disk.path.appendingPathComponent("notes.sqlite"))
        disk.fill()
        let list = try runner.cn(at: disk.path, "list")
        #expect(list.status == 1)
        #expect(list.stderr.contains("the disk is full"), "\(list.stderr)")
    }
}
