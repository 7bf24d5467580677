import Foundation
import Glibc
import Testing

@testable import CloudFolder

/// The Glibc side of the FileIO seam, in a real temp directory (ARCHITECTURE §7).
@Suite struct PosixFileIOTests {
    let io = PosixFileIO()

    @Test func createExclusiveMakesA0600FileAndRefusesAnExistingPath() throws {
        let fixture = FolderFixture(.disk)
        let path = fixture.root + "/f"
        let file = try io.createExclusive(path)
        try io.write(file, Array("hi".utf8))
        try io.fsync(file)
        try io.close(file)
        let mode = try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int
        #expect(mode == 0o600)
        #expect(try io.read(path, maxBytes: 10) == Array("hi".utf8))
        #expect {
            try io.createExclusive(path)
        } throws: { ($0 as? CloudError)?.code == .serverRecordChanged }
    }

    @Test func createExclusiveNeverWritesThroughAPlantedSymlink() throws {
        let fixture = FolderFixture(.disk)
        let target = fixture.root + "/target"
        try fixture.plantSymlink(fixture.root + "/link", to: target)
        #expect(throws: CloudError.self) { try io.createExclusive(fixture.root + "/link") }
        #expect(!FileManager.default.fileExists(atPath: target))
    }

    @Test func readRefusesAFileOverTheCapAndADirectory() throws {
        let fixture = FolderFixture(.disk)
        try fixture.plant(fixture.root + "/f", Array(repeating: 1, count: 11))
        #expect(try io.read(fixture.root + "/f", maxBytes: 11).count == 11)
        #expect {
            try io.read(fixture.root + "/f", maxBytes: 10)
        } throws: { ($0 as? CloudError)?.code == .limitExceeded }
        #expect {
            try io.read(fixture.root, maxBytes: 10)
        } throws: { ($0 as? CloudError)?.code == .invalidArguments }
        #expect {
            try io.read(fixture.root + "/missing", maxBytes: 10)
        } throws: { ($0 as? CloudError)?.code == .unknownItem }
    }

    @Test func listKindRenameAndRemove() throws {
        let fixture = FolderFixture(.disk)
        try fixture.plant(fixture.root + "/a", [1, 2, 3])
        try io.makeDirectory(fixture.root + "/d")
        try fixture.plantSymlink(fixture.root + "/l", to: "/etc/passwd")
        #expect(try io.list(fixture.root).sorted() == ["a", "d", "l"])
        #expect(try io.kind(fixture.root + "/a") == .regular(size: 3))
        #expect(try io.kind(fixture.root + "/d") == .directory)
        #expect(try io.kind(fixture.root + "/l") == .symlink)
        #expect(try io.kind(fixture.root + "/none") == nil)
        try io.rename(fixture.root + "/a", to: fixture.root + "/b")
        try io.fsyncDirectory(fixture.root)
        try io.remove(fixture.root + "/b")
        #expect(try io.list(fixture.root).sorted() == ["d", "l"])
        #expect {
            try io.makeDirectory(fixture.root + "/d")
        } throws: { ($0 as? CloudError)?.code == .serverRecordChanged }
    }
}
