import Foundation
import NotesTestSupport
import Testing

/// `cloudnotes share id` (issue 24, "An identity per account"): one identity per account, the
/// same on every device of an encrypted cloud folder, never written into a plain one.
@Suite("share id: the account's identity code and fingerprint")
struct ShareIDCLITests {
    static func identity(_ runner: CLIRunner, _ device: URL, _ extra: String...) throws -> [String: String] {
        let result = try runner.run(
            ["share", "id", "--json"] + extra + ["--data-dir", device.path],
            environment: CLIRunner.passphraseEnvironment(CLIRunner.passphrase))
        #expect(result.status == 0, "\(result.stderr)")
        return (try JSONSerialization.jsonObject(with: result.stdoutData) as? [String: String]) ?? [:]
    }

    @Test("every device of an encrypted cloud folder shows the same identity; the folder holds it sealed")
    func sameIdentityOnEveryDevice() throws {
        let runner = try CLIRunner()
        defer { runner.cleanUp() }
        let (cloud, a, b) = try runner.devicesSharingACloudFolder(encrypted: true)
        let first = try Self.identity(runner, a, "--name", "Ana")
        #expect(first["code"]?.hasPrefix("cnid1.") == true && first["kept"] == "cloud", "\(first)")
        #expect(first["fingerprint"]?.wholeMatch(of: /\d{4}( \d{4}){5}/) != nil, "\(first)")
        #expect(first["name"] == "Ana")
        let second = try Self.identity(runner, b)
        #expect(second["fingerprint"] == first["fingerprint"], "\(second)")
        // Asked again, a's code is the same line (the name kept on the device).
        #expect(try Self.identity(runner, a)["code"] == first["code"])
        let sealed = try Data(contentsOf: URL(fileURLWithPath: cloud + "/private/identity.json"))
        #expect(sealed.starts(with: Data("CNSEAL".utf8)))
        let local = try Data(contentsOf: a.appendingPathComponent("identity.json"))
        let mode =
            try FileManager.default.attributesOfItem(atPath: a.appendingPathComponent("identity.json").path)[
                .posixPermissions] as? Int
        #expect(mode == 0o600)
        #expect(!local.isEmpty)
        // The human form says the same.
        let printed = try runner.cn(at: b, "share", "id")
        #expect(printed.stdout.contains("fingerprint:   \(first["fingerprint"] ?? "?")"), "\(printed.stdout)")
    }

    @Test("with a plain cloud folder the identity stays on the device and the folder holds no key")
    func plainFolderKeepsItOnTheDevice() throws {
        let runner = try CLIRunner()
        defer { runner.cleanUp() }
        let (cloud, a, _) = try runner.devicesSharingACloudFolder()
        let shown = try Self.identity(runner, a, "--name", "Bo")
        #expect(shown["kept"] == "device", "\(shown)")
        #expect(!FileManager.default.fileExists(atPath: cloud + "/private/identity.json"))
        let printed = try runner.cn(at: a, "share", "id")
        #expect(printed.stdout.contains("in this data directory only"), "\(printed.stdout)")
        #expect(try Self.identity(runner, a)["fingerprint"] == shown["fingerprint"])
    }

    @Test("a bad name or a damaged identity file is one line, exit 1, and nothing is replaced")
    func badInput() throws {
        let runner = try CLIRunner()
        defer { runner.cleanUp() }
        let badName = try runner.cn("share", "id", "--name", "tab\there")
        #expect(badName.status == 1 && badName.stderr.contains("display name"), "\(badName.stderr)")
        #expect(try runner.cn("share", "id").status == 0)
        let file = runner.dataDirectory.appendingPathComponent("identity.json")
        try Data("{\"agreement\":\"zz\"}\n".utf8).write(to: file)
        let damaged = try runner.cn("share", "id")
        #expect(damaged.status == 1 && damaged.stderr.contains("is damaged"), "\(damaged.stderr)")
        #expect(try Data(contentsOf: file) == Data("{\"agreement\":\"zz\"}\n".utf8))
    }
}
