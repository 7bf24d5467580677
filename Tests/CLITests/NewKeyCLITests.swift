import Foundation
import NotesTestSupport
import Testing

/// `cloudnotes sync passphrase --new-key` (issue 21 item 8, "Re-keying that revokes"): a new
/// data key seals what is written afterwards, so whoever kept the old key (a copied data
/// directory) reads nothing new, while every device of the owner takes the new key up with the
/// new passphrase and keeps reading everything written before.
@Suite("sync passphrase --new-key: a new data key for what follows")
struct NewKeyCLITests {
    static let rotated = "a brand new passphrase"

    static func rotate(_ runner: CLIRunner, _ device: URL, to passphrase: String = rotated) throws -> CLIRunner.Result {
        var environment = CLIRunner.passphraseEnvironment(CLIRunner.passphrase)
        environment["CLOUDNOTES_NEW_PASSPHRASE"] = passphrase
        return try runner.run(["sync", "passphrase", "--new-key", "--data-dir", device.path], environment: environment)
    }

    static func files(under root: String) -> [String: Data] { EncryptionCLITests.files(root) }

    @Test("a kept old key reads nothing written after --new-key; the owner's devices read everything")
    func oldKeyReadsNothingNew() throws {
        let runner = try CLIRunner()
        defer { runner.cleanUp() }
        let (cloud, a, b) = try runner.devicesSharingACloudFolder(encrypted: true)
        #expect(try runner.cn(at: a, "add", "before the new key", "--body", "old words").status == 0)
        let report = runner.home.appendingPathComponent("report.txt")
        try Data("attached before the new key\n".utf8).write(to: report)
        #expect(try runner.cn(at: a, "attach", "before the new key", report.path).status == 0)
        #expect(try runner.cn(at: a, "sync").status == 0)
        #expect(try runner.cn(at: b, "sync").status == 0)
        // Someone keeps a copy of b's data directory, old key and all (a lost laptop).
        let thief = runner.device("thief")
        try FileManager.default.copyItem(at: b, to: thief)

        let rotated = try Self.rotate(runner, a)
        #expect(rotated.status == 0, "\(rotated.stderr)")
        #expect(rotated.stdout.contains("key 2 started"), "\(rotated.stdout)")
        let before = Self.files(under: cloud)
        #expect(try runner.cn(at: a, "add", "after the new key", "--body", "secret words").status == 0)
        let synced = try runner.cn(at: a, "sync")
        #expect(synced.status == 0, "\(synced.stderr)")
        // What a wrote after the change is sealed with key 2, named in its header.
        let written = Self.files(under: cloud).filter { before[$0.key] != $0.value && $0.key.hasPrefix("private/") }
        #expect(!written.isEmpty)
        for (path, bytes) in written {
            #expect(bytes.starts(with: Data("CNSEAL2\n".utf8) + Data([0, 0, 0, 2])), "\(path)")
        }

        // The kept old key: refused before anything is written, with or without the old passphrase.
        let files = Self.files(under: cloud)
        for environment in [[:], CLIRunner.passphraseEnvironment(CLIRunner.passphrase)] {
            let stale = try EncryptionLifecycleCLITests.cn(runner, thief, environment, "sync")
            #expect(stale.status == 1, "\(stale.stdout)")
            #expect(stale.stderr.contains("changed on another device"), "\(stale.stderr)")
            #expect(Self.files(under: cloud) == files, "the old key wrote into the folder")
        }
        #expect(try runner.cn(at: thief, "show", "after the new key").status != 0)

        // b takes the new key up with the new passphrase and reads old and new, attachment included.
        #expect(try runner.cn(at: b, "add", "b while stale", "--body", "waits").status == 0)
        let refused = try runner.cn(at: b, "sync")
        #expect(refused.status == 1 && refused.stderr.contains("changed on another device"), "\(refused.stderr)")
        #expect(Self.files(under: cloud) == files, "b wrote with the old key")
        let taken = try EncryptionLifecycleCLITests.cn(runner, b, CLIRunner.passphraseEnvironment(Self.rotated), "sync")
        #expect(taken.status == 0, "\(taken.stderr)")
        #expect(try runner.cn(at: b, "show", "after the new key").stdout == "secret words")
        #expect(try runner.cn(at: b, "show", "before the new key").stdout == "old words")
        // Remembered: the next sync needs no passphrase.
        #expect(try runner.cn(at: b, "sync").status == 0)
        #expect(try runner.cn(at: a, "sync").status == 0)
        #expect(try runner.cn(at: a, "show", "b while stale").stdout == "waits")

        // A new device joins with the new passphrase and reads both keys' notes and the attachment.
        let joined = try runner.run(
            ["sync", "init", cloud, "--data-dir", runner.device("c").path],
            environment: CLIRunner.passphraseEnvironment(Self.rotated))
        #expect(joined.status == 0, "\(joined.stderr)")
        let c = runner.device("c")
        #expect(try runner.cn(at: c, "show", "before the new key").stdout == "old words")
        #expect(try runner.cn(at: c, "show", "after the new key").stdout == "secret words")
        let copy = runner.home.appendingPathComponent("copy.txt")
        let out = try runner.cn(at: c, "attachment", "before the new key", "report.txt", "-o", copy.path)
        #expect(out.status == 0, "\(out.stderr)")
        #expect(try String(contentsOf: copy, encoding: .utf8) == "attached before the new key\n")
        // The old passphrase opens nothing any more.
        let old = try runner.run(
            ["sync", "init", cloud, "--data-dir", runner.device("d").path],
            environment: CLIRunner.passphraseEnvironment(CLIRunner.passphrase))
        #expect(old.status == 1 && old.stderr.contains("wrong passphrase"), "\(old.stderr)")
    }

    @Test("a second --new-key keeps every earlier key: all notes stay readable on every device")
    func twoNewKeys() throws {
        let runner = try CLIRunner()
        defer { runner.cleanUp() }
        let (_, a, b) = try runner.devicesSharingACloudFolder(encrypted: true)
        var passphrase = CLIRunner.passphrase
        for round in 1...2 {
            #expect(try runner.cn(at: a, "add", "note \(round)", "--body", "body \(round)").status == 0)
            #expect(try runner.cn(at: a, "sync").status == 0)
            var environment = CLIRunner.passphraseEnvironment(passphrase)
            environment["CLOUDNOTES_NEW_PASSPHRASE"] = "pass \(round)"
            let changed = try runner.run(
                ["sync", "passphrase", "--new-key", "--data-dir", a.path], environment: environment)
            #expect(changed.status == 0, "\(changed.stderr)")
            #expect(changed.stdout.contains("key \(round + 1) started"), "\(changed.stdout)")
            passphrase = "pass \(round)"
        }
        #expect(try runner.cn(at: a, "add", "note 3", "--body", "body 3").status == 0)
        #expect(try runner.cn(at: a, "sync").status == 0)
        let taken = try EncryptionLifecycleCLITests.cn(runner, b, CLIRunner.passphraseEnvironment(passphrase), "sync")
        #expect(taken.status == 0, "\(taken.stderr)")
        for round in 1...3 { #expect(try runner.cn(at: b, "show", "note \(round)").stdout == "body \(round)") }
    }

    @Test("a device with the old key follows a move made after --new-key, given the new passphrase")
    func followsAMoveAfterANewKey() throws {
        let runner = try CLIRunner()
        defer { runner.cleanUp() }
        let (_, a, b) = try runner.devicesSharingACloudFolder(encrypted: true)
        #expect(try runner.cn(at: b, "sync").status == 0)
        #expect(try Self.rotate(runner, a).status == 0)
        let place = runner.home.appendingPathComponent("second place").path
        let moved = try EncryptionLifecycleCLITests.cn(
            runner, a, CLIRunner.passphraseEnvironment(Self.rotated), "sync", "move", place)
        #expect(moved.status == 0, "\(moved.stderr)")
        #expect(try runner.cn(at: a, "add", "after the move", "--body", "moved words").status == 0)
        #expect(try runner.cn(at: a, "sync").status == 0)
        let refused = try runner.cn(at: b, "sync")
        #expect(refused.status == 1 && refused.stderr.contains("changed on another device"), "\(refused.stderr)")
        let followed = try EncryptionLifecycleCLITests.cn(
            runner, b, CLIRunner.passphraseEnvironment(Self.rotated), "sync")
        #expect(followed.status == 0, "\(followed.stderr)")
        #expect(try runner.cn(at: b, "show", "after the move").stdout == "moved words")
    }
}
