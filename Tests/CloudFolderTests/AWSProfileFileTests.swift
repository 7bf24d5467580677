import CloudFolder
import Foundation
import NotesCore
import NotesTestSupport
import Testing

/// `~/.aws/credentials` and `~/.aws/config` as the AWS tools write them, and which source wins
/// for each setting of an `s3://` location (DECISIONS session 12).
@Suite struct AWSProfileFileTests {
    static let config = """
        # written by aws configure
        [default]
        region = eu-west-1

        [profile work]
        region=us-west-2
        endpoint_url = https://ignored.example
        s3 =
          endpoint_url = http://127.0.0.1:8333
          addressing_style = path
        output = json
        [profile  spaced ]
        ; a comment
        region = ap-south-1\r
        """
    static let credentials = """
        [default]
        aws_access_key_id = AKIDDEFAULT
        aws_secret_access_key = default/secret+key=
        [work]
        aws_access_key_id=AKIDWORK
        aws_secret_access_key=work-secret
        aws_session_token = work-token
        """

    @Test func sectionsKeysAndSubKeysParse() {
        let file = AWSProfileFile(parsing: Array(Self.config.utf8))
        #expect(file.configProfile("default")?["region"] == "eu-west-1")
        let work = file.configProfile("work")
        #expect(work?["region"] == "us-west-2")
        #expect(work?["s3.endpoint_url"] == "http://127.0.0.1:8333")
        #expect(work?["s3.addressing_style"] == "path")
        #expect(work?["output"] == "json")
        #expect(work?["endpoint_url"] == "https://ignored.example")
        #expect(file.configProfile("spaced")?["region"] == "ap-south-1")
        let credentials = AWSProfileFile(parsing: Array(Self.credentials.utf8))
        // A value is everything after the first `=`: base64 secrets keep theirs.
        #expect(credentials.credentialsProfile("default")?["aws_secret_access_key"] == "default/secret+key=")
        #expect(credentials.credentialsProfile("work")?["aws_session_token"] == "work-token")
        #expect(credentials.credentialsProfile("nobody") == nil)
    }

    /// The files of a home: what `resolve` reads.
    static func files(config: String? = Self.config, credentials: String? = Self.credentials) -> (String) -> [UInt8]? {
        { path in
            if path == "/h/.aws/config" { return config.map { Array($0.utf8) } }
            if path == "/h/.aws/credentials" { return credentials.map { Array($0.utf8) } }
            return nil
        }
    }

    @Test func theEnvironmentWinsOverTheConfigSectionWhichWinsOverProfiles() throws {
        let settings = S3Settings(
            endpoint: "http://127.0.0.1:9000", region: "config-region", accessKeyID: "AKIDCONFIG",
            secretAccessKey: "config-secret")
        let environment = [
            "HOME": "/h", "AWS_ACCESS_KEY_ID": "AKIDENV", "AWS_SECRET_ACCESS_KEY": "env-secret",
            "AWS_REGION": "env-region",
        ]
        let fromEnvironment = try S3Endpoint.resolve(
            bucket: "b", environment: environment, settings: settings, readFile: Self.files())
        #expect(fromEnvironment.credentials.accessKeyID == "AKIDENV")
        #expect(fromEnvironment.region == "env-region")
        #expect(fromEnvironment.url.absoluteString == "http://127.0.0.1:9000")
        let fromSection = try S3Endpoint.resolve(
            bucket: "b", environment: ["HOME": "/h"], settings: settings, readFile: Self.files())
        #expect(fromSection.credentials == .init(accessKeyID: "AKIDCONFIG", secretAccessKey: "config-secret"))
        #expect(fromSection.region == "config-region")
        let fromProfile = try S3Endpoint.resolve(
            bucket: "b", environment: ["HOME": "/h"], settings: S3Settings(), readFile: Self.files())
        #expect(fromProfile.credentials == .init(accessKeyID: "AKIDDEFAULT", secretAccessKey: "default/secret+key="))
        #expect(fromProfile.region == "eu-west-1")
        // AWS's own endpoint for the region, virtual-host addressed.
        #expect(fromProfile.url.absoluteString == "https://s3.eu-west-1.amazonaws.com")
        #expect(fromProfile.addressing == .virtual)
        #expect(fromProfile.hostHeader == "b.s3.eu-west-1.amazonaws.com")
    }

    @Test func aNamedProfileBringsItsKeysRegionEndpointAndAddressing() throws {
        for (environment, settings) in [
            (["HOME": "/h", "AWS_PROFILE": "work"], S3Settings()), (["HOME": "/h"], S3Settings(profile: "work")),
        ] {
            let endpoint = try S3Endpoint.resolve(
                bucket: "notes", environment: environment, settings: settings, readFile: Self.files())
            #expect(
                endpoint.credentials
                    == .init(accessKeyID: "AKIDWORK", secretAccessKey: "work-secret", sessionToken: "work-token"))
            #expect(endpoint.region == "us-west-2")
            // The s3 sub-section's endpoint_url wins over the profile's general one.
            #expect(endpoint.url.absoluteString == "http://127.0.0.1:8333")
            #expect(endpoint.addressing == .path)
            #expect(endpoint.requestPath(key: "p/a.json") == "/notes/p/a.json")
        }
        // AWS_PROFILE wins over the section's profile.
        let chosen = try S3Endpoint.resolve(
            bucket: "b", environment: ["HOME": "/h", "AWS_PROFILE": "default"], settings: S3Settings(profile: "work"),
            readFile: Self.files())
        #expect(chosen.credentials.accessKeyID == "AKIDDEFAULT")
    }

    @Test func missingCredentialsOrProfileAreOneClearErrorWithoutSecrets() {
        func failure(_ environment: [String: String], _ settings: S3Settings = S3Settings()) -> CloudError? {
            do {
                _ = try S3Endpoint.resolve(
                    bucket: "b", environment: environment, settings: settings,
                    readFile: Self.files(credentials: nil))
                return nil
            } catch {
                return error as? CloudError
            }
        }
        let none = failure(["HOME": "/h"])
        #expect(none?.code == .notAuthenticated)
        #expect(none?.message.contains("AWS_ACCESS_KEY_ID") == true)
        let missing = failure(["HOME": "/h", "AWS_PROFILE": "nobody"])
        #expect(missing?.message.contains("the AWS profile nobody is in neither") == true)
        // A secret without its key id is not half used.
        let half = failure(["HOME": "/h"], S3Settings(secretAccessKey: "lonely-secret"))
        #expect(half?.code == .notAuthenticated)
        #expect(half?.message.contains("lonely-secret") == false)
        let badEndpoint = failure(["HOME": "/h", "AWS_ENDPOINT_URL": "ftp://x"])
        #expect(badEndpoint?.code == .invalidArguments)
    }

    @Test func anyBytesParseToSomeSectionsNeverACrash() {
        let run = FuzzRun("AWS profile files", defaultIterations: 5_000)
        var random = SeededRandom(seed: run.seed)
        let mutator = ByteMutator(
            corpus: [Array(Self.config.utf8), Array(Self.credentials.utf8)],
            extraTokens: ["[", "]", "=", "[profile ", "\n  ", "s3 =\n", "#", ";"].map { Array($0.utf8) })
        for iteration in 0..<run.iterations {
            let input = mutator.mutate(
                iteration % 2 == 0 ? Array(Self.config.utf8) : Array(Self.credentials.utf8), using: &random)
            let file = AWSProfileFile(parsing: input)
            // Every key is lowercased and non-empty: what the parser promises whatever the bytes.
            let keys = file.sections.values.flatMap(\.keys)
            #expect(keys.allSatisfy { !$0.isEmpty && $0 == $0.lowercased() }, "\(run.context(iteration))")
            _ = try? S3Endpoint.resolve(
                bucket: "b", environment: ["HOME": "/h"], readFile: { _ in input })
        }
    }

    @Test func virtualHostRequestsAreSignedAsAWSSignsThem() throws {
        // AWS's worked example "GET Object" of Signature V4 for S3: bucket examplebucket,
        // key test.txt, Range bytes=0-9, 2013-05-24T00:00:00Z.
        let endpoint = S3Endpoint(
            url: URL(string: "https://s3.amazonaws.com")!, bucket: "examplebucket", region: "us-east-1",
            credentials: .init(
                accessKeyID: "AKIAIOSFODNN7EXAMPLE", secretAccessKey: "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"),
            addressing: .virtual)
        let sent = LockedBox<URLRequestSummary?>(nil)
        let client = S3Client(
            endpoint: endpoint,
            transport: { request in
                sent.set(
                    URLRequestSummary(
                        url: request.url.absoluteString,
                        authorization: request.header("Authorization") ?? ""))
                return S3Response(status: 206, headers: [:], body: [])
            },
            now: { Date(timeIntervalSince1970: 1_369_353_600) })
        _ = try client.send("GET", key: "test.txt", headers: [("Range", "bytes=0-9")])
        #expect(sent.get()?.url == "https://examplebucket.s3.amazonaws.com/test.txt")
        #expect(
            sent.get()?.authorization
                == "AWS4-HMAC-SHA256 Credential=AKIAIOSFODNN7EXAMPLE/20130524/us-east-1/s3/aws4_request, "
                + "SignedHeaders=host;range;x-amz-content-sha256;x-amz-date, "
                + "Signature=f0e8bdb87c964420e857bd35b5d6ed310bd44f0170aba48dd91039c6036bdb41")
        // The bucket itself (a listing) is "/" on its own host.
        #expect(endpoint.requestPath(key: "") == "/")
    }

    struct URLRequestSummary: Sendable {
        var url: String
        var authorization: String
    }
}

/// A value shared with a `@Sendable` closure.
final class LockedBox<Value: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value
    init(_ value: Value) { self.value = value }
    func set(_ newValue: Value) { lock.withLock { value = newValue } }
    func get() -> Value { lock.withLock { value } }
}
