import Foundation
import Glibc
import NotesCore

/// The records a pass changed, appended to `notes-folder.journal` (JSON Lines) instead of
/// rewriting the whole state (`MirrorState.saveChanges`). The first line names the state file's
/// generation it continues (`{"generation":N}`); each other line is one note's record, or its
/// removal (`{"id":…}` without a record). Appended with one write and fsynced; a write that
/// fails is cut off again, so only a crash can leave a line cut short, and only the last.
enum MirrorJournal {
    struct Line: Codable {
        var id: String
        var record: FileRecord?
    }

    private struct Header: Codable {
        var generation: UInt64
    }

    /// `files` with the journal's records over them, and whether its last line was cut short
    /// (left out); nil when the journal continues another generation than `generation`, or is
    /// cut short before its first line ends (to be replaced whole). A whole line that does not
    /// decode is an error: records would be lost.
    static func replay(_ journal: Data, onto files: [String: FileRecord], generation: UInt64?) throws -> (
        files: [String: FileRecord], cut: Bool
    )? {
        let bytes = [UInt8](journal)
        let newline = UInt8(ascii: "\n")
        // A header cut short or of another generation: the state is written whole next.
        guard let firstEnd = bytes.firstIndex(of: newline), let generation,
            let header = try? JSONDecoder().decode(Header.self, from: Data(bytes[..<firstEnd])),
            header.generation == generation
        else { return nil }
        var files = files
        let decoder = JSONDecoder()
        var start = firstEnd + 1
        while start < bytes.count {
            guard let end = bytes[start...].firstIndex(of: newline) else {
                // The last line cut short by a crash: the records before it stand.
                return (files, true)
            }
            // A whole line that does not decode: said in the error below.
            guard let line = try? decoder.decode(Line.self, from: Data(bytes[start..<end])) else {
                throw MirrorError(
                    "cannot read the notes folder's journal (line \(lineNumber(bytes, start))); remove "
                        + "\(MirrorState.fileName) and \(MirrorState.journalName) from the data directory and run "
                        + "'cloudnotes files on DIR' again")
            }
            files[line.id] = line.record
            start = end + 1
        }
        return (files, false)
    }

    private static func lineNumber(_ bytes: [UInt8], _ offset: Int) -> Int {
        bytes[..<offset].count { $0 == UInt8(ascii: "\n") } + 1
    }

    /// Appends `lines` to the journal at `path` (0600), with the header first when there is no
    /// journal yet, in one write, fsynced. On failure the journal is cut back to what it held.
    static func append(_ lines: [Line], generation: UInt64, to path: String) throws {
        guard !lines.isEmpty else { return }
        let fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw MirrorError("cannot write \(path): \(FileDescriptorIO.reason(errno))") }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else {
            throw MirrorError("cannot write \(path): \(FileDescriptorIO.reason(errno))")
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        var data = Data()
        if info.st_size == 0 { data += try encoder.encode(Header(generation: generation)) + [UInt8(ascii: "\n")] }
        for line in lines { data += try encoder.encode(line) + [UInt8(ascii: "\n")] }
        var failure = data.withUnsafeBytes { FileDescriptorIO.writeAll(fd, $0) }
        if failure == 0, fsync(fd) != 0 { failure = errno }
        guard failure == 0 else {
            // A line cut short in the middle would make every later one unreadable.
            _ = ftruncate(fd, info.st_size)
            throw MirrorError("cannot write \(path): \(FileDescriptorIO.reason(failure))")
        }
    }
}
