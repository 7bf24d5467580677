import Foundation
import Glibc
import Synchronization

/// An in-memory `FileIO` with fault injection: the twin of `PosixFileIO` (ARCHITECTURE §7).
///
/// It models what a crash and a power loss leave on a real disk: file data is durable once
/// fsynced, a folder's entries (creations, renames) once the folder is fsynced. Faults:
/// - `fail(_:errno:)`: the next call of a step fails with that errno and does nothing;
/// - `crash(at:)`: the process "dies" at a step: the step does not happen, open files are lost,
///   everything done before stays (a written temp file, say), and `SimulatedCrash` is thrown;
/// - `powerLoss()`: data not fsynced and entries of folders not fsynced are dropped.
/// Symlinks are never followed, not even in the middle of a path (`ELOOP`).
public final class InMemoryFileIO: FileIO, Sendable {
    /// Thrown by the step at which `crash(at:)` stopped the "process".
    public struct SimulatedCrash: Error, Equatable, Sendable {
        public var step: FileIOStep
    }

    private let disk = Mutex(Disk())

    public init() {}

    // MARK: Fault injection

    /// Makes the next `times` calls of `step` (on a path containing `pathContains`, if given)
    /// fail with `errno` without doing anything.
    public func fail(_ step: FileIOStep, errno: Int32, pathContains: String? = nil, times: Int = 1) {
        disk.withLock { $0.fail(step, errno: errno, pathContains: pathContains, times: times) }
    }

    /// Stops the "process" at the `occurrence`-th call of `step` (on a path containing
    /// `pathContains`, if given) from now.
    public func crash(at step: FileIOStep, pathContains: String? = nil, occurrence: Int = 1) {
        disk.withLock { $0.crash(at: step, pathContains: pathContains, occurrence: occurrence) }
    }

    /// Starts a new "process" after a crash: the files stay as the crash left them.
    public func restart() { disk.withLock { $0.restart() } }

    /// Removes every fault and crash point that has not fired.
    public func clearFaults() { disk.withLock { $0.clearFaults() } }

    /// The power goes out: only fsynced data and fsynced folder entries survive. The machine
    /// comes back up (a crashed "process" is restarted).
    public func powerLoss() { disk.withLock { $0.powerLoss() } }

    /// How many times `step` was called (including failed calls).
    public func callCount(_ step: FileIOStep) -> Int { disk.withLock { $0.callCount(step) } }

    // MARK: Planting and inspecting (durable at once, no faults)

    public func plantDirectory(_ path: String) { disk.withLock { $0.plantDirectory(path) } }

    public func plantFile(_ path: String, _ bytes: [UInt8], apparentSize: Int64? = nil) {
        disk.withLock { $0.plantFile(path, bytes, apparentSize: apparentSize) }
    }

    public func plantSymlink(_ path: String, to target: String) { disk.withLock { $0.plantSymlink(path, to: target) } }

    /// The bytes of a file as a reader would see them now, or nil.
    public func contents(_ path: String) -> [UInt8]? { disk.withLock { $0.contents(path) } }

    /// Every path that exists now, sorted.
    public func allPaths() -> [String] { disk.withLock { $0.allPaths() } }

    // MARK: FileIO

    public func createExclusive(_ path: String) throws -> FileDescriptor {
        try disk.withLock { try $0.createExclusive(path) }
    }

    public func write(_ file: FileDescriptor, _ bytes: [UInt8]) throws {
        try disk.withLock { try $0.write(file, bytes) }
    }

    public func fsync(_ file: FileDescriptor) throws { try disk.withLock { try $0.fsync(file) } }

    public func close(_ file: FileDescriptor) throws { try disk.withLock { try $0.close(file) } }

    public func rename(_ from: String, to: String) throws { try disk.withLock { try $0.rename(from, to: to) } }

    /// True for every path but a device file, as on a disk (`PosixFileIO`).
    public func renameRefusesExisting(_ path: String) -> Bool { !CloudLayout.isRewritable(path) }

    public func fsyncDirectory(_ path: String) throws { try disk.withLock { try $0.fsyncDirectory(path) } }

    public func read(_ path: String, maxBytes: Int) throws -> [UInt8] {
        try disk.withLock { try $0.read(path, maxBytes: maxBytes) }
    }

    public func list(_ path: String) throws -> [String] { try disk.withLock { try $0.list(path) } }

    public func kind(_ path: String) throws -> FileKind? { try disk.withLock { try $0.kind(path) } }

    public func makeDirectory(_ path: String) throws { try disk.withLock { try $0.makeDirectory(path) } }

    public func remove(_ path: String) throws { try disk.withLock { try $0.remove(path) } }
}
