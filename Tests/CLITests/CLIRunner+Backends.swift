import Foundation
import NotesTestSupport
import Testing

/// Where the devices of a CLI scenario share their notes: a folder, or a bucket of the loopback
/// SeaweedFS (SYNC-FORMAT "On S3"). Suites take it as an argument, so one scenario runs on both.
enum CloudBackend: String, CaseIterable, CustomTestStringConvertible {
    case directory, s3
    var testDescription: String { rawValue }
}

extension CLIRunner {
    /// Devices `a` and `b` bound to one new cloud folder of `backend` (as
    /// `devicesSharingACloudFolder(encrypted:)`); over S3 the runner's config reaches the bucket.
    func devicesSharingACloudFolder(
        over backend: CloudBackend, encrypted: Bool = false, sourceLocation: SourceLocation = #_sourceLocation
    ) async throws -> (cloud: String, a: URL, b: URL) {
        let cloud =
            switch backend {
            case .directory: home.appendingPathComponent("cloud").path
            case .s3: try await useLoopbackBucket()
            }
        return try devicesSharingACloudFolder(cloud: cloud, encrypted: encrypted, sourceLocation: sourceLocation)
    }

    /// Puts the loopback SeaweedFS into this runner's config (its `s3` section: endpoint, keys,
    /// path addressing), so every command, a killed `sync` included, reaches the bucket with no
    /// AWS variable; returns the `s3://` URL of a fresh prefix in it.
    func useLoopbackBucket() async throws -> String {
        let server = try await SeaweedServer.shared.endpoint()
        try mergeConfig([
            "s3": [
                "endpoint": server.url, "region": "us-east-1", "accessKeyId": server.accessKey,
                "secretAccessKey": server.secretKey, "addressing": "path",
            ]
        ])
        return "s3://\(server.bucket)/cli-\(UUID().uuidString.lowercased())/notes"
    }

    /// Sets `entries` in this runner's config file, keeping the keys already there.
    func mergeConfig(_ entries: [String: Any]) throws {
        let folder = home.appendingPathComponent("xdg-config/cloudnotes")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let file = folder.appendingPathComponent("config.json")
        var config =
            (try? Data(contentsOf: file)).flatMap { try? JSONSerialization.jsonObject(with: $0) as? [String: Any] }
            ?? [:]
        config.merge(entries) { $1 }
        try JSONSerialization.data(withJSONObject: config).write(to: file)
    }
}
