import Foundation
import NotesTestSupport
import Testing

/// A 200 MB attachment over a bucket (SeaweedFS on loopback): the S3 transport sends and
/// receives it as 1 MiB chunk objects, so no step holds the file in memory (ARCHITECTURE §4).
@Suite("A 200 MB attachment over S3")
struct S3AttachmentMemoryTests {
    @Test("a 200 MB attachment crosses a bucket byte-identical with under 100 MB of extra RSS")
    func twoHundredMegabytesCrossABucket() async throws {
        let server = try await SeaweedServer.shared.endpoint()
        let runner = try CLIRunner()
        defer { runner.cleanUp() }
        let url = "s3://\(server.bucket)/big-\(UUID().uuidString.lowercased())/notes"
        let (a, b) = (runner.device("a"), runner.device("b"))
        func cn(_ device: URL, _ arguments: String...) throws -> CLIRunner.Result {
            try runner.run(arguments + ["--data-dir", device.path], environment: server.environment)
        }
        #expect(try cn(a, "sync", "init", url).status == 0)
        #expect(try cn(a, "add", "big file", "--body", "").status == 0)
        let file = try AttachmentCLITests.randomFile(runner, "big.bin", bytes: 200 * 1_048_576)
        let baseline = try PeakRSS.run(
            runner, ["attachments", "big file", "--data-dir", a.path], environment: server.environment)
        #expect(baseline.status == 0)
        var peaks: [String: Int] = [:]
        func measure(_ step: String, _ arguments: [String]) throws {
            let measured = try PeakRSS.run(runner, arguments, environment: server.environment)
            #expect(measured.status == 0, "\(step)")
            peaks[step] = measured.maxRSSKilobytes
        }
        try measure("attach", ["attach", "big file", file.path, "--data-dir", a.path])
        try measure("upload", ["sync", "--data-dir", a.path])
        try measure("bind", ["sync", "init", url, "--data-dir", b.path])
        try measure("download", ["sync", "--data-dir", b.path])
        let out = runner.home.appendingPathComponent("out")
        try measure("output", ["attachment", "big file", "big.bin", "-o", out.path, "--data-dir", b.path])
        print(
            "200 MB attachment over S3: baseline \(baseline.maxRSSKilobytes / 1024) MB, peaks \(peaks.mapValues { $0 / 1024 }) MB"
        )
        for (step, peak) in peaks {
            #expect(peak - baseline.maxRSSKilobytes < 100 * 1024, "\(step): \(peak / 1024) MB")
        }
        #expect(try AttachmentCLITests.sameBytes(out, file))
    }
}
