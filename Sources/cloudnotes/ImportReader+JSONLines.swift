import Foundation
import Glibc
import NotesCore
import Synchronization

extension ImportReader {
    /// A note read from JSON, with the notebook name and the attachments it lists.
    typealias ReadNote = (note: Note, notebookName: String?, attachments: ImportAttachments.Listed?)

    /// The notes of a JSON Lines file, one per line (blank lines, and a line's `\r` of a CRLF
    /// file, left out). The lines are decoded on all cores, as JSON decoding is most of a large
    /// file's read; then made notes in order, so that ids made for notes that give none, and
    /// the first bad line reported ("line 7: …"), are those of a reading line by line.
    static func jsonLines(_ text: String, notebook: String?, now: Date, ids: inout SourceIDs) throws -> [ReadNote] {
        var text = text
        text.makeContiguousUTF8()
        // A native string after `makeContiguousUTF8` always has contiguous storage.
        let decoded = text.utf8.withContiguousStorageIfAvailable { decodeLines($0) } ?? []
        var notes: [ReadNote] = []
        notes.reserveCapacity(decoded.count)
        for (index, result) in decoded.enumerated() {
            do {
                let imported: ImportedNote
                do {
                    imported = try result.get()
                } catch let error as DecodingError {
                    throw CLIError("not a note: \(error.shortDescription)")
                }
                notes.append(
                    (
                        try imported.note(notebook: notebook, now: now, fallbackID: ids.id(for: imported)),
                        imported.notebookName, imported.attachments.map { .json($0) }
                    ))
            } catch let error as CLIError {
                throw CLIError("line \(index + 1): \(error.message)")
            }
        }
        return notes
    }

    /// Each non-blank line of `bytes` decoded as an `ImportedNote`, in order.
    private static func decodeLines(_ bytes: UnsafeBufferPointer<UInt8>) -> [Result<ImportedNote, any Error>] {
        guard let base = bytes.baseAddress else { return [] }
        var found: [Range<Int>] = []
        var start = 0
        while start < bytes.count {
            let newline = memchr(base + start, 0x0A, bytes.count - start)
            var end = newline.map { UnsafeRawPointer($0) - UnsafeRawPointer(base) } ?? bytes.count
            let next = end + 1
            if end > start, base[end - 1] == 0x0D { end -= 1 }
            if end > start { found.append(start..<end) }
            start = next
        }
        let lines = found
        // Chunks of consecutive lines per worker; a small file is decoded on this thread.
        let workers = max(1, min(ProcessInfo.processInfo.activeProcessorCount, lines.count / 512))
        let results = Mutex(
            [Result<ImportedNote, any Error>](repeating: .failure(CLIError("not read")), count: lines.count))
        // Read only, and only while `concurrentPerform` runs, inside the caller's `withContiguousStorage`.
        nonisolated(unsafe) let text = UnsafeMutableRawPointer(mutating: base)
        DispatchQueue.concurrentPerform(iterations: workers) { worker in
            let decoder = JSONDecoder()
            let range = (lines.count * worker / workers)..<(lines.count * (worker + 1) / workers)
            var mine: [Result<ImportedNote, any Error>] = []
            mine.reserveCapacity(range.count)
            for line in lines[range] {
                let data = Data(bytesNoCopy: text + line.lowerBound, count: line.count, deallocator: .none)
                mine.append(Result { try decoder.decode(ImportedNote.self, from: data) })
            }
            results.withLock { results in results.replaceSubrange(range, with: mine) }
        }
        return results.withLock { $0 }
    }
}
