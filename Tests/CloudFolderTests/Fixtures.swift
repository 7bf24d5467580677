import Foundation
import Glibc
import NotesCore
import Testing

@testable import CloudFolder

/// Shared test data: devices, zones, revisions, and cloud folders over either backend.
enum Fixtures {
    static let deviceA = DeviceID("aaaaaaaaaaaaaaaa")!
    static let deviceB = DeviceID("bbbbbbbbbbbbbbbb")!
    static let zone = ZoneID("notes")!
    static let hlc = HLC(millis: 1_700_000_000_000, counter: 1)

    /// A revision whose body is `bodyBytes` long (ASCII), with a fixed record id per `n`.
    static func revision(_ n: Int, bodyBytes: Int = 20, device: DeviceID = deviceA, parents: [String] = []) -> Revision
    {
        let id = UUID(uuidString: String(format: "00000000-0000-4000-8000-%012d", n))!
        let note = Note(
            id: id, title: "note \(n)", body: String(repeating: "x", count: bodyBytes), tags: ["t"],
            createdAt: Date(millisecondsSince1970: 1_700_000_000_000))
        return Revision(
            recordID: id, parents: parents, fields: RevisionFields(note: note),
            hlc: HLC(millis: 1_700_000_000_000 + Int64(n)),
            device: device.rawValue)
    }

    static func tombstone(_ n: Int, parent: String) -> Revision {
        let id = UUID(uuidString: String(format: "00000000-0000-4000-8000-%012d", n))!
        return Revision(recordID: id, parents: [parent], fields: nil, hlc: hlc, device: deviceA.rawValue)
    }

    static func batch(_ numbers: [Int]) -> ChangeBatch {
        ChangeBatch(records: numbers.map { ChangeRecord(revision($0)) })
    }
}

/// Which FileIO a scenario runs against.
enum Backend: String, CaseIterable, CustomTestStringConvertible {
    case memory, disk
    var testDescription: String { rawValue }
}

/// A cloud folder for one test: in memory under `/cloud`, or in a fresh temp directory that is
/// removed when the scenario ends.
final class FolderFixture: @unchecked Sendable {
    let root: String
    let io: any FileIO
    let memory: InMemoryFileIO?

    init(_ backend: Backend) {
        switch backend {
        case .memory:
            let memory = InMemoryFileIO()
            memory.plantDirectory("/cloud")
            self.memory = memory
            self.io = memory
            self.root = "/cloud"
        case .disk:
            self.memory = nil
            self.io = PosixFileIO()
            self.root = TempDirectory.make()
        }
    }

    deinit {
        if memory == nil { try? FileManager.default.removeItem(atPath: root) }
    }

    /// The folder keeps this fixture (and so its temp directory) alive while it is used.
    var folder: DirectoryCloudFolder { DirectoryCloudFolder(root: root, io: KeepAliveFileIO(base: io, owner: self)) }
    var layout: CloudLayout { CloudLayout(root: root) }

    /// A container and the default zone, as after `sync init`.
    @discardableResult
    func prepared() throws -> DirectoryCloudFolder {
        let folder = self.folder
        _ = try folder.createContainer(device: Fixtures.deviceA, hlc: Fixtures.hlc)
        _ = try folder.createZone(
            ZoneInfo(zone: Fixtures.zone, displayName: "Notes", createdBy: Fixtures.deviceA), hlc: Fixtures.hlc)
        return folder
    }

    /// Puts a file at a path, bypassing the protocol (another device, a replicator, an attacker).
    func plant(_ path: String, _ bytes: [UInt8]) throws {
        try mkdirs(CloudPath.parent(of: path))
        if let memory {
            memory.plantFile(path, bytes)
        } else {
            #expect(FileManager.default.createFile(atPath: path, contents: Data(bytes)))
        }
    }

    func mkdirs(_ path: String) throws {
        if let memory {
            memory.plantDirectory(path)
        } else {
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        }
    }

    func plantSymlink(_ path: String, to target: String) throws {
        try mkdirs(CloudPath.parent(of: path))
        if let memory {
            memory.plantSymlink(path, to: target)
        } else {
            try FileManager.default.createSymbolicLink(atPath: path, withDestinationPath: target)
        }
    }

    func contents(_ path: String) -> [UInt8]? {
        if let memory { return memory.contents(path) }
        return FileManager.default.contents(atPath: path).map { Array($0) }
    }

    /// Every path under the root, relative, sorted.
    func allPaths() -> [String] {
        if let memory {
            return memory.allPaths().filter { $0.hasPrefix(root + "/") }.map { String($0.dropFirst(root.count + 1)) }
        }
        let items = FileManager.default.enumerator(atPath: root)?.allObjects as? [String] ?? []
        return items.sorted()
    }
}

enum TempDirectory {
    static func make() -> String {
        var template = Array((NSTemporaryDirectory() + "cloudfolder-test-XXXXXX").utf8CString)
        let path = template.withUnsafeMutableBufferPointer { buffer in String(cString: mkdtemp(buffer.baseAddress!)!) }
        return path
    }
}

/// A FileIO that forwards every call and holds on to the fixture that owns the directory.
struct KeepAliveFileIO: FileIO {
    let base: any FileIO
    let owner: FolderFixture

    func createExclusive(_ path: String) throws -> FileDescriptor { try base.createExclusive(path) }
    func write(_ file: FileDescriptor, _ bytes: [UInt8]) throws { try base.write(file, bytes) }
    func fsync(_ file: FileDescriptor) throws { try base.fsync(file) }
    func close(_ file: FileDescriptor) throws { try base.close(file) }
    func rename(_ from: String, to: String) throws { try base.rename(from, to: to) }
    func fsyncDirectory(_ path: String) throws { try base.fsyncDirectory(path) }
    func read(_ path: String, maxBytes: Int) throws -> [UInt8] { try base.read(path, maxBytes: maxBytes) }
    func list(_ path: String) throws -> [String] { try base.list(path) }
    func kind(_ path: String) throws -> FileKind? { try base.kind(path) }
    func makeDirectory(_ path: String) throws { try base.makeDirectory(path) }
    func remove(_ path: String) throws { try base.remove(path) }
}
