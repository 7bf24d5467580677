import Foundation

/// Whole-buffer reads and writes on a file descriptor: the loop every caller of read(2) and
/// write(2) needs, a short count continued and EINTR retried. Each returns the `errno` that
/// stopped it (0: done), for the caller to say in its own error type.
public enum FileDescriptorIO {
    /// Writes all of `bytes` at the file's position, or at `offset` (pwrite(2)).
    public static func writeAll(_ fd: Int32, _ bytes: UnsafeRawBufferPointer, at offset: Int64? = nil) -> Int32 {
        guard let base = bytes.baseAddress else { return 0 }  // nothing to write
        let (done, failure) = whole(bytes.count) { done in
            offset.map { pwrite(fd, base + done, bytes.count - done, off_t($0) + off_t(done)) }
                ?? write(fd, base + done, bytes.count - done)
        }
        return failure != 0 || done == bytes.count ? failure : EIO
    }

    /// Reads until `buffer` is full or the file ends, from the file's position or from `offset`
    /// (pread(2)): the count read, and the `errno` that stopped it (0: full, or the end).
    public static func readFull(
        _ fd: Int32, into buffer: UnsafeMutableRawBufferPointer, at offset: Int64? = nil
    ) -> (count: Int, failure: Int32) {
        guard let base = buffer.baseAddress else { return (0, 0) }  // no room
        return whole(buffer.count) { done in
            offset.map { pread(fd, base + done, buffer.count - done, off_t($0) + off_t(done)) }
                ?? read(fd, base + done, buffer.count - done)
        }
    }

    /// Calls `step` with the count done so far until `total` is done, a step does nothing (the
    /// end of a file) or fails with other than EINTR.
    private static func whole(_ total: Int, _ step: (Int) -> Int) -> (count: Int, failure: Int32) {
        var done = 0
        while done < total {
            let count = step(done)
            if count < 0 {
                if errno == EINTR { continue }
                return (done, errno)
            }
            if count == 0 { break }
            done += count
        }
        return (done, 0)
    }

    /// Creates (or truncates) the file at `path` with `mode` and writes `bytes` to it; not
    /// fsynced. 0, or the `errno` of the step that failed.
    public static func writeNewFile(_ bytes: UnsafeRawBufferPointer, to path: String, mode: mode_t) -> Int32 {
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, mode)
        guard fd >= 0 else { return errno }
        let failure = writeAll(fd, bytes)
        return close(fd) != 0 && failure == 0 ? errno : failure
    }

    /// The sentence for an `errno`, as strerror(3) gives it.
    public static func reason(_ failure: Int32) -> String { String(cString: strerror(failure)) }
}
