import Foundation
import NotesTestSupport
import Testing

/// `cloudnotes sync passphrase` revokes the old passphrase (issue 21 item 8): the old one opens
/// nothing left in the folder, damage at the next generation never blocks a change, and a change
/// that loses a race says so.
@Suite("sync passphrase: re-keying that revokes")
struct PassphraseChangeCLITests {
    static func change(_ runner: CLIRunner, _ device: URL, to passphrase: String) throws -> CLIRunner.Result {
        var environment = CLIRunner.passphraseEnvironment(CLIRunner.passphrase)
        environment["CLOUDNOTES_NEW_PASSPHRASE"] = passphrase
        return try runner.run(["sync", "passphrase", "--data-dir", device.path], environment: environment)
    }

    static func join(_ runner: CLIRunner, _ name: String, _ cloud: String, with passphrase: String) throws
        -> CLIRunner.Result
    {
        try runner.run(
            ["sync", "init", cloud, "--data-dir", runner.device(name).path],
            environment: CLIRunner.passphraseEnvironment(passphrase))
    }

    @Test("after a change the old passphrase opens nothing for a new device; devices holding the key keep syncing")
    func oldPassphraseOpensNothing() throws {
        let runner = try CLIRunner()
        defer { runner.cleanUp() }
        let (cloud, a, b) = try runner.devicesSharingACloudFolder(encrypted: true)
        for round in 1...3 {
            let changed = try Self.change(runner, a, to: "passphrase \(round)")
            #expect(changed.status == 0, "\(changed.stderr)")
            #expect(changed.stdout.contains("keys file \(round + 1) written"), "\(changed.stdout)")
        }
        let keys = try FileManager.default.contentsOfDirectory(atPath: cloud + "/keys")
        #expect(keys == ["000000000004.json"], "\(keys)")
        for (name, old) in [("c", CLIRunner.passphrase), ("d", "passphrase 1"), ("e", "passphrase 2")] {
            let refused = try Self.join(runner, name, cloud, with: old)
            #expect(refused.status == 1, "\(old) still opens the folder")
            #expect(refused.stderr.contains("wrong passphrase"), "\(refused.stderr)")
        }
        #expect(try runner.cn(at: a, "add", "after the changes", "--body", "still here").status == 0)
        #expect(try runner.cn(at: a, "sync").status == 0)
        #expect(try runner.cn(at: b, "sync").status == 0)
        #expect(try runner.cn(at: b, "show", "after the changes").stdout == "still here")
        let joined = try Self.join(runner, "f", cloud, with: "passphrase 3")
        #expect(joined.status == 0, "\(joined.stderr)")
        #expect(try runner.cn(at: runner.device("f"), "show", "after the changes").stdout == "still here")
    }

    @Test("a damaged file at the next generation is skipped and said so; never 'another writer'")
    func damagedNextGeneration() throws {
        let runner = try CLIRunner()
        defer { runner.cleanUp() }
        let (cloud, a, _) = try runner.devicesSharingACloudFolder(encrypted: true)
        try Data("{\"torn".utf8).write(to: URL(fileURLWithPath: cloud + "/keys/000000000002.json"))
        let changed = try Self.change(runner, a, to: "after damage")
        #expect(changed.status == 0, "\(changed.stderr)")
        #expect(!changed.stderr.contains("another writer"), "\(changed.stderr)")
        #expect(changed.stderr.contains("keys/000000000002.json did not check out"), "\(changed.stderr)")
        #expect(changed.stdout.contains("keys file 3 written"), "\(changed.stdout)")
        let joined = try Self.join(runner, "c", cloud, with: "after damage")
        #expect(joined.status == 0, "\(joined.stderr)")
    }

    @Test("two devices change the passphrase at once: one change stands whole, the other is told so")
    func concurrentChanges() throws {
        for round in 0..<3 {
            let runner = try CLIRunner()
            defer { runner.cleanUp() }
            let (cloud, a, b) = try runner.devicesSharingACloudFolder(encrypted: true)
            let results = PassphraseResults()
            DispatchQueue.concurrentPerform(iterations: 2) { index in
                results.set(index, try? Self.change(runner, [a, b][index], to: "new \(index)"))
            }
            let outcomes = results.all
            for result in outcomes where result?.status != 0 {
                #expect(result?.stderr.contains("at the same time") ?? false, "round \(round): \(result?.stderr ?? "")")
                #expect(!(result?.stderr.contains("another writer") ?? true), "round \(round)")
            }
            #expect(outcomes.contains { $0?.status == 0 }, "round \(round): no change stood")
            // Exactly one generation is left, and one of the new passphrases opens it.
            let keys = try FileManager.default.contentsOfDirectory(atPath: cloud + "/keys")
            #expect(keys.count == 1, "round \(round): \(keys)")
            let opened = try (0..<2).map { try Self.join(runner, "c\($0)", cloud, with: "new \($0)").status == 0 }
            #expect(opened.filter { $0 }.count == 1, "round \(round): \(opened)")
            #expect(try Self.join(runner, "old", cloud, with: CLIRunner.passphrase).status == 1)
        }
    }
}

/// The two results of concurrent runs.
private final class PassphraseResults: @unchecked Sendable {
    private let lock = NSLock()
    private var results: [CLIRunner.Result?] = [nil, nil]

    func set(_ index: Int, _ result: CLIRunner.Result?) { lock.withLock { results[index] = result } }
    var all: [CLIRunner.Result?] { lock.withLock { results } }
}
