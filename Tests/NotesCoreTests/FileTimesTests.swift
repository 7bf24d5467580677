import Foundation
import NotesTestSupport
import Testing

@testable import NotesCore

/// `FileTimes.modified` (one lstat) gives the time FileManager's attributes give (the oracle):
/// an import takes a file's date from it, and the next import of the same file must find the same.
@Suite struct FileTimesTests {
    @Test func theModificationTimeIsTheOneFileManagerReads() throws {
        let seed = SeededRandom.seed(default: 2231)
        var rng = SeededRandom(seed: seed)
        let file = FileManager.default.temporaryDirectory.appendingPathComponent(
            "cloudnotes-times-\(UUID().uuidString)")
        try Data("note".utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        for _ in 0..<200 {
            // Seconds from 1970 to 2100 and any nanosecond, as file systems keep them.
            let seconds = Int.random(in: 0...4_102_444_800, using: &rng)
            let nanoseconds = Int.random(in: 0..<1_000_000_000, using: &rng)
            let times = [
                timespec(tv_sec: seconds, tv_nsec: nanoseconds), timespec(tv_sec: seconds, tv_nsec: nanoseconds),
            ]
            try #require(utimensat(AT_FDCWD, file.path, times, 0) == 0)
            let expected = try FileManager.default.attributesOfItem(atPath: file.path)[.modificationDate] as? Date
            #expect(FileTimes.modified(file.path) == expected, "seed \(seed): \(seconds).\(nanoseconds)")
        }
        #expect(FileTimes.modified(file.path + "-missing") == nil)
        // A symbolic link's own time, as FileManager reads it.
        let link = file.appendingPathExtension("link")
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: file)
        defer { try? FileManager.default.removeItem(at: link) }
        let linkTime = try FileManager.default.attributesOfItem(atPath: link.path)[.modificationDate] as? Date
        #expect(FileTimes.modified(link.path) == linkTime)
        #expect(FileTimes.modified(link.path) != FileTimes.modified(file.path))
    }
}
