import Foundation
import Glibc
import Testing

/// A small tmpfs mounted for one test, to run the binary on a file system that fills up.
///
/// Mounting needs root; CI runs as root, so the tests that use it are enabled by `isAvailable`
/// (skipped, and named as skipped, elsewhere). As root, a mount that fails is an error that
/// fails the test: it never passes without having run.
struct Tmpfs {
    /// Whether this process may mount: the disk-full tests' opt-in (`.enabled(if:)`).
    static let isAvailable = geteuid() == 0

    let path: URL
    private let runner: CLIRunner

    /// Mounts a tmpfs of `size` (mount's syntax: "2m") at `name` under the runner's home.
    init(_ runner: CLIRunner, name: String = "small", size: String) throws {
        self.runner = runner
        path = runner.home.appendingPathComponent(name)
        try FileManager.default.createDirectory(at: path, withIntermediateDirectories: true)
        let mount = try runner.runProgram("/bin/mount", ["-t", "tmpfs", "-o", "size=\(size)", "tmpfs", path.path])
        guard mount.status == 0 else {
            throw MountError(description: "mount -t tmpfs failed as root (\(mount.status)): \(mount.stderr)")
        }
        _ = chmod(path.path, 0o700)
    }

    /// Writes zeros to a file in the mount until the file system is full to the last byte.
    func fill() {
        let fill = open(path.appendingPathComponent("fill").path, O_CREAT | O_WRONLY, 0o600)
        let block = [UInt8](repeating: 0, count: 4096)
        while write(fill, block, block.count) > 0 {}
        close(fill)
    }

    /// Frees what `fill` took.
    func free() throws {
        try FileManager.default.removeItem(at: path.appendingPathComponent("fill"))
    }

    func unmount() {
        _ = try? runner.runProgram("/bin/umount", [path.path])
    }

    struct MountError: Error, CustomStringConvertible {
        var description: String
    }
}
