import CloudFolder
import Foundation
import NotesTestSupport

/// An `S3FileIO` on the loopback SeaweedFS (or moto's server), under a fresh prefix per call.
enum S3Fixture {
    static func io(
        prefix: String? = nil, credentials: SigV4Signer.Credentials? = nil,
        on implementation: SeaweedServer.Implementation = .seaweedfs
    ) async throws -> S3FileIO {
        let server = try await SeaweedServer.shared(implementation).endpoint()
        let endpoint = S3Endpoint(
            url: URL(string: server.url)!, bucket: server.bucket, region: "us-east-1",
            credentials: credentials ?? .init(accessKeyID: server.accessKey, secretAccessKey: server.secretKey),
            timeout: 10)
        return S3FileIO(client: S3Client(endpoint: endpoint), prefix: prefix ?? "t-\(UUID().uuidString.lowercased())")
    }
}
