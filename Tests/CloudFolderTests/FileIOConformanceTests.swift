import Glibc
import Testing

@testable import CloudFolder

/// The in-memory twin answers like the real thing: the same calls on `InMemoryFileIO` and
/// `PosixFileIO` give the same results and the same error codes and errnos.
@Suite struct FileIOConformanceTests {
    /// A root with a file `f` (3 bytes), a folder `d` and a symlink `l` to `f`.
    func prepared(_ backend: Backend) throws -> FolderFixture {
        let fixture = FolderFixture(backend)
        try fixture.plant(fixture.root + "/f", [1, 2, 3])
        try fixture.mkdirs(fixture.root + "/d")
        try fixture.plantSymlink(fixture.root + "/l", to: fixture.root + "/f")
        return fixture
    }

    func failure(_ call: () throws -> Void) -> String {
        do {
            try call()
            return "ok"
        } catch let error as CloudError {
            return "\(error.code.rawValue) \(error.errno.map(String.init) ?? "-")"
        } catch {
            return "\(error)"
        }
    }

    func outcomes(_ backend: Backend) throws -> [String] {
        let fixture = try prepared(backend)
        let io = fixture.io
        let root = fixture.root
        return [
            failure { _ = try io.createExclusive(root + "/f") },
            failure { _ = try io.createExclusive(root + "/l") },
            failure { _ = try io.createExclusive(root + "/missing/x") },
            failure { _ = try io.read(root + "/missing", maxBytes: 10) },
            failure { _ = try io.read(root + "/l", maxBytes: 10) },
            failure { _ = try io.read(root + "/d", maxBytes: 10) },
            failure { _ = try io.read(root + "/f", maxBytes: 2) },
            failure { _ = try io.read(root + "/f/x", maxBytes: 10) },
            failure { _ = try io.list(root + "/missing") },
            failure { _ = try io.list(root + "/f") },
            failure { try io.makeDirectory(root + "/d") },
            failure { try io.makeDirectory(root + "/missing/d") },
            failure { try io.remove(root + "/missing") },
            failure { try io.rename(root + "/missing", to: root + "/y") },
            failure { try io.rename(root + "/f", to: root + "/d") },
            // A write-once path is never replaced (link(2) on a disk); a device file is.
            failure {
                try io.close(try io.createExclusive(root + "/t"))
                try io.rename(root + "/t", to: root + "/f")
            },
            failure {
                try io.makeDirectory(root + "/private")
                try io.makeDirectory(root + "/private/devices")
                try io.close(try io.createExclusive(root + "/private/devices/a.json"))
                try io.close(try io.createExclusive(root + "/u"))
                try io.rename(root + "/u", to: root + "/private/devices/a.json")
            },
            failure { try io.fsyncDirectory(root + "/missing") },
            // A folder is removed only when empty, as rmdir(2) does.
            failure { try io.makeDirectory(root + "/d/inner") },
            failure { try io.remove(root + "/d") },
            failure { try io.remove(root + "/d/inner") },
            failure { try io.remove(root + "/d") },
            "\(String(describing: try io.kind(root + "/missing/x")))",
            "\(String(describing: try io.kind(root + "/f")))",
            "\(String(describing: try io.kind(root + "/l")))",
            "\(try io.list(root).sorted())",
            "\(try io.read(root + "/f", maxBytes: 3))",
        ]
    }

    @Test func theTwinAnswersLikePosix() throws {
        let memory = try outcomes(.memory)
        let disk = try outcomes(.disk)
        for (index, (m, d)) in zip(memory, disk).enumerated() {
            #expect(m == d, "call \(index): memory \(m), disk \(d)")
        }
        #expect(disk[0] == "serverRecordChanged \(EEXIST)")
        #expect(disk[4] == "invalidArguments \(ELOOP)")
        #expect(disk[15] == "serverRecordChanged \(EEXIST)", "a write-once file replaced")
        #expect(disk[16] == "ok", "the device file not replaced")
    }
}
