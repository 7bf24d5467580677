import Foundation
import NotesTestSupport
import Testing

/// ARCHITECTURE §7's oracle against the real binary: `kill -9` at random moments of `cloudnotes sync`
/// on device A, then one clean sync each: B holds every note A acknowledged, once, and A has
/// nothing left to send.
@Suite("kill -9 during sync")
struct SyncKillTests {
    /// Over S3 fewer notes and rounds: each killed sync costs real requests.
    @Test(
        "a kill -9 loop against 'sync' loses nothing and duplicates nothing",
        arguments: CloudBackend.allCases, [false, true])
    func killLoop(_ backend: CloudBackend, encrypted: Bool) async throws {
        let runner = try CLIRunner()
        defer { runner.cleanUp() }
        let (_, a, b) = try await runner.devicesSharingACloudFolder(over: backend, encrypted: encrypted)
        let notes = (0..<(backend == .s3 ? 900 : 1200)).map { n in
            CLIRunner.fixture(
                id: String(format: "00000000-0000-4000-8000-%012d", n), title: "note \(n)",
                body: String(repeating: "line of note \(n)\n", count: 20))
        }
        try runner.seed(notes, into: a)
        // CLOUDNOTES_SEED=<seed> replays a failure's schedule of kills.
        let seed = SeededRandom.seed(default: 20_261_123)
        var random = SeededRandom(seed: seed)
        print("kill loop seed \(seed) (\(backend))")
        // The first rounds kill early, while the sync certainly runs; later ones anywhere.
        let schedule = CLIRunner.KillSchedule(
            rounds: backend == .s3 ? 5 : 8, earlyRounds: 3, base: 10_000, early: 60_000, late: 400_000)
        let killed = try runner.killSyncs([a], schedule, random: &random)
        #expect(killed > 0, "seed \(seed): no sync was killed, so nothing was tested")
        let finalA = try runner.cn(at: a, "sync")
        #expect(finalA.status == 0, "\(finalA.stderr)")
        let finalB = try runner.cn(at: b, "sync")
        #expect(finalB.status == 0, "\(finalB.stderr)")
        let list = try runner.run(["list", "--limit", "100000", "--json", "--data-dir", b.path])
        let rows = try #require(try JSONSerialization.jsonObject(with: list.stdoutData) as? [[String: Any]])
        #expect(
            rows.count == notes.count,
            "seed \(seed): killed \(killed) times; B has \(rows.count) of \(notes.count) notes")
        #expect(Set(rows.compactMap { $0["id"] as? String }).count == notes.count)
        let status = try #require(
            try JSONSerialization.jsonObject(with: try runner.cn(at: a, "status", "--json").stdoutData)
                as? [String: Any])
        #expect(status["pending"] as? Int == 0)
        let sample = try runner.cn(at: b, "show", "00000000-0000-4000-8000-000000000777")
        #expect(sample.stdout == String(repeating: "line of note 777\n", count: 20))
        let history = try runner.cn(at: b, "history", "00000000-0000-4000-8000-000000000777", "--json")
        #expect((try JSONSerialization.jsonObject(with: history.stdoutData) as? [Any])?.count == 1)
    }

    /// Over S3 plain only: the chunks' PUTs and ranged GETs are what a kill interrupts there.
    @Test(
        "kill -9 during the upload and the download of a 12 MB note (rule 15's chunks) loses nothing",
        arguments: zip([CloudBackend.directory, .directory, .s3], [false, true, false]))
    func killDuringLargeNote(_ backend: CloudBackend, encrypted: Bool) async throws {
        let runner = try CLIRunner()
        defer { runner.cleanUp() }
        let started = Date()
        defer {
            print("12 MB note kill test (\(backend), encrypted: \(encrypted)): \(-started.timeIntervalSinceNow) s")
        }
        let (_, a, b) = try await runner.devicesSharingACloudFolder(over: backend, encrypted: encrypted)
        let seed = SeededRandom.seed(default: 15)
        var random = SeededRandom(seed: seed)
        var body = ""
        while body.utf8.count < 12 * 1_048_576 { body += "line \(random.below(1 << 30)) of a large note\n" }
        let file = runner.home.appendingPathComponent("big.txt")
        try Data(body.utf8).write(to: file)
        #expect(try runner.cn(at: a, "add", "large", "--file", file.path).status == 0)
        let killed = try runner.killSyncs(
            [a, b], .init(rounds: 4, earlyRounds: 2, base: 30_000, early: 100_000, late: 600_000), random: &random)
        #expect(killed > 0, "seed \(seed): no sync was killed")
        #expect(try runner.cn(at: a, "sync").status == 0)
        let final = try runner.cn(at: b, "sync")
        #expect(final.status == 0, "\(final.stderr)")
        #expect(try runner.cn(at: b, "show", "large").stdoutData == Data(body.utf8), "seed \(seed), \(killed) kills")
        let status = try #require(
            try JSONSerialization.jsonObject(with: try runner.cn(at: a, "status", "--json").stdoutData)
                as? [String: Any])
        #expect(status["pending"] as? Int == 0)
    }
}
