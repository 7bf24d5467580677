import Foundation
import NotesCore
import NotesStore
import Testing

@testable import NotesFiles

/// A pass that changed a few records appends them to the journal instead of rewriting every
/// record (35 MB at 100k notes): the next process reads the same records, a journal cut short
/// by a crash loses only its last line, and a journal left from before a whole write is never
/// replayed over newer records.
@Suite struct MirrorJournalTests {
    static let now: Int64 = 1_900_000_000_000_000_000

    static func record(_ path: String, revision: String = "r1") -> FileRecord {
        FileRecord(
            path: path, revision: revision, inStep: true, sha256: "00",
            stat: FileStat(size: 10, mtimeNs: now, inode: 1), checkedAtNs: now + 10_000_000_000)
    }

    /// A data directory holding a state of `count` records, saved whole.
    private func saved(_ count: Int) throws -> (directory: String, state: MirrorState) {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("journal-\(UUID().uuidString)")
            .path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        var state = MirrorState(folder: "/notes")
        for index in 0..<count { state[id: "n\(index)"] = Self.record("N\(index).md") }
        try state.saveChanges(directory: directory)
        return (directory, try #require(try MirrorState.load(directory: directory)))
    }

    private func path(_ directory: String, _ name: String) -> String { directory + "/" + name }

    /// Bytes added at the journal's end, as a crash or another program would leave them.
    private func append(_ text: String, toJournalIn directory: String) throws {
        let journal = try #require(FileHandle(forWritingAtPath: path(directory, MirrorState.journalName)))
        try journal.seekToEnd()
        try journal.write(contentsOf: Data(text.utf8))
        try journal.close()
    }

    @Test func aFewChangedRecordsAreAppendedNotRewritten() throws {
        var (directory, state) = try saved(200)
        defer { try? FileManager.default.removeItem(atPath: directory) }  // a temporary directory
        let whole = FileStat.of(path(directory, MirrorState.fileName))
        state[id: "n7"] = Self.record("Renamed.md", revision: "r2")
        state[id: "n8"] = nil
        state[id: "new"] = Self.record("New.md")
        try state.saveChanges(directory: directory)
        #expect(FileStat.of(path(directory, MirrorState.fileName)) == whole, "the state file is left as it was")
        let journal = try String(contentsOfFile: path(directory, MirrorState.journalName), encoding: .utf8)
        #expect(journal.split(separator: "\n").count == 4, "a header and one line per changed record")
        let read = try #require(try MirrorState.load(directory: directory))
        #expect(read.files == state.files && read.idAtPath["Renamed.md"] == "n7" && read.files["n8"] == nil)
    }

    @Test func aLineCutShortByACrashLosesOnlyItselfAndTheNextSaveIsWhole() throws {
        var (directory, state) = try saved(50)
        defer { try? FileManager.default.removeItem(atPath: directory) }  // a temporary directory
        state[id: "n1"] = Self.record("One.md", revision: "r2")
        try state.saveChanges(directory: directory)
        try append(#"{"id":"n2","record":{"checke"#, toJournalIn: directory)
        var read = try #require(try MirrorState.load(directory: directory))
        #expect(read.files["n1"]?.path == "One.md" && read.files["n2"]?.path == "N2.md")
        read[id: "n3"] = Self.record("Three.md", revision: "r2")
        try read.saveChanges(directory: directory)
        #expect(!FileManager.default.fileExists(atPath: path(directory, MirrorState.journalName)))
        let again = try #require(try MirrorState.load(directory: directory))
        #expect(again.files == read.files)
    }

    @Test func aJournalOfAnEarlierStateFileIsNotReplayed() throws {
        var (directory, state) = try saved(20)
        defer { try? FileManager.default.removeItem(atPath: directory) }  // a temporary directory
        state[id: "n1"] = Self.record("Old.md", revision: "r2")
        try state.saveChanges(directory: directory)
        let stale = try Data(contentsOf: URL(fileURLWithPath: path(directory, MirrorState.journalName)))
        state[id: "n1"] = Self.record("Newer.md", revision: "r3")
        try state.save(directory: directory)
        // Killed between the whole write and the journal's removal.
        try stale.write(to: URL(fileURLWithPath: path(directory, MirrorState.journalName)))
        let read = try #require(try MirrorState.load(directory: directory))
        #expect(read.files["n1"]?.path == "Newer.md")
    }

    @Test func theJournalIsFoldedIntoTheStateFileAsItGrows() throws {
        var (directory, state) = try saved(100)
        defer { try? FileManager.default.removeItem(atPath: directory) }  // a temporary directory
        var largest: Int64 = 0
        for round in 0..<400 {
            state[id: "n\(round % 100)"] = Self.record("N\(round % 100).md", revision: "r\(round)")
            try state.saveChanges(directory: directory)
            largest = max(largest, FileStat.of(path(directory, MirrorState.journalName))?.size ?? 0)
        }
        let whole = try #require(FileStat.of(path(directory, MirrorState.fileName))).size
        #expect(largest <= max(64 * 1024, whole / 4) + 1024)
        #expect(try MirrorState.load(directory: directory)?.files == state.files)
    }

    @Test func aJournalLineThatDoesNotDecodeIsAnErrorNamingTheFix() throws {
        var (directory, state) = try saved(5)
        defer { try? FileManager.default.removeItem(atPath: directory) }  // a temporary directory
        state[id: "n1"] = Self.record("One.md", revision: "r2")
        try state.saveChanges(directory: directory)
        try append("not json\n", toJournalIn: directory)
        #expect {
            _ = try MirrorState.load(directory: directory)
        } throws: { error in
            "\(error)".contains(MirrorState.journalName) && "\(error)".contains("files on")
        }
    }

    /// Through the mirror: an edit's pass appends, and another process's mirror starts from
    /// the same records (it reads no file again and writes none).
    @Test func anotherProcessReadsTheJournaledRecords() throws {
        let fixture = try MirrorFixture("journal-process")
        defer { fixture.remove() }
        let notes = try (0..<30).map { try fixture.store.create(title: "Note \($0)", body: "body \($0)") }
        let first = try fixture.mirror()
        try first.sync()
        let whole = FileStat.of(fixture.data.path + "/" + MirrorState.fileName)
        try fixture.store.update(notes[4].id) { $0.body = "changed" }
        let report = try first.sync()
        #expect(report.toFolder == ["wrote notes/Note 4.md"])
        #expect(FileStat.of(fixture.data.path + "/" + MirrorState.fileName) == whole)
        let second = try fixture.mirror()
        // What each file is (a stat retaken within its racy window is not saved: `unsaved`).
        func said(_ mirror: FolderMirror) -> [String: [String]] {
            mirror.state.files.mapValues { [$0.path, $0.revision, $0.sha256, "\($0.inStep)"] }
        }
        #expect(said(second) == said(first))
        #expect(try second.sync().isEmpty)
    }
}
