import Foundation
import Glibc
import NotesCore
import Synchronization

/// The notes of one source of an import between its two passes (issue 27): the first reads and
/// checks every file, writes each note it keeps to a scratch file in the data directory (no
/// name: it is unlinked as soon as it is made, so a killed import leaves nothing) and keeps
/// per note only its date and where it lies; the second (`notes(_:)`, which the store calls a
/// chunk of 1,000 at a time) reads them back oldest first while the chunk before is written. So
/// memory holds a chunk or two, not the whole import, and nothing is parsed twice.
struct ImportPlan: Sendable {
    /// Where one note lies in the scratch file.
    struct Entry: Sendable {
        var modifiedAt: Date
        var offset: Int
        var length: Int
    }

    private let descriptor: Int32
    private let path: String
    private(set) var entries: [Entry] = []
    /// Encoded notes not yet written, and the file's length with them.
    private var pending: [UInt8] = []
    private var written = 0

    /// Makes the scratch file in `directory` (the data directory: the disk the store is on,
    /// private to the user).
    init(directory: String) throws {
        var template = Array((directory + "/.import-XXXXXX").utf8CString)
        let descriptor = template.withUnsafeMutableBufferPointer { buffer in
            buffer.baseAddress.map { mkstemp($0) } ?? -1
        }
        let path = String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
        guard descriptor >= 0 else {
            throw CLIError("cannot make the import's scratch file in \(directory): \(String(cString: strerror(errno)))")
        }
        unlink(path)
        self.descriptor = descriptor
        self.path = path
    }

    /// Closes the scratch file, which then goes.
    func close() { _ = Glibc.close(descriptor) }

    var count: Int { entries.count }

    /// Writes `note` to the scratch file; the entry to give `append` for it.
    mutating func keep(_ note: Note) throws -> Entry {
        let start = written + pending.count
        NoteCoding.encode(note, into: &pending)
        if pending.count >= 1 << 20 { try flush() }
        return Entry(modifiedAt: note.modifiedAt, offset: start, length: written + pending.count - start)
    }

    mutating func append(_ more: some Sequence<Entry>) { entries += more }

    /// Oldest first: search rowids then ascend, and the search text grows at its end. The same
    /// sort of the same dates in the same order as the notes themselves were sorted before.
    mutating func sort() throws {
        try flush()
        entries.sort { $0.modifiedAt < $1.modifiedAt }
    }

    private mutating func flush() throws {
        let failure = pending.withUnsafeBytes { FileDescriptorIO.writeAll(descriptor, $0, at: Int64(written)) }
        guard failure == 0 else {
            throw CLIError("cannot write the import's scratch file: \(FileDescriptorIO.reason(failure))")
        }
        written += pending.count
        pending.removeAll(keepingCapacity: true)
    }

    /// The notes at `range` of the sorted entries, read back, in parts on all cores.
    func notes(_ range: Range<Int>) throws -> [Note] {
        let workers = max(1, min(ProcessInfo.processInfo.activeProcessorCount, range.count / 256))
        let parts = Mutex([Result<[Note], any Error>](repeating: .success([]), count: workers))
        DispatchQueue.concurrentPerform(iterations: workers) { worker in
            let start = range.lowerBound + range.count * worker / workers
            let part = start..<(range.lowerBound + range.count * (worker + 1) / workers)
            let result = Result { try readBack(part) }
            parts.withLock { $0[worker] = result }
        }
        return try parts.withLock { $0 }.flatMap { try $0.get() }
    }

    /// `notes(_:)` of one part, on this thread.
    private func readBack(_ range: Range<Int>) throws -> [Note] {
        var buffer: [UInt8] = []
        return try entries[range].map { entry in
            if buffer.count < entry.length { buffer = [UInt8](repeating: 0, count: entry.length) }
            let (got, failure) = buffer.withUnsafeMutableBytes {
                FileDescriptorIO.readFull(
                    descriptor, into: UnsafeMutableRawBufferPointer(rebasing: $0[..<entry.length]),
                    at: Int64(entry.offset))
            }
            guard got == entry.length else {
                let reason = failure == 0 ? "it ends early" : FileDescriptorIO.reason(failure)
                throw CLIError("cannot read the import's scratch file: \(reason)")
            }
            guard
                let note = buffer.withUnsafeBytes({
                    NoteCoding.decode(UnsafeRawBufferPointer(rebasing: $0[..<entry.length]))
                })
            else { throw CLIError("the import's scratch file \(path) does not read back") }
            return note
        }
    }
}
