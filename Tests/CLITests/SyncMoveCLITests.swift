import Foundation
import NotesTestSupport
import Testing

/// `cloudnotes sync move`: a folder to a bucket and back, the other device following the
/// `moved.json` each old place keeps (SYNC-FORMAT "Moving").
@Suite("sync move between a folder and S3")
struct SyncMoveCLITests {
    /// Every file under `root` (relative path → bytes).
    static func files(_ root: URL) -> [String: Data] {
        var result: [String: Data] = [:]
        for case let path as String in FileManager.default.enumerator(atPath: root.path) ?? .init() {
            let url = root.appendingPathComponent(path)
            var isFolder: ObjCBool = false
            if FileManager.default.fileExists(atPath: url.path, isDirectory: &isFolder), !isFolder.boolValue {
                result[path] = FileManager.default.contents(atPath: url.path)
            }
        }
        return result
    }

    @Test(
        "folder → s3:// → folder: A moves, B follows each moved.json, every note arrives, the old places keep their files"
    )
    func folderToS3AndBack() async throws {
        let server = try await SeaweedServer.shared.endpoint()
        let runner = try CLIRunner()
        defer { runner.cleanUp() }
        let (a, b) = (runner.device("a"), runner.device("b"))
        let first = runner.home.appendingPathComponent("cloud-first")
        let last = runner.home.appendingPathComponent("cloud-last")
        let bucket = "s3://\(server.bucket)/move-\(UUID().uuidString.lowercased())/notes"
        func cn(_ device: URL, _ arguments: String...) throws -> CLIRunner.Result {
            try runner.run(
                arguments + ["--data-dir", device.path], environment: server.environment, currentDirectory: runner.home)
        }
        #expect(try cn(a, "sync", "init", first.path).status == 0)
        #expect(try cn(a, "add", "One", "--body", "before the move").status == 0)
        #expect(try cn(a, "sync").status == 0)
        #expect(try cn(b, "sync", "init", first.path).status == 0)
        let before = Self.files(first)

        let toBucket = try cn(a, "sync", "move", bucket)
        #expect(toBucket.status == 0, "\(toBucket.stderr)")
        #expect(
            toBucket.stdout.contains("moved the cloud folder from \(first.path) to \(bucket)"), "\(toBucket.stdout)")
        #expect(try cn(a, "status").stdout.contains(bucket))
        #expect(try cn(a, "add", "Two", "--body", "in the bucket").status == 0)
        #expect(try cn(a, "sync").status == 0)
        // The old place: every file as it was, plus the pointer.
        var after = Self.files(first)
        let removed = after.removeValue(forKey: "moved.json")
        let pointer = try #require(removed)
        #expect(after == before)
        #expect(String(decoding: pointer, as: UTF8.self).contains("move-"))

        let follows = try cn(b, "sync")
        #expect(follows.status == 0, "\(follows.stderr)")
        #expect(follows.stderr.contains("the cloud folder moved from \(first.path) to \(bucket)"), "\(follows.stderr)")
        let listed = try cn(b, "list")
        #expect(listed.stdout.contains("One") && listed.stdout.contains("Two"), "\(listed.stdout)")

        let back = try cn(a, "sync", "move", last.path)
        #expect(back.status == 0, "\(back.stderr)")
        #expect(try cn(a, "add", "Three", "--body", "in the folder again").status == 0)
        #expect(try cn(a, "sync").status == 0)
        #expect(try cn(b, "add", "Four", "--body", "from b").status == 0)
        let followsBack = try cn(b, "sync")
        #expect(followsBack.status == 0, "\(followsBack.stderr)")
        #expect(followsBack.stderr.contains("to \(last.path)"), "\(followsBack.stderr)")
        #expect(try cn(a, "sync").status == 0)
        for device in [a, b] {
            let all = try cn(device, "list").stdout
            for title in ["One", "Two", "Three", "Four"] {
                #expect(all.contains(title), "\(device.lastPathComponent): \(all)")
            }
        }
        #expect(Self.files(last)["container.json"] == before["container.json"])
        // A place that holds another container is refused, nothing copied.
        let other = runner.home.appendingPathComponent("cloud-other")
        let c = runner.device("c")
        #expect(try cn(c, "sync", "init", other.path).status == 0)
        let refused = try cn(a, "sync", "move", other.path)
        #expect(refused.status != 0)
        #expect(refused.stderr.contains("already holds another cloud folder"), "\(refused.stderr)")
    }
}
