import Foundation
import NotesTestSupport
import Testing

/// `cloudnotes sync` into a cloud folder that fills up (issue 21 item 13): what fits still goes
/// out, what does not waits with its reason, and removing what did not fit releases the rest.
@Suite("Sync from the command line: a full cloud folder")
struct SyncFullCloudCLITests {
    @Test(
        "an attachment too big for the space left waits alone, leaves no partial file, and detach or purge ends the wait (tmpfs)",
        .enabled(if: Tmpfs.isAvailable, "mounts a tmpfs: needs root (CI runs as root)"),
        arguments: [Release.detach, .purge])
    func bigAttachmentWaitsAlone(_ release: Release) throws {
        let runner = try CLIRunner()
        defer { runner.cleanUp() }
        let disk = try Tmpfs(runner, name: "cloud-disk", size: "3m")
        defer { disk.unmount() }
        let (cloud, a, b) = try runner.devicesSharingACloudFolder(cloud: disk.path.appendingPathComponent("cloud").path)
        let big = try runner.cn(at: a, "add", "Big one", "--body", "with a large file")
        let bigID = big.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(try runner.cn(at: a, "sync").status == 0)
        let photo = try AttachmentCLITests.randomFile(runner, "photo.bin", bytes: 5_000_000)
        let attached = try runner.cn(at: a, "attach", bigID, photo.path)
        #expect(attached.status == 0, "\(attached.stderr)")
        #expect(try runner.cn(at: a, "add", "Small after", "--body", "fits easily").status == 0)

        let sent = try runner.cn(at: a, "sync")
        #expect(sent.stderr.contains("the cloud folder is full"), "\(sent.stderr)")
        #expect(sent.stderr.contains(String(bigID.prefix(8))), "the waiting note is named: \(sent.stderr)")
        #expect(sent.stdout.contains("pending 1") || sent.stdout.contains("pending 2"), "\(sent.stdout)")
        let status = try runner.cn(at: a, "status")
        #expect(status.stdout.contains("held       \(bigID)"), "\(status.stdout)")
        #expect(status.stdout.contains("the cloud folder is full"), "\(status.stdout)")
        // No temp file, and no chunk of the attachment that did not fit, is left taking room.
        let leftovers = Self.files(under: cloud).filter { $0.contains(".tmp-") }
        #expect(leftovers.isEmpty, "\(leftovers)")
        let chunks = Self.files(under: cloud + "/private/assets").filter { $0.contains("/") }
        #expect(chunks.isEmpty, "\(chunks)")
        let received = try runner.cn(at: b, "sync")
        #expect(received.status == 0, "\(received.stderr)")
        #expect(try runner.cn(at: b, "show", "Small after").stdout == "fits easily")
        #expect(try runner.cn(at: b, "show", "Big one").stdout == "with a large file")

        switch release {
        case .detach:
            let detached = try runner.cn(at: a, "detach", bigID, "photo.bin")
            #expect(detached.status == 0, "\(detached.stderr)")
        case .purge:
            // In the trash the note keeps its attachment, so it still waits: said at rm and sync.
            let removed = try runner.cn(at: a, "rm", bigID)
            #expect(removed.status == 0, "\(removed.stderr)")
            #expect(removed.stderr.contains("`cloudnotes purge \(bigID)`"), "\(removed.stderr)")
            #expect(try runner.cn(at: a, "add", "Small after rm", "--body", "fits too").status == 0)
            let stillWaiting = try runner.cn(at: a, "sync")
            #expect(stillWaiting.stderr.contains("in the trash, waits on this device"), "\(stillWaiting.stderr)")
            #expect(try runner.cn(at: b, "sync").status == 0)
            #expect(try runner.cn(at: b, "show", "Small after rm").stdout == "fits too")
            let purged = try runner.cn(at: a, "purge", bigID)
            #expect(purged.status == 0, "\(purged.stderr)")
        }
        let again = try runner.cn(at: a, "sync")
        #expect(again.status == 0, "\(again.stderr)")
        #expect(!again.stderr.contains("full"), "\(again.stderr)")
        #expect(again.stdout.contains("pending 0"), "\(again.stdout)")
        #expect(!(try runner.cn(at: a, "status")).stdout.contains("held"))
        #expect(try runner.cn(at: b, "sync").status == 0)
        switch release {
        case .detach:
            let listed = try runner.cn(at: b, "attachments", bigID)
            #expect(listed.status == 0 && !listed.stdout.contains("photo.bin"), "\(listed.stdout)")
        case .purge:
            #expect(try runner.cn(at: b, "show", "Big one").status == 1)
        }
    }

    /// How the note that did not fit is let go.
    enum Release: Sendable, CustomTestStringConvertible {
        case detach, purge
        var testDescription: String { self == .detach ? "detach" : "rm and purge" }
    }

    static func files(under root: String) -> [String] {
        (FileManager.default.enumerator(atPath: root)?.allObjects as? [String] ?? [])
    }
}
