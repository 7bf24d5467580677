import Foundation
import Glibc
import Testing

/// What the user is told when the disk, the database, the config or the cloud folder is wrong:
/// the problem in their words, never an internal code, and nothing read whole or reinitialised.
@Suite("Messages for a broken environment")
struct SyncMessagesCLITests {
    @Test("a zero-length notes.sqlite is refused as damaged, not reinitialised (the binding is not forgotten)")
    func emptyDatabase() throws {
        let runner = try CLIRunner()
        defer { runner.cleanUp() }
        try FileManager.default.createDirectory(at: runner.dataDirectory, withIntermediateDirectories: true)
        let database = runner.dataDirectory.appendingPathComponent("notes.sqlite").path
        #expect(FileManager.default.createFile(atPath: database, contents: Data()))
        let list = try runner.cn("list")
        #expect(list.status == 1)
        #expect(list.stderr.contains("empty (0 bytes)"), "\(list.stderr)")
        let size = try FileManager.default.attributesOfItem(atPath: database)[.size] as? Int
        #expect(size == 0)
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

    @Test("0 bytes free and no -shm: list says the disk is full (needs a tmpfs mount; skipped where not allowed)")
    func diskFull() throws {
        let runner = try CLIRunner()
        defer { runner.cleanUp() }
        try runner.add("kept")
        let mountPoint = runner.home.appendingPathComponent("small")
        try FileManager.default.createDirectory(at: mountPoint, withIntermediateDirectories: true)
        let mount = try runner.runProgram("/bin/mount", ["-t", "tmpfs", "-o", "size=2m", "tmpfs", mountPoint.path])
        guard mount.status == 0 else { return }
        defer { _ = try? runner.runProgram("/bin/umount", [mountPoint.path]) }
        _ = chmod(mountPoint.path, 0o700)
        try FileManager.default.copyItem(
            at: runner.dataDirectory.appendingPathComponent("notes.sqlite"),
            to: mountPoint.appendingPathComponent("notes.sqlite"))
        // Fill the file system to the last byte.
        let fill = open(mountPoint.appendingPathComponent("fill").path, O_CREAT | O_WRONLY, 0o600)
        let block = [UInt8](repeating: 0, count: 4096)
        while write(fill, block, block.count) > 0 {}
        close(fill)
        let list = try runner.cn(at: mountPoint, "list")
        #expect(list.status == 1)
        #expect(list.stderr.contains("the disk is full"), "\(list.stderr)")
    }
}
