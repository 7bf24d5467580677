import Foundation
import Testing

@Suite struct ConfigTests {
    func write(_ cli: CLIRunner, _ json: String, to relativePath: String) throws -> String {
        let url = cli.home.appendingPathComponent(relativePath)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(json.utf8).write(to: url)
        return url.path
    }

    func report(_ cli: CLIRunner, _ arguments: [String] = [], environment: [String: String] = [:]) throws -> [String:
        Any]
    {
        let result = try cli.run(["config", "--json"] + arguments, environment: environment)
        #expect(result.status == 0, "\(result.stderr)")
        return try #require(try JSONSerialization.jsonObject(with: result.stdoutData) as? [String: Any])
    }

    func value(_ report: [String: Any], _ key: String) -> [String: Any]? {
        (report["values"] as? [String: Any])?[key] as? [String: Any]
    }

    @Test func withoutAFileTheDefaultsFollowTheXDGDirectories() throws {
        let cli = try CLIRunner()
        defer { cli.cleanUp() }
        let r = try report(cli)
        #expect(r["file"] == nil)
        #expect(r["source"] as? String == "none: embedded defaults")
        #expect(value(r, "dataDirectory")?["value"] as? String == cli.home.path + "/xdg-data/cloudnotes")
        #expect(value(r, "dataDirectory")?["origin"] as? String == "default")
        #expect(value(r, "editor")?["value"] is NSNull)
        #expect(value(r, "syncDebounceSeconds")?["value"] as? Double == 2)
        // The editor's saving rules: the quiet delay and the maximum wait while typing goes on.
        #expect(value(r, "autosaveSeconds")?["value"] as? Double == 1.5)
        #expect(value(r, "autosaveMaxSeconds")?["value"] as? Double == 5)
        #expect((value(r, "theme")?["value"] as? [String: String])?["favorite"] == "yellow")
        #expect((r["warnings"] as? [Any])?.isEmpty == true)
        #expect(value(r, "keyBindings") == nil, "keyBindings is not a setting")
    }

    @Test func aFileWithTheRetiredKeyBindingsStillWorksAndSaysItIsIgnored() throws {
        let cli = try CLIRunner()
        defer { cli.cleanUp() }
        let file = try write(cli, #"{"keyBindings": {"quit": "x"}, "deviceName": "pc"}"#, to: "c.json")
        let r = try report(cli, ["--config", file])
        #expect(value(r, "deviceName")?["value"] as? String == "pc")
        #expect(value(r, "keyBindings") == nil)
        #expect(
            r["warnings"] as? [String] == [
                "\(file): key \"keyBindings\" is ignored: the app's keys are fixed (press ? in the app)"
            ])
        let text = try cli.run(["config", "--config", file])
        #expect(text.status == 0)
        #expect(!text.stdout.contains("keyBindings"), "\(text.stdout)")
        #expect(text.stderr.contains("\"keyBindings\" is ignored"), "\(text.stderr)")
    }

    @Test func theOptionBeatsTheEnvironmentWhichBeatsXDG() throws {
        let cli = try CLIRunner()
        defer { cli.cleanUp() }
        let xdg = try write(cli, #"{"deviceName": "xdg"}"#, to: "xdg-config/cloudnotes/config.json")
        let env = try write(cli, #"{"deviceName": "env"}"#, to: "env.json")
        let option = try write(cli, #"{"deviceName": "option", "syncDebounceSeconds": 0.5}"#, to: "option.json")
        let fromXDG = try report(cli)
        #expect(fromXDG["file"] as? String == xdg)
        #expect(value(fromXDG, "deviceName")?["value"] as? String == "xdg")
        #expect(value(fromXDG, "deviceName")?["origin"] as? String == xdg)
        let fromEnv = try report(cli, environment: ["CLOUDNOTES_CONFIG": env])
        #expect(fromEnv["source"] as? String == "\(env) ($CLOUDNOTES_CONFIG)")
        #expect(value(fromEnv, "deviceName")?["value"] as? String == "env")
        let fromOption = try report(cli, ["--config", option], environment: ["CLOUDNOTES_CONFIG": env])
        #expect(fromOption["source"] as? String == "\(option) (--config)")
        #expect(value(fromOption, "deviceName")?["value"] as? String == "option")
        #expect(value(fromOption, "syncDebounceSeconds")?["value"] as? Double == 0.5)
        #expect(value(fromOption, "syncDebounceSeconds")?["origin"] as? String == option)
        #expect(value(fromOption, "pollIntervalSeconds")?["origin"] as? String == "default")
        let text = try cli.run(["config", "--config", option])
        #expect(text.stdout.hasPrefix("config file: \(option) (--config)\n"))
        #expect(text.stdout.contains("deviceName           option  (\(option))"))
    }

    @Test func theDataDirectoryComesFromTheFileUnlessDataDirIsGiven() throws {
        let cli = try CLIRunner()
        defer { cli.cleanUp() }
        let notesHome = cli.device("from-config")
        _ = try write(cli, "{\"dataDirectory\": \"\(notesHome.path)\"}", to: "xdg-config/cloudnotes/config.json")
        #expect(try cli.run(["add", "In config dir", "--body", "x"]).status == 0)
        #expect(FileManager.default.fileExists(atPath: notesHome.appendingPathComponent("notes.sqlite").path))
        #expect(try cli.ids().isEmpty, "--data-dir overrides the config")
        let r = try report(cli, ["--data-dir", cli.dataDirectory.path])
        #expect(value(r, "dataDirectory")?["value"] as? String == cli.dataDirectory.path)
        #expect(value(r, "dataDirectory")?["origin"] as? String == "--data-dir")
    }

    @Test func aBadValueIsAnErrorNamingTheFileTheKeyAndWhatWasExpected() throws {
        let cli = try CLIRunner()
        defer { cli.cleanUp() }
        let bad = try write(cli, #"{"deviceName": "ok", "syncDebounceSeconds": "fast"}"#, to: "bad.json")
        for arguments in [
            ["list", "--config", bad], ["config", "--config", bad], ["add", "T", "--body", "b", "--config", bad],
        ] {
            let result = try cli.run(arguments + ["--data-dir", cli.dataDirectory.path])
            #expect(result.status == 1, "\(arguments)")
            #expect(result.stdout.isEmpty)
            #expect(
                result.stderrLines == [
                    "cloudnotes: config \(bad): key \"syncDebounceSeconds\": expected seconds between 0 and 3600, got \"fast\""
                ])
        }
        #expect(try cli.ids().isEmpty)
        let theme = try write(cli, #"{"theme": {"accent": "purple"}}"#, to: "theme.json")
        let themeResult = try cli.run(["list", "--config", theme])
        #expect(themeResult.status == 1)
        #expect(
            themeResult.stderr.contains(theme) && themeResult.stderr.contains("\"theme.accent\"")
                && themeResult.stderr.contains("expected a colour"))
        let notJSON = try write(cli, "{nope", to: "broken.json")
        let notJSONResult = try cli.run(["list", "--config", notJSON])
        #expect(notJSONResult.status == 1)
        #expect(notJSONResult.stderrLines.count == 1)
        #expect(notJSONResult.stderr.contains(notJSON))
        let missing = try cli.run(["list", "--config", cli.home.path + "/missing.json"])
        #expect(missing.status == 1)
        #expect(missing.stderr.contains("missing.json: the file does not exist"))
    }

    @Test func unknownKeysAreReportedOnStderrAndOtherwiseIgnored() throws {
        let cli = try CLIRunner()
        defer { cli.cleanUp() }
        let file = try write(
            cli, #"{"colour": "red", "theme": {"bogus": "red"}, "deviceName": "d"}"#,
            to: "xdg-config/cloudnotes/config.json")
        let result = try cli.cn("list")
        #expect(result.status == 0)
        #expect(result.stderrLines.count == 2, "\(result.stderr)")
        #expect(result.stderr.contains("cloudnotes: warning: \(file): unknown key \"colour\" is ignored"))
        #expect(result.stderr.contains("\"theme.bogus\""))
        let r = try report(cli)
        #expect((r["warnings"] as? [String])?.count == 2)
        #expect(value(r, "deviceName")?["value"] as? String == "d")
    }
}
