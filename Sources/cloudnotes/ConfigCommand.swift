import ArgumentParser
import Foundation
import NotesCore
import NotesStore

struct ConfigCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "config", abstract: "Show the effective configuration and where each value came from.")

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
        func origin(_ key: String) -> String {
            if key == "dataDirectory" && global.dataDirectory != nil { return "--data-dir" }
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
            ("editor", c.editor.map(Value.string) ?? .null, c.editor ?? "null ($VISUAL, $EDITOR, vi)"),
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
}
