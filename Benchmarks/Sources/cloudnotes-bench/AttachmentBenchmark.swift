import CloudFolder
import Foundation
import NotesCore
import NotesStore
import NotesSync

// The store keeps attachment content; the folder streams it (SYNC-FORMAT rule 15).
extension NoteStore: AttachmentContent {}

/// A 200 MB attachment from device A to device B through a folder, plain and encrypted
/// (issue 13): the time to attach it, A's sync (upload), B's sync (download), throughput, and
/// the peak RSS each step adds over the process's resident size when it starts (the high-water
/// mark is reset before each step through /proc/self/clear_refs).
struct AttachmentBenchmark {
    let work: String
    var megabytes = 200

    func run() async throws {
        print("\n== a \(megabytes) MB attachment from A to B ==")
        let file = work + "/attachment-\(megabytes)mb.bin"
        try FileManager.default.createDirectory(atPath: work, withIntermediateDirectories: true)
        try Self.randomFile(file, bytes: megabytes * 1_048_576)
        for encrypted in [false, true] {
            let folder = try BenchFolder(
                directory: "\(work)/attachment-\(encrypted ? "encrypted" : "plain")", encrypted: encrypted)
            let (a, engineA) = try folder.device("a")
            let (b, engineB) = try folder.device("b")
            _ = await engineA.syncNow()
            _ = await engineB.syncNow()
            let note = try a.create(title: "with a large file", body: "")
            var attachment: Attachment?
            let attach = try Self.measure {
                let added = try a.addAttachmentContent(fromFile: file, name: "large.bin", maxBytes: 1 << 30)
                try a.attach(note.id, [added])
                attachment = added
            }
            var sent = SyncSummary()
            let upload = try await Self.measureAsync { sent = await engineA.syncNow() }
            var received = SyncSummary()
            let download = try await Self.measureAsync { received = await engineB.syncNow() }
            guard let attachment, sent.error == nil, received.error == nil,
                try b.note(note.id)?.attachments == [attachment], b.hasAttachmentContent(sha256: attachment.sha256)
            else {
                print("FAILED: B did not receive the attachment (\(String(describing: sent.error ?? received.error)))")
                exit(1)
            }
            let mb = Double(megabytes)
            let kind = encrypted ? "encrypted" : "plain"
            print(
                "\(megabytes) MB, \(kind): attach \(Stats.f(attach.seconds, 2)) s (\(attach.rss)); "
                    + "A's sync \(Stats.f(upload.seconds, 2)) s = \(Stats.f(mb / upload.seconds)) MB/s (\(upload.rss)); "
                    + "B's sync \(Stats.f(download.seconds, 2)) s = \(Stats.f(mb / download.seconds)) MB/s (\(download.rss))"
            )
            try? FileManager.default.removeItem(atPath: folder.directory)
        }
        try? FileManager.default.removeItem(atPath: file)
    }

    struct Measured {
        var seconds: Double
        /// The high-water RSS during the step minus the RSS when it began, in MB (nil: the
        /// kernel refused to reset the high-water mark, so it was not measured).
        var peakMB: Int?

        var rss: String { peakMB.map { "+\($0) MB RSS" } ?? "RSS n/a" }
    }

    static func measure(_ body: () throws -> Void) throws -> Measured {
        let before = resetPeak()
        let ms = try Stats.time(body)
        return Measured(seconds: ms / 1000, peakMB: peak(since: before))
    }

    static func measureAsync(_ body: () async throws -> Void) async throws -> Measured {
        let before = resetPeak()
        let start = Stats.now()
        try await body()
        return Measured(seconds: Stats.ms(start, Stats.now()) / 1000, peakMB: peak(since: before))
    }

    static func peak(since before: Int?) -> Int? { before.map { max(0, (status("VmHWM:") - $0) / 1024) } }

    /// Resets the process's peak RSS to its current RSS and returns that (KB); nil when the
    /// kernel refuses the reset.
    static func resetPeak() -> Int? {
        guard (try? "5".write(toFile: "/proc/self/clear_refs", atomically: false, encoding: .utf8)) != nil else {
            return nil
        }
        return status("VmRSS:")
    }

    /// A `/proc/self/status` field in KB.
    static func status(_ field: String) -> Int { Machine.statusKB(field) }

    /// `bytes` random bytes (every chunk different, so nothing dedups) written a MB at a time.
    static func randomFile(_ path: String, bytes: Int) throws {
        _ = FileManager.default.createFile(atPath: path, contents: nil)
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        defer { try? handle.close() }
        guard let source = FileHandle(forReadingAtPath: "/dev/urandom") else { throw CocoaError(.fileReadUnknown) }
        defer { try? source.close() }
        var left = bytes
        while left > 0 {
            let piece = source.readData(ofLength: min(left, 1 << 20))
            try handle.write(contentsOf: piece)
            left -= piece.count
        }
    }
}
