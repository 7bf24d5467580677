import Foundation
import NotesCore
import Testing

/// `FileDescriptorIO`: whole buffers in and out of a file, at the position or an offset, and
/// the errno of a failure.
@Suite("File descriptor I/O: whole buffers, errno on failure")
struct FileDescriptorIOTests {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("fdio-\(UUID().uuidString)").path

    @Test("a new file holds every byte written; a read at an offset gets the rest, and the count at the end")
    func roundTrip() throws {
        defer { unlink(path) }
        let bytes = (0..<100_000).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        #expect(bytes.withUnsafeBytes { FileDescriptorIO.writeNewFile($0, to: path, mode: 0o600) } == 0)
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == Data(bytes))
        let fd = open(path, O_RDWR)
        #expect(fd >= 0)
        defer { close(fd) }
        var buffer = [UInt8](repeating: 0, count: 1000)
        var (count, failure) = buffer.withUnsafeMutableBytes { FileDescriptorIO.readFull(fd, into: $0, at: 99_500) }
        #expect(count == 500 && failure == 0)
        #expect(buffer[..<500] == bytes[99_500...])
        // Written at an offset, read back from the file's position (the start).
        #expect([UInt8]([7, 7, 7]).withUnsafeBytes { FileDescriptorIO.writeAll(fd, $0, at: 10) } == 0)
        (count, failure) = buffer.withUnsafeMutableBytes { FileDescriptorIO.readFull(fd, into: $0) }
        #expect(count == 1000 && failure == 0)
        #expect(buffer[10..<13] == [7, 7, 7] && buffer[13] == bytes[13])
    }

    @Test("a failure is its errno: a missing folder, a descriptor that is not open")
    func failures() {
        #expect(
            [UInt8]([1]).withUnsafeBytes {
                FileDescriptorIO.writeNewFile($0, to: "/nonexistent-dir-\(UUID())/f", mode: 0o600)
            }
                == ENOENT)
        #expect([UInt8]([1]).withUnsafeBytes { FileDescriptorIO.writeAll(-1, $0) } == EBADF)
        var buffer = [UInt8](repeating: 0, count: 4)
        #expect(buffer.withUnsafeMutableBytes { FileDescriptorIO.readFull(-1, into: $0) }.failure == EBADF)
        #expect(FileDescriptorIO.reason(ENOENT) == "No such file or directory")
    }
}
