import CloudFolder
import Foundation
import NotesTestSupport

/// The venv `.build/venv` at the package root, where the tests' SeaweedFS (`SeaweedServer`, which
/// `--s3` starts on loopback as the tests do) comes from, and where `--s3` installs the aws CLI
/// it compares with.
enum BenchVenv {
    /// The package root (the app's), three folders above this file's.
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../..").standardized.path
    static var path: String { packageRoot + "/.build/venv" }
    /// The venv's python: a venv copied from elsewhere has scripts whose first line names the
    /// old place, so tools run as `python -m …`, which uses this venv's packages.
    static var python: String { path + "/bin/python" }

    /// Installs `package` into the venv unless `present` is there already.
    static func ensure(_ package: String, present: String) throws {
        if FileManager.default.fileExists(atPath: present) { return }
        if !FileManager.default.isExecutableFile(atPath: python) {
            try check(Machine.run("/usr/bin/env", ["python3", "-m", "venv", path]), "python3 -m venv \(path)")
        }
        try check(Machine.run(python, ["-m", "pip", "install", "-q", package]), "pip install \(package)")
    }

    static func check(_ status: Int32, _ what: String) throws {
        guard status == 0 else { throw BenchError("\(what) failed (exit \(status))") }
    }
}

extension SeaweedServer.Endpoint {
    /// The AWS variables a process (the CLI, the aws CLI, which wants the default region) reads
    /// to reach this server.
    var awsEnvironment: [String: String] { environment.merging(["AWS_DEFAULT_REGION": "us-east-1"]) { $1 } }

    /// The server as the app's S3 client reaches it.
    var s3: S3Endpoint {
        S3Endpoint(
            url: URL(string: url)!, bucket: bucket, region: "us-east-1",
            credentials: .init(accessKeyID: accessKey, secretAccessKey: secretKey), timeout: 60)
    }
}
