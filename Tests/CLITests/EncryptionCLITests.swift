import Foundation
import NotesTestSupport
import Testing

/// `sync init --encrypt`, joining with the passphrase, `sync passphrase` (SYNC-FORMAT rule 14)
/// through the real binary.
@Suite("Encrypted cloud folder from the CLI")
struct EncryptionCLITests {
    /// Every file under `root`, path → bytes.
    static func files(_ root: String) -> [String: Data] {
        var files: [String: Data] = [:]
        let enumerator = FileManager.default.enumerator(atPath: root)
        while let relative = enumerator?.nextObject() as? String {
            if let data = FileManager.default.contents(atPath: root + "/" + relative) { files[relative] = data }
        }
        return files
    }

    @Test("a note written on one device reaches another; the folder holds none of its words")
    func notesCrossEncrypted() throws {
        let runner = try CLIRunner()
        defer { runner.cleanUp() }
        let (cloud, a, b) = try runner.devicesSharingACloudFolder(encrypted: true)
        #expect(try runner.cn(at: a, "add", "Groceries zanzibar", "--body", "oat milk quokka").status == 0)
        #expect(try runner.cn(at: a, "sync").status == 0)
        let synced = try runner.cn(at: b, "sync")
        #expect(synced.status == 0, "\(synced.stderr)")
        #expect(try runner.cn(at: b, "show", "Groceries zanzibar").stdout == "oat milk quokka")
        for (path, data) in Self.files(cloud) {
            for word in ["zanzibar", "quokka", "oat milk", "Groceries"] {
                #expect(!path.contains(word) && data.range(of: Data(word.utf8)) == nil, "\(path) holds \(word)")
            }
        }
        let status = try #require(
            try JSONSerialization.jsonObject(with: runner.cn(at: b, "status", "--json").stdoutData) as? [String: Any])
        #expect(status["encrypted"] as? Bool == true)
        #expect(try runner.cn(at: b, "status").stdout.contains("(encrypted)"))
        // The key is remembered in the data directory, readable by its owner only.
        let attributes = try FileManager.default.attributesOfItem(
            atPath: b.appendingPathComponent("folder-key.json").path)
        #expect((attributes[.posixPermissions] as? Int) == 0o600)
    }

    @Test("a wrong passphrase is one line, exit 1, and the folder stays byte-identical")
    func wrongPassphrase() throws {
        let runner = try CLIRunner()
        defer { runner.cleanUp() }
        let (cloud, a, _) = try runner.devicesSharingACloudFolder(bindingB: false, encrypted: true)
        #expect(try runner.cn(at: a, "add", "n", "--body", "x").status == 0)
        #expect(try runner.cn(at: a, "sync").status == 0)
        let before = Self.files(cloud)
        let c = runner.device("c")
        let wrong = try runner.run(
            ["sync", "init", cloud, "--data-dir", c.path], environment: CLIRunner.passphraseEnvironment("wrong"))
        #expect(wrong.status == 1)
        #expect(wrong.stderr == "cloudnotes: wrong passphrase for this encrypted cloud folder\n")
        #expect(Self.files(cloud) == before)
        // Without any passphrase and no terminal: a clear error, nothing written either.
        let none = try runner.run(["sync", "init", cloud, "--data-dir", c.path])
        #expect(none.status == 1)
        #expect(none.stderr.contains("CLOUDNOTES_PASSPHRASE"), "\(none.stderr)")
        #expect(Self.files(cloud) == before)
        // status never asks: it says the folder needs its passphrase, and writes nothing.
        let status = try runner.cn(at: c, "status")
        #expect(status.status == 0, "\(status.stderr)")
        #expect(Self.files(cloud) == before)
    }

    @Test("a passphrase change: other devices keep syncing, a new device needs the new passphrase")
    func passphraseChange() throws {
        let runner = try CLIRunner()
        defer { runner.cleanUp() }
        let (cloud, a, b) = try runner.devicesSharingACloudFolder(encrypted: true)
        var environment = CLIRunner.passphraseEnvironment("new passphrase")
        environment["CLOUDNOTES_NEW_PASSPHRASE"] = "new passphrase"
        let changed = try runner.run(["sync", "passphrase", "--data-dir", a.path], environment: environment)
        #expect(changed.status == 0, "\(changed.stderr)")
        #expect(changed.stdout.contains("keys file 2"))
        #expect(try runner.cn(at: a, "add", "after the change", "--body", "still here").status == 0)
        #expect(try runner.cn(at: a, "sync").status == 0)
        #expect(try runner.cn(at: b, "sync").status == 0)
        #expect(try runner.cn(at: b, "show", "after the change").stdout == "still here")
        let c = runner.device("c")
        let joined = try runner.run(
            ["sync", "init", cloud, "--data-dir", c.path],
            environment: CLIRunner.passphraseEnvironment("new passphrase"))
        #expect(joined.status == 0, "\(joined.stderr)")
        #expect(try runner.cn(at: c, "show", "after the change").stdout == "still here")
    }

    @Test("--encrypt on a folder that is not empty fails and leaves no key behind: a plain folder then syncs")
    func encryptRefusedLeavesNoKey() throws {
        let runner = try CLIRunner()
        defer { runner.cleanUp() }
        let busy = runner.home.appendingPathComponent("busy")
        try FileManager.default.createDirectory(at: busy, withIntermediateDirectories: true)
        try Data("x".utf8).write(to: busy.appendingPathComponent("something.txt"))
        let a = runner.device("a")
        let refused = try runner.run(
            ["sync", "init", busy.path, "--encrypt", "--data-dir", a.path],
            environment: CLIRunner.passphraseEnvironment(CLIRunner.passphrase))
        #expect(refused.status == 1)
        #expect(!FileManager.default.fileExists(atPath: a.appendingPathComponent("folder-key.json").path))
        let plain = runner.home.appendingPathComponent("plain").path
        #expect(try runner.cn(at: a, "sync", "init", plain).status == 0)
        #expect(try runner.cn(at: a, "add", "n", "--body", "x").status == 0)
        let synced = try runner.cn(at: a, "sync")
        #expect(synced.status == 0, "\(synced.stderr)")
    }
}
