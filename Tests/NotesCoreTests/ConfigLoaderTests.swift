import Foundation
import Testing

@testable import NotesCore

/// A temporary home with the three places a config file can come from.
private final class ConfigFixture {
    let root: URL
    var home: String { root.appendingPathComponent("home").path }
    var xdgConfig: String { root.appendingPathComponent("xdg").path }

    init() throws {
        root = FileManager.default.temporaryDirectory.appendingPathComponent("cloudnotes-config-\(UUID().uuidString)")
        try FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: root) }

    @discardableResult
    func write(_ json: String, to path: String) throws -> String {
        let url = URL(fileURLWithPath: path)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(json.utf8).write(to: url)
        return path
    }

    func environment(_ extra: [String: String] = [:]) -> [String: String] {
        ["HOME": home, "XDG_CONFIG_HOME": xdgConfig].merging(extra) { $1 }
    }

    func load(_ json: String, file name: String = "c.json") throws -> LoadedConfig {
        let path = try write(json, to: root.appendingPathComponent(name).path)
        return try ConfigLoader.load(explicitPath: path, environment: environment())
    }

    func error(_ json: String) throws -> ConfigError {
        do {
            _ = try load(json)
        } catch let error as ConfigError {
            return error
        }
        Issue.record("\(json) was accepted")
        return ConfigError(file: "", key: nil, message: "")
    }
}

@Suite struct ConfigLoaderTests {
    @Test func theExplicitPathWinsThenTheEnvironmentThenXDGThenDefaults() throws {
        let f = try ConfigFixture()
        let xdg = try f.write(#"{"deviceName": "from-xdg"}"#, to: f.xdgConfig + "/cloudnotes/config.json")
        let env = try f.write(#"{"deviceName": "from-env"}"#, to: f.root.path + "/env.json")
        let option = try f.write(#"{"deviceName": "from-option"}"#, to: f.root.path + "/option.json")

        let a = try ConfigLoader.load(explicitPath: option, environment: f.environment(["CLOUDNOTES_CONFIG": env]))
        #expect(a.config.deviceName == "from-option" && a.source == .option(option))
        let b = try ConfigLoader.load(explicitPath: nil, environment: f.environment(["CLOUDNOTES_CONFIG": env]))
        #expect(b.config.deviceName == "from-env" && b.source == .environment(env))
        let c = try ConfigLoader.load(explicitPath: nil, environment: f.environment(["CLOUDNOTES_CONFIG": ""]))
        #expect(c.config.deviceName == "from-xdg" && c.source == .xdg(xdg))
        #expect(c.keysFromFile == ["deviceName"])

        try FileManager.default.removeItem(atPath: xdg)
        let d = try ConfigLoader.load(explicitPath: nil, environment: f.environment())
        #expect(d.source == .defaults && d.warnings.isEmpty)
        #expect(d.config == AppConfig.defaults(environment: f.environment()))
    }

    @Test func withoutXDGConfigHomeTheFileIsUnderHomeDotConfig() throws {
        let f = try ConfigFixture()
        let path = try f.write(#"{"editor": "nano"}"#, to: f.home + "/.config/cloudnotes/config.json")
        for env in [
            ["HOME": f.home], ["HOME": f.home, "XDG_CONFIG_HOME": ""],
            ["HOME": f.home, "XDG_CONFIG_HOME": "relative/dir"],
        ] {
            let loaded = try ConfigLoader.load(explicitPath: nil, environment: env)
            #expect(loaded.source == .xdg(path) && loaded.config.editor == "nano")
        }
    }

    @Test func defaultsLiveUnderXDGDataHome() {
        let a = AppConfig.defaults(environment: ["HOME": "/h"])
        #expect(a.dataDirectory == "/h/.local/share/cloudnotes" && a.cloudFolder == "/h/.local/share/cloudnotes-cloud")
        let b = AppConfig.defaults(environment: ["HOME": "/h", "XDG_DATA_HOME": "/d"])
        #expect(b.dataDirectory == "/d/cloudnotes" && b.conflictStrategy == .merge && b.syncDebounceSeconds == 2)
        #expect(
            AppConfig.defaults(environment: ["HOME": "/h", "XDG_DATA_HOME": "data"]).dataDirectory
                == "/h/.local/share/cloudnotes")
    }

    @Test("an empty, unset or relative HOME falls back to the account's home, never to /.local/share")
    func anEmptyHomeFallsBackToTheAccountsHome() throws {
        let account = try #require(HomeDirectory.accountHome())
        for environment in [["HOME": ""], [:], ["HOME": "relative"]] {
            let defaults = AppConfig.defaults(environment: environment)
            #expect(defaults.dataDirectory == account + "/.local/share/cloudnotes", "\(environment)")
            #expect(!defaults.dataDirectory.hasPrefix("/.local"))
        }
    }

    @Test func withoutAnyHomeThereIsNoDefaultDataDirectoryOrCloudFolder() {
        let none = AppConfig.defaults(environment: ["HOME": ""], home: nil)
        #expect(none.dataDirectory.isEmpty && none.cloudFolder == nil)
        let xdg = AppConfig.defaults(environment: ["XDG_DATA_HOME": "/d"], home: nil)
        #expect(xdg.dataDirectory == "/d/cloudnotes")
        #expect(HomeDirectory.usable("/") == nil && HomeDirectory.usable("") == nil)
    }

    @Test func aMissingExplicitFileIsAnErrorNotTheDefaults() throws {
        let f = try ConfigFixture()
        let missing = f.root.path + "/nope.json"
        #expect(throws: ConfigError(file: missing, key: nil, message: "the file does not exist")) {
            try ConfigLoader.load(explicitPath: missing, environment: f.environment())
        }
        #expect(throws: ConfigError(file: missing, key: nil, message: "the file does not exist")) {
            try ConfigLoader.load(explicitPath: nil, environment: f.environment(["CLOUDNOTES_CONFIG": missing]))
        }
    }

    @Test func aTildeExpandsToHomeInPathsAndInTheConfigPath() throws {
        let f = try ConfigFixture()
        try f.write(#"{"dataDirectory": "~/notes", "cloudFolder": "~", "editor": "~/bin/ed"}"#, to: f.home + "/my.json")
        let loaded = try ConfigLoader.load(explicitPath: "~/my.json", environment: f.environment())
        #expect(loaded.source == .option(f.home + "/my.json"))
        #expect(loaded.config.dataDirectory == f.home + "/notes")
        #expect(loaded.config.cloudFolder == f.home)
        #expect(loaded.config.editor == "~/bin/ed")
        #expect(ConfigLoader.expand("~other/x", ["HOME": "/h"]) == "~other/x")
        #expect(ConfigLoader.expand("/a/~/b", ["HOME": "/h"]) == "/a/~/b")
    }

    @Test func everyKeyIsApplied() throws {
        let f = try ConfigFixture()
        let loaded = try f.load(
            """
            {"dataDirectory": "/data", "cloudFolder": null, "deviceName": "pc", "conflictStrategy": "askUser",
             "syncDebounceSeconds": 0.5, "pollIntervalSeconds": 86400, "editor": "vim",
             "autosaveSeconds": 10, "autosaveMaxSeconds": 30, "theme": {"accent": "brightRed"}}
            """)
        let c = loaded.config
        #expect(c.dataDirectory == "/data" && c.cloudFolder == nil && c.deviceName == "pc")
        #expect(c.conflictStrategy == .askUser && c.syncDebounceSeconds == 0.5 && c.pollIntervalSeconds == 86400)
        #expect(c.editor == "vim" && c.theme["accent"] == "brightRed" && c.theme["error"] == "red")
        #expect(c.autosaveSeconds == 10 && c.autosaveMaxSeconds == 30)
        #expect(loaded.warnings.isEmpty)
    }

    @Test(arguments: [
        (#"{"syncDebounceSeconds": "2"}"#, "syncDebounceSeconds", "expected seconds between 0 and 3600, got \"2\""),
        (#"{"syncDebounceSeconds": -1}"#, "syncDebounceSeconds", "expected seconds between 0 and 3600, got -1"),
        (#"{"pollIntervalSeconds": 0}"#, "pollIntervalSeconds", "expected seconds between 1 and 86400, got 0"),
        (#"{"pollIntervalSeconds": 86401}"#, "pollIntervalSeconds", "expected seconds between 1 and 86400, got 86401"),
        (#"{"autosaveSeconds": 0}"#, "autosaveSeconds", "expected seconds between 0.1 and 600, got 0"),
        (#"{"autosaveMaxSeconds": 0}"#, "autosaveMaxSeconds", "expected seconds between 0.1 and 600, got 0"),
        (#"{"autosaveMaxSeconds": 601}"#, "autosaveMaxSeconds", "expected seconds between 0.1 and 600, got 601"),
        (#"{"pollIntervalSeconds": true}"#, "pollIntervalSeconds", "expected seconds between 1 and 86400, got true"),
        (
            #"{"conflictStrategy": "newest"}"#, "conflictStrategy",
            "expected one of merge, serverWins, clientWins, askUser, got \"newest\""
        ),
        (#"{"dataDirectory": ""}"#, "dataDirectory", "expected a non-empty path, got \"\""),
        (#"{"dataDirectory": 5}"#, "dataDirectory", "expected a non-empty path, got 5"),
        (#"{"cloudFolder": false}"#, "cloudFolder", "expected a path, or null for local only, got false"),
        (#"{"deviceName": "  "}"#, "deviceName", "expected a non-empty name, got \"  \""),
        (#"{"editor": []}"#, "editor", "expected an editor command, or null, got an array"),
        (#"{"theme": "dark"}"#, "theme", "expected an object of role: colour, got \"dark\""),
    ])
    func wrongValuesNameTheFileTheKeyAndTheExpectation(_ json: String, _ key: String, _ message: String) throws {
        let f = try ConfigFixture()
        let error = try f.error(json)
        #expect(error.key == key)
        #expect(error.message == message)
        #expect(error.file == f.root.path + "/c.json")
        #expect(error.description == "config \(f.root.path)/c.json: key \"\(key)\": \(message)")
    }

    @Test func aBadColourListsTheColours() throws {
        let error = try ConfigFixture().error(#"{"theme": {"accent": "teal", "error": "purple"}}"#)
        #expect(error.key == "theme.accent")
        #expect(
            error.message.hasPrefix("expected a colour (black, blue, brightBlack,")
                && error.message.hasSuffix("got \"teal\""))
    }

    @Test func invalidJSONAndANonObjectTopLevelNameTheFile() throws {
        let f = try ConfigFixture()
        for json in ["{", "{\"a\": }", "", "not json"] {
            let error = try f.error(json)
            #expect(error.key == nil && error.message.hasPrefix("is not valid JSON"), "\(json)")
            #expect(error.description.contains(f.root.path + "/c.json"))
        }
        for json in ["[]", "42", "\"x\"", "null"] {
            let error = try f.error(json)
            #expect(error.key == nil && error.message == "expected a JSON object at the top level", "\(json)")
        }
    }

    @Test func unknownKeysAreWarningsNotErrors() throws {
        let loaded = try ConfigFixture().load(
            """
            {"colour": "red", "theme": {"zebra": "red", "accent": "red", "aardvark": "red"},
             "_comment": "fine", "$schema": "x"}
            """)
        let file = loaded.source.path!
        #expect(
            loaded.warnings == [
                "\(file): unknown key \"colour\" is ignored",
                "\(file): unknown theme role \"theme.aardvark\" (known: accent, conflict, error, favorite, match, muted, pending, selection, synced)",
                "\(file): unknown theme role \"theme.zebra\" (known: accent, conflict, error, favorite, match, muted, pending, selection, synced)",
            ])
        #expect(loaded.config.theme["accent"] == "red")
    }

    @Test func theShippedExampleParsesCleanly() throws {
        let example = URL(fileURLWithPath: #filePath).resolvingSymlinksInPath().deletingLastPathComponent()
            .deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("config.example.json")
        let env = ["HOME": "/home/u"]
        let loaded = try ConfigLoader.load(explicitPath: example.path, environment: env)
        #expect(loaded.warnings.isEmpty)
        #expect(loaded.config.dataDirectory == "/home/u/.local/share/cloudnotes")
        #expect(loaded.config.cloudFolder == "/home/u/.local/share/cloudnotes-cloud")
        #expect(loaded.config.deviceName == "my-laptop")
        #expect(loaded.config.theme == AppConfig.defaults(environment: env).theme)
    }

    @Test func passphraseCommandAndRememberKeyAreRead() throws {
        let loaded = try ConfigFixture().load(#"{"passphraseCommand": "pass show cloudnotes", "rememberKey": false}"#)
        #expect(loaded.warnings.isEmpty)
        #expect(loaded.config.passphraseCommand == "pass show cloudnotes")
        #expect(loaded.config.rememberKey == false)
        #expect(throws: ConfigError.self) { try ConfigFixture().load(#"{"rememberKey": "no"}"#) }
        #expect(throws: ConfigError.self) { try ConfigFixture().load(#"{"passphraseCommand": 3}"#) }
    }

    /// `keyBindings` was read but never used (the TUI's keys are fixed): a file that still has
    /// it, even with values the old loader refused, loads with one warning saying so.
    @Test func theRetiredKeyBindingsLoadsWithAWarningThatItIsIgnored() throws {
        let loaded = try ConfigFixture().load(#"{"keyBindings": {"quit": 1, "fly": "f"}, "deviceName": "pc"}"#)
        let file = loaded.source.path!
        #expect(
            loaded.warnings == [
                "\(file): key \"keyBindings\" is ignored: the app's keys are fixed (press ? in the app)"
            ])
        #expect(loaded.config.deviceName == "pc")
    }

    @Test func theS3SectionIsReadCheckedAndItsSecretsNeverQuoted() throws {
        let fixture = try ConfigFixture()
        let loaded = try fixture.load(
            #"{"cloudFolder": "s3://notes/me", "s3": {"endpoint": "http://127.0.0.1:8333", "region": "eu-1", "#
                + #""profile": "work", "accessKeyId": "AKIDEXAMPLE1234", "secretAccessKey": "s3cr3t", "#
                + #""sessionToken": null, "addressing": "virtual", "colour": "blue"}}"#)
        #expect(
            loaded.config.s3
                == S3Settings(
                    endpoint: "http://127.0.0.1:8333", region: "eu-1", profile: "work", accessKeyID: "AKIDEXAMPLE1234",
                    secretAccessKey: "s3cr3t", addressing: "virtual"))
        #expect(loaded.config.cloudFolder == "s3://notes/me")
        #expect(loaded.warnings.contains { $0.contains("unknown key \"s3.colour\"") })
        #expect(loaded.config.s3.redacted["secretAccessKey"] == "(set)")
        #expect(loaded.config.s3.redacted["accessKeyId"] == "…1234")
        #expect(!loaded.config.s3.redacted.values.contains { $0.contains("s3cr3t") })
        let style = try fixture.error(#"{"s3": {"addressing": "dns"}}"#)
        #expect(style.key == "s3.addressing")
        let endpoint = try fixture.error(#"{"s3": {"endpoint": "127.0.0.1:8333"}}"#)
        #expect(endpoint.message.contains("http:// or https://"))
        let secret = try fixture.error(#"{"s3": {"secretAccessKey": 123456789}}"#)
        #expect(secret.key == "s3.secretAccessKey")
        #expect(!secret.description.contains("123456789"))
    }
}
