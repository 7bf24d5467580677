import ArgumentParser
import Foundation
import NotesCore
import NotesStore

/// `cloudnotes config`: the settings in force, and the settings that follow the person
/// (`set`, `unset`; SYNC-FORMAT "Settings").
struct ConfigCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "config",
        abstract: "Show the effective configuration, or set the settings that sync to your other devices.",
        discussion: """
            Settings that sync (theme.ROLE, conflictStrategy, autosaveSeconds, autosaveMaxSeconds, \
            bodyHashtags, syncDebounceSeconds, pollIntervalSeconds) are set with `config set KEY \
            VALUE`: the next sync takes them to every device of the account, where the newest write \
            of a key wins. `--here` sets this device's own value instead, which wins over the synced \
            one and the config file and never leaves the device. The rest (dataDirectory, \
            cloudFolder, s3, deviceName, editor, passphraseCommand, rememberKey, maxNoteBytes, notesFolder) \
            describe this machine: they live in the config file only. In force, lowest first: the \
            defaults, the synced value, the config file, this device's own.
            """,
        subcommands: [ConfigShow.self, ConfigSet.self, ConfigUnset.self], defaultSubcommand: ConfigShow.self)
}

/// `cloudnotes config [show]`: every value in force and where it came from.
struct ConfigShow: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "show", abstract: "Show the effective configuration and where each value came from.")

    @OptionGroup var global: GlobalOptions
    @Flag(help: "Print JSON.") var json = false

    /// A config value as `--json` prints it: typed, with null for "not set".
    enum Value: Encodable {
        case string(String)
        case number(Double)
        case null
        case bool(Bool)
        case map([String: String])

        func encode(to encoder: Encoder) throws {
            var container = encoder.singleValueContainer()
            switch self {
            case .string(let s): try container.encode(s)
            case .number(let n): try container.encode(n)
            case .null: try container.encodeNil()
            case .bool(let b): try container.encode(b)
            case .map(let m): try container.encode(m)
            }
        }
    }

    func run() throws {
        let context = try Context(global)
        let loaded = context.loaded
        let c = context.config
        let file = loaded.source.path
        let labels = Self.deviceLabels(context)
        func origin(_ key: String) -> String {
            if key == "dataDirectory" && global.dataDirectory != nil { return "--data-dir" }
            if key == "theme" {
                let roles = loaded.settingOrigins.filter { $0.key.hasPrefix("theme.") }.sorted { $0.key < $1.key }
                let base = loaded.keysFromFile.contains(key) ? (file ?? "file") : "default"
                return ([base] + roles.map { "\($0.key.dropFirst(6)) \(Self.describe($0.value, labels))" })
                    .joined(separator: "; ")
            }
            if let setting = loaded.settingOrigins[key] { return Self.describe(setting, labels) }
            return loaded.keysFromFile.contains(key) ? (file ?? "file") : "default"
        }
        func pairs(_ map: [String: String]) -> String {
            map.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " ")
        }
        // Key, value, and how the value reads on screen.
        let entries: [(String, Value, String)] = [
            ("dataDirectory", .string(context.dataDirectory), context.dataDirectory),
            ("cloudFolder", c.cloudFolder.map(Value.string) ?? .null, c.cloudFolder ?? "null (local only)"),
            ("deviceName", .string(c.deviceName), c.deviceName),
            ("conflictStrategy", .string(c.conflictStrategy.rawValue), c.conflictStrategy.rawValue),
            ("syncDebounceSeconds", .number(c.syncDebounceSeconds), String(c.syncDebounceSeconds)),
            ("pollIntervalSeconds", .number(c.pollIntervalSeconds), String(c.pollIntervalSeconds)),
            ("autosaveSeconds", .number(c.autosaveSeconds), String(c.autosaveSeconds)),
            ("autosaveMaxSeconds", .number(c.autosaveMaxSeconds), String(c.autosaveMaxSeconds)),
            ("editor", c.editor.map(Value.string) ?? .null, c.editor ?? "null ($VISUAL, $EDITOR, vi)"),
            ("notesFolder", c.notesFolder.map(Value.string) ?? .null, c.notesFolder ?? "null (no notes folder)"),
            ("theme", .map(c.theme), pairs(c.theme)),
            (
                "passphraseCommand", c.passphraseCommand.map(Value.string) ?? .null,
                c.passphraseCommand ?? "null ($CLOUDNOTES_PASSPHRASE, else a prompt)"
            ),
            ("rememberKey", .bool(c.rememberKey), String(c.rememberKey)),
            ("maxNoteBytes", .number(Double(c.maxNoteBytes)), String(c.maxNoteBytes)),
            ("bodyHashtags", .bool(c.bodyHashtags), String(c.bodyHashtags)),
            // Secrets show as "(set)", never their value.
            (
                "s3", .map(c.s3.redacted),
                c.s3.redacted.isEmpty ? "(none: AWS variables and ~/.aws)" : pairs(c.s3.redacted)
            ),
        ]
        // The place sync uses is the one this data directory is bound to (`sync init`), not the
        // config's; a store that does not exist yet is not created to say so.
        let database = URL(fileURLWithPath: context.dataDirectory).appendingPathComponent("notes.sqlite")
        let bound =
            FileManager.default.fileExists(atPath: database.path) ? try context.openStore().boundCloudFolder() : nil
        let mismatch = SyncSetup.configMismatch(context, bound: bound)
        let sourceText: String
        switch loaded.source {
        case .option(let p): sourceText = "\(p) (--config)"
        case .environment(let p): sourceText = "\(p) ($CLOUDNOTES_CONFIG)"
        case .xdg(let p): sourceText = "\(p) ($XDG_CONFIG_HOME)"
        case .defaults: sourceText = "none: embedded defaults"
        }
        if json {
            struct Entry: Encodable {
                var value: Value
                var origin: String
            }
            struct Report: Encodable {
                var file: String?
                var source: String
                var values: [String: Entry]
                /// The cloud folder this data directory is bound to (what sync uses), or null.
                var boundCloudFolder: String?
                var warnings: [String]
            }
            return try Output.json(
                Report(
                    file: file, source: sourceText,
                    values: Dictionary(
                        uniqueKeysWithValues: entries.map { ($0.0, Entry(value: $0.1, origin: origin($0.0))) }),
                    boundCloudFolder: bound, warnings: loaded.warnings + (mismatch.map { [$0] } ?? [])))
        }
        Output.line("config file: \(TerminalSafeText.sanitize(sourceText))")
        for (key, _, text) in entries {
            Output.line(
                "\(key.padding(toLength: 20, withPad: " ", startingAt: 0)) \(TerminalSafeText.sanitize(text))  \(Output.style("(\(origin(key)))", "2"))"
            )
            if key == "cloudFolder" {
                let shown = bound ?? "none (not bound: sync uses cloudFolder)"
                Output.line(
                    "\("bound cloud folder".padding(toLength: 20, withPad: " ", startingAt: 0)) \(TerminalSafeText.sanitize(shown))  \(Output.style("(this data directory, sync init)", "2"))"
                )
            }
        }
        if let mismatch { Output.warn(mismatch) }
    }

    /// Who set a synced value, and when, as `config` says it.
    static func describe(_ origin: SettingOrigin, _ labels: DeviceLabels?) -> String {
        switch origin {
        case .here: return "this device (config set --here)"
        case .synced(let device, let hlc):
            let who = labels?.label(device) ?? device
            let when = ISODate.string(Date(timeIntervalSince1970: Double(hlc.millis) / 1000))
            return "synced from \(who), \(when)"
        }
    }

    /// The names of the account's devices, when this data directory has a store.
    static func deviceLabels(_ context: Context) -> DeviceLabels? {
        let database = URL(fileURLWithPath: context.dataDirectory).appendingPathComponent(NoteStore.databaseFileName)
        guard FileManager.default.fileExists(atPath: database.path) else { return nil }
        // Names are a nicety: without the store, `config` shows device ids and loses nothing.
        guard let store = try? context.openStore() else { return nil }
        return DeviceLabels(store: store, deviceName: context.config.deviceName)
    }
}
