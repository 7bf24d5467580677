import Foundation
import NotesTestSupport
import Testing

/// Settings that follow the person (issue 25, SYNC-FORMAT "Settings"): `config set` on one
/// device is in force on the others after sync; `--here` stays on its device; the newest write
/// of a key wins everywhere; a removal does not come back; device-only keys never leave.
@Suite("synced settings: config set, unset and --here across devices")
struct SyncedSettingsCLITests {
    /// `config --json`'s values: key → (value, origin).
    static func values(_ runner: CLIRunner, _ device: URL, sourceLocation: SourceLocation = #_sourceLocation) throws
        -> [String: (value: Any, origin: String)]
    {
        let result = try runner.cn(at: device, "config", "--json")
        #expect(result.status == 0, "\(result.stderr)", sourceLocation: sourceLocation)
        let report = try JSONSerialization.jsonObject(with: result.stdoutData) as? [String: Any]
        let values = report?["values"] as? [String: [String: Any]] ?? [:]
        return values.mapValues { ($0["value"] ?? NSNull(), $0["origin"] as? String ?? "") }
    }

    static func number(_ runner: CLIRunner, _ device: URL, _ key: String) throws -> Double? {
        try values(runner, device)[key]?.value as? Double
    }

    @discardableResult
    static func ok(
        _ runner: CLIRunner, _ device: URL, _ arguments: String..., sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> String {
        let result = try runner.run(arguments + ["--data-dir", device.path])
        #expect(result.status == 0, "\(arguments): \(result.stderr)", sourceLocation: sourceLocation)
        return result.stdout
    }

    enum Place: String, CaseIterable, CustomTestStringConvertible {
        case folder, encryptedFolder, bucket
        var testDescription: String { rawValue }
    }

    @Test("a setting set on A is in force on B after sync, and B's sync says so", arguments: Place.allCases)
    func setOnAInForceOnB(place: Place) async throws {
        let runner = try CLIRunner()
        defer { runner.cleanUp() }
        let (_, a, b) =
            switch place {
            case .folder: try runner.devicesSharingACloudFolder()
            case .encryptedFolder: try runner.devicesSharingACloudFolder(encrypted: true)
            case .bucket: try await runner.devicesSharingACloudFolder(over: .s3)
            }
        #expect(try Self.ok(runner, a, "config", "set", "theme.accent", "cyan").contains("next sync takes it"))
        try Self.ok(runner, a, "config", "set", "autosaveSeconds", "3")
        // In force on A at once, before any sync.
        #expect(try Self.number(runner, a, "autosaveSeconds") == 3)
        #expect(try Self.number(runner, b, "autosaveSeconds") == 1.5)
        try Self.ok(runner, a, "sync")
        let synced = try Self.ok(runner, b, "sync")
        #expect(synced.contains("settings changed on another device: autosaveSeconds, theme.accent"), "\(synced)")
        let onB = try Self.values(runner, b)
        #expect(onB["autosaveSeconds"]?.value as? Double == 3)
        #expect(
            onB["autosaveSeconds"]?.origin.hasPrefix("synced from ") == true, "\(onB["autosaveSeconds"]?.origin ?? "")")
        #expect((onB["theme"]?.value as? [String: String])?["accent"] == "cyan")
        #expect(onB["theme"]?.origin.contains("accent synced from ") == true)
        // A second sync changes nothing more.
        #expect(!(try Self.ok(runner, b, "sync")).contains("settings changed"))
    }

    /// Before the fix the first sync failed: `private/` did not exist yet when the setting came.
    @Test("a setting set before the first sync of the default cloud folder is published by that sync")
    func settingBeforeTheFirstSync() throws {
        let runner = try CLIRunner()
        defer { runner.cleanUp() }
        let device = runner.device("fresh")
        try Self.ok(runner, device, "config", "set", "autosaveSeconds", "3")
        try Self.ok(runner, device, "sync")
        let other = runner.device("other")
        try Self.ok(runner, other, "sync")
        #expect(try Self.number(runner, other, "autosaveSeconds") == 3)
    }

    @Test("--here wins on its device only, over the synced value and the config file; unset --here gives it back")
    func hereWinsOnItsDeviceOnly() throws {
        let runner = try CLIRunner()
        defer { runner.cleanUp() }
        let (_, a, b) = try runner.devicesSharingACloudFolder()
        try Self.ok(runner, a, "config", "set", "pollIntervalSeconds", "60")
        try Self.ok(runner, a, "sync")
        try Self.ok(runner, b, "sync")
        #expect(
            try Self.ok(runner, b, "config", "set", "pollIntervalSeconds", "5", "--here").contains("this device only"))
        try runner.mergeConfig(["pollIntervalSeconds": 90])
        let onB = try Self.values(runner, b)
        #expect(onB["pollIntervalSeconds"]?.value as? Double == 5)
        #expect(onB["pollIntervalSeconds"]?.origin == "this device (config set --here)")
        try Self.ok(runner, b, "sync")
        try Self.ok(runner, a, "sync")
        // A: the config file (shared by both devices here) wins over the synced 60; B's 5 never left B.
        #expect(try Self.values(runner, a)["pollIntervalSeconds"]?.value as? Double == 90)
        try Self.ok(runner, b, "config", "unset", "pollIntervalSeconds", "--here")
        #expect(try Self.number(runner, b, "pollIntervalSeconds") == 90)
        // Without the key in the file, the synced value is in force again on B.
        try Data("{}".utf8).write(to: runner.home.appendingPathComponent("xdg-config/cloudnotes/config.json"))
        let fileless = try Self.values(runner, b)["pollIntervalSeconds"]
        #expect(fileless?.value as? Double == 60 && fileless?.origin.hasPrefix("synced from ") == true)
    }

    @Test("two devices set one key: both end with the later write; a removal does not come back")
    func concurrentSetsConvergeAndRemovalsStay() throws {
        let runner = try CLIRunner()
        defer { runner.cleanUp() }
        let (cloud, a, b) = try runner.devicesSharingACloudFolder()
        try Self.ok(runner, a, "config", "set", "syncDebounceSeconds", "10")
        try Self.ok(runner, b, "config", "set", "syncDebounceSeconds", "20")
        for device in [a, b, a] { try Self.ok(runner, device, "sync") }
        #expect(try Self.number(runner, a, "syncDebounceSeconds") == 20)
        #expect(try Self.number(runner, b, "syncDebounceSeconds") == 20)

        try Self.ok(runner, b, "config", "unset", "syncDebounceSeconds")
        for device in [b, a, b, a] { try Self.ok(runner, device, "sync") }
        #expect(try Self.values(runner, a)["syncDebounceSeconds"]?.origin == "default")
        #expect(try Self.number(runner, b, "syncDebounceSeconds") == 2)
        // A third device joining later takes the removal too, not the older writes.
        let c = runner.device("c")
        #expect(try runner.run(["sync", "init", cloud, "--data-dir", c.path]).status == 0)
        try Self.ok(runner, c, "sync")
        #expect(try Self.values(runner, c)["syncDebounceSeconds"]?.origin == "default")
    }

    @Test("device-only keys, unknown keys and bad values are refused in one line; nothing is written")
    func refusedWithNothingWritten() throws {
        let runner = try CLIRunner()
        defer { runner.cleanUp() }
        let (cloud, a, _) = try runner.devicesSharingACloudFolder()
        for (arguments, message) in [
            (["dataDirectory", "/elsewhere"], "dataDirectory belongs to this device alone"),
            (["passphraseCommand", "pass show x"], "passphraseCommand belongs to this device alone"),
            (["colour", "red"], "unknown setting \"colour\""),
            (["bodyHashtags", "maybe"], "bodyHashtags takes true or false, not \"maybe\""),
            (["autosaveSeconds", "9000"], "autosaveSeconds: expected seconds between 0.1 and 600"),
            (["theme.accent", "chartreuse"], "theme.accent"),
        ] {
            let result = try runner.run(["config", "set"] + arguments + ["--data-dir", a.path])
            #expect(result.status == 1, "\(arguments)")
            #expect(result.stderr.contains(message), "\(arguments): \(result.stderr)")
            #expect(result.stderr.split(separator: "\n").count == 1, "\(result.stderr)")
        }
        try Self.ok(runner, a, "sync")
        let settings = (try? FileManager.default.contentsOfDirectory(atPath: cloud + "/private/settings")) ?? []
        #expect(settings.isEmpty, "\(settings)")
    }

    @Test("what describes the machine never reaches the cloud folder (plain, grepped)")
    func deviceOnlyValuesNeverLeave() throws {
        let runner = try CLIRunner()
        defer { runner.cleanUp() }
        let (cloud, a, b) = try runner.devicesSharingACloudFolder()
        try runner.mergeConfig([
            "passphraseCommand": "echo MARKER-PASSCMD", "editor": "MARKER-EDITOR", "maxNoteBytes": 123_457,
        ])
        try Self.ok(runner, a, "config", "set", "theme.muted", "blue")
        try Self.ok(runner, a, "config", "set", "autosaveMaxSeconds", "7", "--here")
        try Self.ok(runner, a, "add", "Note", "--body", "text")
        try Self.ok(runner, a, "sync")
        try Self.ok(runner, b, "sync")
        let grep = Process()
        grep.executableURL = URL(fileURLWithPath: "/usr/bin/grep")
        grep.arguments = ["-r", "-l", "-E", "MARKER-|123457|autosaveMaxSeconds|\(a.path)", cloud]
        let out = Pipe()
        grep.standardOutput = out
        try grep.run()
        grep.waitUntilExit()
        let found = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(grep.terminationStatus == 1, "found in the cloud folder: \(found)")
        // What was set to sync did arrive.
        #expect((try Self.values(runner, b)["theme"]?.value as? [String: String])?["muted"] == "blue")
        #expect(try Self.number(runner, b, "autosaveMaxSeconds") == 5)
    }
}
