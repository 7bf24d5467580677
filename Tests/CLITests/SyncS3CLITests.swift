import Foundation
import NotesTestSupport
import Testing

/// `cloudnotes` with an S3 bucket as the cloud folder (SYNC-FORMAT "On S3"), against SeaweedFS
/// on loopback; the AWS variables say where it is.
@Suite("sync over S3 from the command line")
struct SyncS3CLITests {
    @Test(
        "sync init s3://bucket/prefix on two data directories: a note added on A shows on B (plain, --encrypt)",
        arguments: [false, true])
    func twoDevicesOverABucket(encrypted: Bool) async throws {
        let server = try await SeaweedServer.shared.endpoint()
        let runner = try CLIRunner()
        defer { runner.cleanUp() }
        let url = "s3://\(server.bucket)/cli-\(UUID().uuidString.lowercased())/notes"
        let (a, b) = (runner.device("a"), runner.device("b"))
        func cn(_ device: URL, _ arguments: String...) throws -> CLIRunner.Result {
            try runner.run(
                arguments + ["--data-dir", device.path],
                environment: server.environment.merging(
                    encrypted ? CLIRunner.passphraseEnvironment(CLIRunner.passphrase) : [:]
                ) { $1 },
                currentDirectory: runner.home)
        }
        let initA = encrypted ? try cn(a, "sync", "init", url, "--encrypt") : try cn(a, "sync", "init", url)
        #expect(initA.status == 0, "\(initA.stderr)")
        #expect(initA.stdout.contains("bound to cloud folder \(url)"), "\(initA.stdout)")
        #expect(try cn(a, "add", "Groceries", "--body", "milk and eggs").status == 0)
        let sync = try cn(a, "sync")
        #expect(sync.status == 0, "\(sync.stderr)")
        let initB = try cn(b, "sync", "init", url)
        #expect(initB.status == 0, "\(initB.stderr)")
        let shown = try cn(b, "list")
        #expect(shown.stdout.contains("Groceries"), "\(shown.stdout) \(shown.stderr)")
        let status = try cn(b, "status")
        #expect(status.stdout.contains(url), "\(status.stdout)")
        for output in [initA, sync, initB, shown, status] {
            #expect(!(output.stdout + output.stderr).contains(server.secretKey))
        }
        #expect(!FileManager.default.fileExists(atPath: runner.home.appendingPathComponent("s3:").path))
    }

    @Test("a URL is never taken for a path: no folder named s3: is created, other schemes are refused")
    func urlIsNotAPath() throws {
        let runner = try CLIRunner()
        defer { runner.cleanUp() }
        let a = runner.device("a")
        // No credentials: refused in one line, nothing created in the current folder.
        let refused = try runner.run(
            ["sync", "init", "s3://bucket/prefix", "--data-dir", a.path], currentDirectory: runner.home)
        #expect(refused.status != 0)
        #expect(refused.stderr.contains("AWS_ACCESS_KEY_ID"), "\(refused.stderr)")
        #expect(!FileManager.default.fileExists(atPath: runner.home.appendingPathComponent("s3:").path))
        let other = try runner.run(
            ["sync", "init", "ftp://host/folder", "--data-dir", a.path], currentDirectory: runner.home)
        #expect(other.status != 0)
        #expect(other.stderr.contains("s3://BUCKET/PREFIX"), "\(other.stderr)")
        #expect(!FileManager.default.fileExists(atPath: runner.home.appendingPathComponent("ftp:").path))
    }
}
