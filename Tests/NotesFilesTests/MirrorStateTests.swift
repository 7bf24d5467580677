import Foundation
import Testing

@testable import NotesFiles

/// The mirror's records know which files a keeper's tick must hash again (read or written less
/// than 2 s before they were checked), without a look at every record at each tick.
@Suite struct MirrorStateTests {
    static let now: Int64 = 1_900_000_000_000_000_000
    static let second: Int64 = 1_000_000_000

    static func record(_ path: String, mtime: Int64, checked: Int64) -> FileRecord {
        FileRecord(
            path: path, revision: "r1", inStep: true, sha256: "00",
            stat: FileStat(size: 10, mtimeNs: mtime, inode: 1), checkedAtNs: checked)
    }

    @Test func theRacilyCleanFilesAreKeptAsRecordsChange() {
        var state = MirrorState(folder: "/notes")
        state[id: "a"] = Self.record("A.md", mtime: Self.now, checked: Self.now + Self.second / 2)
        state[id: "b"] = Self.record("B.md", mtime: Self.now - 10 * Self.second, checked: Self.now)
        state[id: "c"] = Self.record("C.md", mtime: Self.now + 120 * Self.second, checked: Self.now)
        #expect(state.racilyClean == ["a"], "a file dated ahead of the clock is left to the sweep")
        state[id: "a"]?.checkedAtNs = Self.now + 3 * Self.second
        #expect(state.racilyClean.isEmpty, "checked again 2 s after its mtime")
        state[id: "b"]?.stat.mtimeNs = Self.now - Self.second / 2
        #expect(state.racilyClean == ["b"])
        state[id: "b"] = nil
        #expect(state.racilyClean.isEmpty && state.files.count == 2)
    }

    @Test func aSavedStateIsReadWithItsRacilyCleanFilesAndSavedAsBefore() throws {
        // As earlier builds wrote it.
        let saved = """
            {"files":{"a":{"checkedAtNs":\(Self.now + Self.second),"inStep":true,"path":"A.md","revision":"r1",\
            "sha256":"00","stat":{"inode":1,"mtimeNs":\(Self.now),"size":10}},\
            "b":{"checkedAtNs":\(Self.now),"inStep":true,"path":"B.md","revision":"r1","sha256":"00",\
            "stat":{"inode":1,"mtimeNs":\(Self.now - 10 * Self.second),"size":10}}},"folder":"\\/notes"}
            """
        let state = try JSONDecoder().decode(MirrorState.self, from: Data(saved.utf8))
        #expect(state.racilyClean == ["a"] && state.files.count == 2 && state.folder == "/notes")
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        #expect(String(decoding: try encoder.encode(state), as: UTF8.self) == saved)
    }

    @Test func aFileCheckedAfterItsRacyWindowIsNotHashedAgainByTheNextProcess() throws {
        let fixture = try MirrorFixture("state")
        defer { fixture.remove() }
        try fixture.store.create(title: "Plan", body: "first")
        final class Clock { var ns = Int64(Date().timeIntervalSince1970 * 1e9) }
        let clock = Clock()
        func mirror() throws -> FolderMirror { try fixture.mirror { clock.ns } }
        let first = try mirror()
        try first.sync()
        #expect(first.hasRacilyCleanFiles, "just written: its stat cannot tell a save in the same tick")
        clock.ns += 3 * Self.second
        try first.sync()
        #expect(!first.hasRacilyCleanFiles)
        #expect(!(try mirror().hasRacilyCleanFiles), "the next process would hash every file again")
    }
}
