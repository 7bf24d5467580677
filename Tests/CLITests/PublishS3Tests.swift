import CloudFolder
import Foundation
import NotesTestSupport
import Testing

/// `cloudnotes publish … s3://BUCKET/PREFIX` against SeaweedFS on loopback: the same site as in
/// a folder, each object with its content type; publishing again uploads only what changed and
/// deletes what is no longer published; a prefix with objects of someone else's is refused.
@Suite struct PublishS3Tests {
    @Test func aBucketGetsTheFolderSiteAndRepublishingUploadsOnlyWhatChangedAndDeletesWhatWasUnpublished()
        async throws
    {
        let server = try await SeaweedServer.shared.endpoint()
        let cli = try CLIRunner()
        defer { cli.cleanUp() }
        let prefix = "publish-\(UUID().uuidString.lowercased())"
        let url = "s3://\(server.bucket)/\(prefix)/site"
        let client = S3Client(
            endpoint: S3Endpoint(
                url: try #require(URL(string: server.url)), bucket: server.bucket, region: "us-east-1",
                credentials: .init(accessKeyID: server.accessKey, secretAccessKey: server.secretKey), timeout: 10))
        func object(_ path: String) throws -> (status: Int, type: String?, body: [UInt8]) {
            let answer = try client.send("GET", key: "\(prefix)/site/\(path)")
            return (answer.status, answer.headers["content-type"], answer.body)
        }
        func publish(_ sources: String...) throws -> CLIRunner.Result {
            try cli.cn(["publish"] + sources + [url], stdinBytes: Data(), environment: server.environment)
        }

        try cli.cn("notebook", "create", "Public")
        let alpha = try cli.add("Alpha", body: "alpha text", "--notebook", "Public")
        try cli.add("Beta", body: "links to [[Alpha]]", "--notebook", "Public")
        try cli.add("Gamma", body: "gamma", "--notebook", "Public")
        let first = try publish("Public")
        #expect(first.status == 0, "\(first.stderr)")
        #expect(!(first.stdout + first.stderr).contains(server.secretKey))
        // The folder's site, file for file, byte for byte.
        let folder = cli.home.appendingPathComponent("site")
        #expect(try cli.cn("publish", "Public", folder.path).status == 0)
        let files = try FileManager.default.subpathsOfDirectory(atPath: folder.path).filter { path in
            var isDirectory: ObjCBool = false
            let exists = FileManager.default.fileExists(
                atPath: folder.appendingPathComponent(path).path, isDirectory: &isDirectory)
            return exists && !path.hasPrefix(".") && !isDirectory.boolValue
        }
        #expect(files.contains("index.html") && files.filter { $0.hasPrefix("notes/") }.count == 3, "\(files)")
        for file in files {
            let stored = try object(file)
            #expect(stored.status == 200, "\(file)")
            #expect(stored.body == Array(try Data(contentsOf: folder.appendingPathComponent(file))), "\(file)")
        }
        #expect(try object("index.html").type?.hasPrefix("text/html") == true)
        #expect(try object("search.js").type?.hasPrefix("text/javascript") == true)
        #expect(first.stderr.contains("\(files.count) file(s) written"), "\(first.stderr)")

        #expect(try publish("Public").stderr.contains("0 file(s) written, \(files.count) unchanged"))
        try cli.cn("edit", alpha, "--body", "alpha text, edited")
        let edited = try publish("Public")
        #expect(edited.stderr.contains("2 file(s) written"), "\(edited.stderr)")
        let alphaPage = try #require(files.first { $0.hasPrefix("notes/alpha-") })
        #expect(String(decoding: try object(alphaPage).body, as: UTF8.self).contains("alpha text, edited"))

        let fewer = try publish("Alpha", "Beta")
        #expect(fewer.stderr.contains("1 removed"), "\(fewer.stderr)")
        let gammaPage = try #require(files.first { $0.hasPrefix("notes/gamma-") })
        #expect(try object(gammaPage).status == 404)
        #expect(!String(decoding: try object("index.html").body, as: UTF8.self).contains("Gamma"))

        // Someone else's objects and no list of publish's: refused, nothing written.
        let other = "s3://\(server.bucket)/\(prefix)/theirs"
        let theirs = try client.send("PUT", key: "\(prefix)/theirs/index.html", body: Array("keep".utf8))
        #expect(theirs.status == 200)
        let refused = try cli.cn(["publish", "Public", other], stdinBytes: Data(), environment: server.environment)
        #expect(refused.status != 0)
        #expect(refused.stderr.contains("holds objects that publish did not write"), "\(refused.stderr)")
        #expect(try client.send("GET", key: "\(prefix)/theirs/index.html").body == Array("keep".utf8))
    }

    @Test func anObjectChangedOrDeletedInTheBucketByOtherMeansIsUploadedAgainAtTheNextPublish() async throws {
        let bucket = try await PublishBucket(.seaweedfs)
        defer { bucket.cli.cleanUp() }
        let (cli, client, prefix, publish) = (bucket.cli, bucket.client, bucket.prefix, bucket.publish)
        try cli.cn("notebook", "create", "Public")
        try cli.add("Alpha", body: "alpha text", "--notebook", "Public")
        try cli.add("Beta", body: "beta text", "--notebook", "Public")
        #expect(try publish().status == 0)
        let keys = try S3FileIO(client: client, prefix: prefix).listETags(under: "/").keys
        let alpha = try #require(keys.first { $0.hasPrefix("notes/alpha-") })
        let beta = try #require(keys.first { $0.hasPrefix("notes/beta-") })
        let page = try client.send("GET", key: "\(prefix)/\(alpha)").body
        // Someone edits one page in the bucket's console and deletes another.
        #expect(try client.send("PUT", key: "\(prefix)/\(alpha)", body: Array("defaced".utf8)).status == 200)
        #expect(try client.send("DELETE", key: "\(prefix)/\(beta)").status == 204)
        let again = try publish()
        #expect(again.status == 0, "\(again.stderr)")
        #expect(again.stderr.contains("2 file(s) written"), "\(again.stderr)")
        #expect(try client.send("GET", key: "\(prefix)/\(alpha)").body == page)
        #expect(try client.send("GET", key: "\(prefix)/\(beta)").status == 200)
        #expect(try publish().stderr.contains("0 file(s) written"))
    }

    @Test(arguments: SeaweedServer.Implementation.allCases)
    func anAttachmentOverOnePartGoesUpInPartsByteForByte(_ implementation: SeaweedServer.Implementation) async throws {
        let bucket = try await PublishBucket(implementation)
        defer { bucket.cli.cleanUp() }
        let (cli, client, prefix, publish) = (bucket.cli, bucket.client, bucket.prefix, bucket.publish)
        // About 12.6 MB: two parts of 8 MB, the second short.
        var generator = SeededRandom(seed: 7)
        let block = (0..<65_536).map { _ in UInt8.random(in: 0...255, using: &generator) }
        var content = Data()
        for index in 0..<193 {
            content.append(contentsOf: block)
            content.append(UInt8(index))
        }
        let file = cli.home.appendingPathComponent("scan.bin")
        try content.write(to: file)
        try cli.cn("notebook", "create", "Public")
        let id = try cli.add("Scans", body: "the scan", "--notebook", "Public")
        #expect(try cli.cn("attach", id, file.path).status == 0)
        let first = try publish()
        #expect(first.status == 0, "\(first.stderr)")
        let listed = try S3FileIO(client: client, prefix: prefix).listETags(under: "/")
        let key = try #require(listed.keys.first { $0.hasSuffix("/scan.bin") }, "\(listed.keys.sorted())")
        let stored = try client.send("GET", key: "\(prefix)/\(key)", maxAnswerBytes: 64 << 20)
        #expect(stored.status == 200)
        #expect(stored.body.count == content.count && Data(stored.body) == content)
        // The ETag the upload was given is the one the bucket lists: nothing goes up again.
        #expect(try publish().stderr.contains("0 file(s) written"))
    }
}

/// A prefix of its own in the loopback bucket of `implementation`, a CLI to publish there
/// (`publish Public s3://BUCKET/PREFIX`), and a client to read it back.
struct PublishBucket {
    let server: SeaweedServer.Endpoint
    let cli: CLIRunner
    let prefix = "publish-\(UUID().uuidString.lowercased())"
    let client: S3Client

    init(_ implementation: SeaweedServer.Implementation) async throws {
        server = try await SeaweedServer.shared(implementation).endpoint()
        cli = try CLIRunner()
        client = S3Client(
            endpoint: S3Endpoint(
                url: try #require(URL(string: server.url)), bucket: server.bucket, region: "us-east-1",
                credentials: .init(accessKeyID: server.accessKey, secretAccessKey: server.secretKey), timeout: 10))
    }

    func publish() throws -> CLIRunner.Result {
        try cli.cn(
            ["publish", "Public", "s3://\(server.bucket)/\(prefix)"], stdinBytes: Data(),
            environment: server.environment)
    }
}
