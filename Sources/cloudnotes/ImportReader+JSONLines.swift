import Foundation
import Glibc
import NotesCore
import NotesStore
import Synchronization

extension ImportReader {
    /// A note read from JSON, with the notebook name and the attachments it lists.
    typealias ReadNote = (note: Note, notebookName: String?, attachments: ImportAttachments.Listed?)

    /// How many bytes of a JSON Lines file are read and decoded at a time.
    static let chunkBytes = 4 << 20

    /// Reads a JSON Lines file as a stream, one note per line (blank lines, and a line's `\r`
    /// of a CRLF file, left out): `chunkBytes` at a time, each chunk's lines decoded on all
    /// cores (JSON decoding is most of a large file's read), then made notes in line order and
    /// handed to `each` with the line's byte range in the file. Nothing of the file is kept
    /// here, so a file of any size is read in the memory of a chunk.
    ///
    /// Ids made for notes that give none, and the error, are those of reading the file whole
    /// and line by line. The file is refused for the first of: bytes that are not UTF-8, a NUL
    /// byte, a bad line ("line 7: …", counting the lines that are not blank), an id given
    /// twice, a note with an invalid notebook or a NUL escape. `each` may have been called for
    /// notes before that: the caller drops what it kept of the file.
    /// - Parameter more: appends the file's next bytes to its argument; false at the end.
    static func scanLines(
        path: String, source: String, notebook: String?, now: Date, more: (inout [UInt8]) throws -> Bool,
        each: (ReadNote, Range<Int>) throws -> Void
    ) throws {
        var ids = SourceIDs(source: source)
        var firstIndex: [UUID: Int] = [:]
        var nulOffset: Int?
        var lineError: CLIError?
        var idError: CLIError?
        var noteError: CLIError?
        // Lines that are not blank so far.
        var index = 0
        // The file's bytes from `bufferStart` not yet taken.
        var buffer: [UInt8] = []
        var bufferStart = 0
        var atEnd = false
        while !atEnd {
            atEnd = try !more(&buffer)
            // Whole lines only: up to the last newline, or all of it at the end.
            guard let end = atEnd ? buffer.count : buffer.lastIndex(of: 0x0A).map({ $0 + 1 }) else { continue }
            try buffer.withUnsafeBufferPointer { all in
                let chunk = UnsafeBufferPointer(rebasing: all[..<end])
                // A chunk ends at a newline, which is never inside a character.
                if String(validating: chunk, as: UTF8.self) == nil {
                    let offset = bufferStart + (Input.firstInvalidUTF8Offset(Data(chunk)) ?? 0)
                    throw CLIError("\(path) is not valid UTF-8 (first bad byte at offset \(offset)); nothing was saved")
                }
                if nulOffset == nil, let base = chunk.baseAddress, let nul = memchr(base, 0, chunk.count) {
                    nulOffset = bufferStart + UnsafeRawPointer(base).distance(to: UnsafeRawPointer(nul))
                }
                // After a refusal the rest is only checked for what is refused before it.
                guard nulOffset == nil, lineError == nil else { return }
                let lines = lineRanges(chunk)
                for (line, result) in zip(lines, decode(lines, in: chunk)) {
                    index += 1
                    let read: ReadNote
                    do {
                        let imported: ImportedNote
                        do {
                            imported = try result.get()
                        } catch let error as DecodingError {
                            throw CLIError("not a note: \(error.shortDescription)")
                        }
                        read = (
                            try imported.note(notebook: notebook, now: now, fallbackID: ids.id(for: imported)),
                            imported.notebookName, imported.attachments.map { .json($0) }
                        )
                    } catch let error as CLIError {
                        lineError = CLIError("line \(index): \(error.message)")
                        return
                    }
                    if let earlier = firstIndex[read.note.id] {
                        if idError == nil { idError = Self.twice(read.note, earlier + 1, index) }
                    } else {
                        firstIndex[read.note.id] = index - 1
                    }
                    if noteError == nil {
                        do { try check(read.note) } catch let error as CLIError { noteError = error }
                    }
                    try each(read, (bufferStart + line.lowerBound)..<(bufferStart + line.upperBound))
                }
            }
            buffer.removeFirst(end)
            bufferStart += end
        }
        if let nulOffset {
            throw CLIError(
                "\(path) contains a NUL byte (at offset \(nulOffset)), which a note cannot hold; nothing was saved")
        }
        if let error = lineError ?? idError ?? noteError { throw error }
    }

    /// The notes of a JSON Lines file's text (one that is read whole: not a regular file).
    static func jsonLines(_ text: String, path: String, source: String, notebook: String?, now: Date) throws
        -> [ReadNote]
    {
        var notes: [ReadNote] = []
        var given = false
        try scanLines(
            path: path, source: source, notebook: notebook, now: now,
            more: { buffer in
                defer { given = true }
                if !given { buffer += text.utf8 }
                return !given
            },
            each: { note, _ in notes.append(note) })
        return notes
    }

    /// The error of one id given to two notes of a file (counted from 1).
    static func twice(_ note: Note, _ earlier: Int, _ later: Int) -> CLIError {
        CLIError("notes \(earlier) and \(later) have the same id \(note.idString); give each note its own id")
    }

    /// The byte ranges of the lines of `bytes` that are not blank, without their `\r`.
    private static func lineRanges(_ bytes: UnsafeBufferPointer<UInt8>) -> [Range<Int>] {
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
        return found
    }

    /// Each line of `bytes` decoded as an `ImportedNote`, in order, in chunks of consecutive
    /// lines on all cores (a few lines on this thread).
    private static func decode(_ lines: [Range<Int>], in bytes: UnsafeBufferPointer<UInt8>) -> [Result<
        ImportedNote, any Error
    >] {
        guard let base = bytes.baseAddress else { return [] }
        let workers = max(1, min(ProcessInfo.processInfo.activeProcessorCount, lines.count / 512))
        let results = Mutex(
            [Result<ImportedNote, any Error>](repeating: .failure(CLIError("not read")), count: lines.count))
        // Read only, and only while `concurrentPerform` runs, inside the caller's `withUnsafeBufferPointer`.
        nonisolated(unsafe) let text = UnsafeMutableRawPointer(mutating: base)
        DispatchQueue.concurrentPerform(iterations: workers) { worker in
            let decoder = JSONDecoder()
            let range = (lines.count * worker / workers)..<(lines.count * (worker + 1) / workers)
            var mine: [Result<ImportedNote, any Error>] = []
            mine.reserveCapacity(range.count)
            for line in lines[range] {
                let data = Data(bytesNoCopy: text + line.lowerBound, count: line.count, deallocator: .none)
                // The strict parser's reading when it gives the decoder's note; else the decoder.
                if let note = ImportedNote.parsed(data) {
                    mine.append(.success(note))
                    continue
                }
                mine.append(Result { try decoder.decode(ImportedNote.self, from: data) })
            }
            results.withLock { results in results.replaceSubrange(range, with: mine) }
        }
        return results.withLock { $0 }
    }

    /// Reads a JSON Lines file found by an import as a stream (`scanLines`), from its open
    /// descriptor.
    static func scanLines(
        _ file: ImportScan.File, descriptor: Int32, now: Date, each: (ReadNote, Range<Int>) throws -> Void
    ) throws {
        // A note without dates takes the file's: the same on the next import of that file.
        let modified = FileTimes.modified(file.path) ?? now
        var chunk = [UInt8](repeating: 0, count: chunkBytes)
        try scanLines(
            path: file.path, source: realPath(file.path), notebook: file.notebook, now: modified,
            more: { buffer in
                var got = 0
                var failure: Int32 = 0
                repeat {
                    got = chunk.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
                    failure = got < 0 ? errno : 0
                } while failure == EINTR
                guard got >= 0 else {
                    throw CLIError("cannot read \(file.path): \(String(cString: strerror(failure)))")
                }
                buffer += chunk[..<got]
                return got > 0
            },
            each: each)
    }
}
