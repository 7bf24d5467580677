import Foundation
import NotesTestSupport
import Testing

/// `cloudnotes` with an S3 bucket as the cloud folder (SYNC-FORMAT "On S3"), against SeaweedFS
/// on loopback (the round trip against moto's server too); the AWS variables say where it is.
@Suite("sync over S3 from the command line")
struct SyncS3CLITests {
    @Test(
        "sync init s3://bucket/prefix on two data directories: a note added on A shows on B (plain, --encrypt)",
        arguments: [false, true], SeaweedServer.Implementation.allCases)
    func twoDevicesOverABucket(encrypted: Bool, implementation: SeaweedServer.Implementation) async throws {
        let server = try await SeaweedServer.shared(implementation).endpoint()
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

    @Test(
        "credentials from the config's s3 section and from an ~/.aws profile both reach the bucket; no output, log or file shows the secret"
    )
    func secretsFromConfigAndProfileStayHidden() async throws {
        let server = try await SeaweedServer.shared.endpoint()
        let runner = try CLIRunner()
        defer { runner.cleanUp() }
        let url = "s3://\(server.bucket)/cli-\(UUID().uuidString.lowercased())/notes"
        let (a, b) = (runner.device("a"), runner.device("b"))
        // A: the config file's s3 section, no AWS variables at all.
        let configPath = runner.home.appendingPathComponent("a-config.json").path
        let config = [
            "s3": [
                "endpoint": server.url, "region": "us-east-1", "accessKeyId": server.accessKey,
                "secretAccessKey": server.secretKey, "addressing": "path",
            ]
        ]
        try JSONSerialization.data(withJSONObject: config).write(to: URL(fileURLWithPath: configPath))
        // B: a named profile in ~/.aws, chosen by AWS_PROFILE.
        let aws = runner.home.appendingPathComponent(".aws")
        try FileManager.default.createDirectory(at: aws, withIntermediateDirectories: true)
        try Data(
            "[cn]\naws_access_key_id = \(server.accessKey)\naws_secret_access_key = \(server.secretKey)\n".utf8
        ).write(to: aws.appendingPathComponent("credentials"))
        try Data("[profile cn]\nregion = us-east-1\ns3 =\n  endpoint_url = \(server.url)\n".utf8).write(
            to: aws.appendingPathComponent("config"))
        var outputs: [CLIRunner.Result] = []
        func cn(_ device: URL, _ arguments: [String], _ environment: [String: String] = [:]) throws -> CLIRunner.Result
        {
            let result = try runner.run(
                arguments + ["--data-dir", device.path], environment: environment, currentDirectory: runner.home)
            outputs.append(result)
            return result
        }
        let onA = ["--config", configPath]
        let initA = try cn(a, ["sync", "init", url] + onA)
        #expect(initA.status == 0, "\(initA.stderr)")
        #expect(try cn(a, ["add", "Secretless", "--body", "x"] + onA).status == 0)
        #expect(try cn(a, ["sync"] + onA).status == 0)
        let shown = try cn(a, ["config"] + onA)
        #expect(shown.stdout.contains("secretAccessKey=(set)"), "\(shown.stdout)")
        for arguments in [
            ["config", "--json"], ["status"], ["status", "--json"], ["debug", "state"], ["debug", "records", "notes"],
        ] {
            _ = try cn(a, arguments + onA)
        }
        let profile = ["AWS_PROFILE": "cn"]
        let initB = try cn(b, ["sync", "init", url], profile)
        #expect(initB.status == 0, "\(initB.stderr)")
        let listed = try cn(b, ["list"], profile)
        #expect(listed.stdout.contains("Secretless"), "\(listed.stdout) \(listed.stderr)")
        _ = try cn(b, ["status"], profile)
        // A wrong secret is refused with the server's reason, and not echoed either.
        let wrong = try cn(
            b, ["sync"], ["AWS_ACCESS_KEY_ID": server.accessKey, "AWS_SECRET_ACCESS_KEY": "wrong-\(server.secretKey)"])
        #expect(wrong.status != 0 || wrong.stdout.contains("credentials"), "\(wrong.stdout) \(wrong.stderr)")
        for output in outputs {
            #expect(!(output.stdout + output.stderr).contains(server.secretKey), "\(output.stdout) \(output.stderr)")
        }
        for device in [a, b] {
            let files = FileManager.default.enumerator(atPath: device.path)?.allObjects as? [String] ?? []
            for file in files {
                let data = FileManager.default.contents(atPath: device.appendingPathComponent(file).path) ?? Data()
                #expect(data.range(of: Data(server.secretKey.utf8)) == nil, "\(file) holds the secret")
            }
        }
    }
}
