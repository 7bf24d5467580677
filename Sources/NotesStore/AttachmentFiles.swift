import Foundation
import NotesCore

/// Attachment content in the data directory: `attachments/<first two hex digits>/<sha256>`,
/// one file per content, write-once (SYNC-FORMAT rule 15). Content is streamed in pieces, so a
/// 200 MB file never sits in memory; a file arrives under a temporary name in
/// `attachments/tmp/` and is renamed into place only once its size and SHA-256 check out.
struct AttachmentFiles: Sendable {
    let root: URL

    var temporaryDirectory: String { root.appendingPathComponent("tmp").path }

    func path(_ sha256: String) -> String {
        root.appendingPathComponent(String(sha256.prefix(2))).appendingPathComponent(sha256).path
    }

    func contains(_ sha256: String) -> Bool {
        var info = stat()
        return Attachment.isHash(sha256) && lstat(path(sha256), &info) == 0 && (info.st_mode & S_IFMT) == S_IFREG
    }

    /// Reads the content of `sha256` in pieces of `chunkSize` bytes (the last shorter; an empty
    /// file is one empty piece), checking its SHA-256 at the end; false when it is not here.
    func read(_ sha256: String, chunkSize: Int, _ body: (ArraySlice<UInt8>) throws -> Void) throws -> Bool {
        guard contains(sha256) else { return false }
        let fd = open(path(sha256), O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
        guard fd >= 0 else { throw Self.error("cannot read attachment content \(sha256)") }
        defer { close(fd) }
        var hasher = ContentHasher()
        var buffer = [UInt8](repeating: 0, count: chunkSize)
        var pieces = 0
        while true {
            let filled = try Self.fill(fd, &buffer)
            if filled == 0 && pieces > 0 { break }
            hasher.update(buffer[0..<filled])
            try body(buffer[0..<filled])
            pieces += 1
            if filled < chunkSize { break }
        }
        guard hasher.finalize() == sha256 else {
            throw StoreError(.corrupt, "attachment content \(sha256) in the data directory is damaged")
        }
        return true
    }

    /// Streams content into place: `fill` is called with a function that appends a piece. The
    /// file becomes visible only when `size` and `sha256` match what was written.
    func receive(_ sha256: String, size: Int64, _ fill: ((ArraySlice<UInt8>) throws -> Void) throws -> Void) throws {
        guard Attachment.isHash(sha256) else { throw StoreError(.invalidInput, "\(sha256) is not a SHA-256") }
        if contains(sha256) { return }
        try FileManager.default.createDirectory(
            atPath: temporaryDirectory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        removeStaleTemporaries()
        let temporary = temporaryDirectory + "/\(sha256).\(getpid()).\(UInt32.random(in: 0...UInt32.max)).part"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw Self.error("cannot create \(temporary)") }
        var closed = false
        defer {
            if !closed { close(fd) }
            unlink(temporary)
        }
        var hasher = ContentHasher()
        var written: Int64 = 0
        try fill { piece in
            written += Int64(piece.count)
            guard written <= size else {
                throw StoreError(.invalidInput, "attachment content \(sha256) is longer than its size \(size)")
            }
            hasher.update(piece)
            try Self.writeAll(fd, piece)
        }
        guard written == size, hasher.finalize() == sha256 else {
            throw StoreError(.invalidInput, "attachment content does not match its size and SHA-256 \(sha256)")
        }
        guard fsync(fd) == 0 else { throw Self.error("cannot write \(temporary)") }
        close(fd)
        closed = true
        let final = path(sha256)
        try FileManager.default.createDirectory(
            atPath: (final as NSString).deletingLastPathComponent, withIntermediateDirectories: true,
            attributes: [.posixPermissions: 0o700])
        guard rename(temporary, final) == 0 else { throw Self.error("cannot move attachment content into \(final)") }
    }

    /// Removes what a killed process left half-received: `<sha256>.<pid>.<random>.part` files
    /// whose process is gone (a running one's are kept).
    func removeStaleTemporaries() {
        for name in (try? FileManager.default.contentsOfDirectory(atPath: temporaryDirectory)) ?? [] {
            let parts = name.split(separator: ".")
            guard parts.count == 4, parts[3] == "part", let pid = Int32(parts[1]) else { continue }
            if pid != getpid(), kill(pid, 0) != 0, errno == ESRCH { unlink(temporaryDirectory + "/" + name) }
        }
    }

    /// Copies a file into the store, streaming; returns its size and SHA-256. `maxBytes`: a
    /// larger file is refused before anything is kept.
    func add(fileAt source: String, maxBytes: Int64, followingLinks: Bool = true) throws -> (
        size: Int64, sha256: String
    ) {
        let fd = open(source, O_RDONLY | O_CLOEXEC | (followingLinks ? 0 : O_NOFOLLOW | O_NONBLOCK))
        guard fd >= 0 else {
            let reason = errno == ELOOP && !followingLinks ? "it is a symbolic link" : String(cString: strerror(errno))
            throw StoreError(.invalidInput, "cannot read \(source): \(reason)")
        }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else {
            throw StoreError(.invalidInput, "\(source) is not a regular file")
        }
        guard Int64(info.st_size) <= maxBytes else {
            throw StoreError(
                .invalidInput, "\(source) is \(info.st_size) bytes, over the \(maxBytes)-byte limit (maxNoteBytes)")
        }
        // First pass: the hash (content already here is not copied again); second: the copy.
        var hasher = ContentHasher()
        var buffer = [UInt8](repeating: 0, count: 1 << 20)
        var size: Int64 = 0
        while true {
            let filled = try Self.fill(fd, &buffer, source: source)
            hasher.update(buffer[0..<filled])
            size += Int64(filled)
            guard size <= maxBytes else {
                throw StoreError(.invalidInput, "\(source) grew over the \(maxBytes)-byte limit (maxNoteBytes)")
            }
            if filled < buffer.count { break }
        }
        let sha256 = hasher.finalize()
        guard lseek(fd, 0, SEEK_SET) == 0 else { throw Self.error("cannot read \(source)") }
        try receive(sha256, size: size) { append in
            var left = size
            while left > 0 {
                let filled = try Self.fill(fd, &buffer, source: source)
                guard filled > 0 else { break }
                try append(buffer[0..<min(filled, Int(left))])
                left -= Int64(filled)
            }
        }
        return (size, sha256)
    }

    /// Reads until `buffer` is full or the file ends; the count read.
    static func fill(_ fd: Int32, _ buffer: inout [UInt8], source: String = "attachment content") throws -> Int {
        let (filled, failure) = buffer.withUnsafeMutableBytes { FileDescriptorIO.readFull(fd, into: $0) }
        guard failure == 0 else {
            throw StoreError(.io, "cannot read \(source): \(FileDescriptorIO.reason(failure))")
        }
        return filled
    }

    static func writeAll(_ fd: Int32, _ piece: ArraySlice<UInt8>) throws {
        let failure = piece.withUnsafeBytes { FileDescriptorIO.writeAll(fd, $0) }
        guard failure == 0 else {
            throw StoreError(.io, "cannot write attachment content: \(FileDescriptorIO.reason(failure))")
        }
    }

    static func error(_ what: String) -> StoreError {
        StoreError(.io, "\(what): \(String(cString: strerror(errno)))")
    }
}
