import ArgumentParser
import Foundation
import NotesCore
import NotesStore

/// `cloudnotes config set KEY VALUE [--here]`: a setting that syncs to every device of the
/// account (or, with `--here`, this device's own).
struct ConfigSet: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "set",
        abstract: "Set a setting on every device of the account (the next sync takes it), or on this one with --here.",
        discussion:
            "Examples: `cloudnotes config set theme.accent cyan`, `cloudnotes config set autosaveSeconds 3 --here`."
    )

    @OptionGroup var global: GlobalOptions
    @Argument(help: "The setting (`cloudnotes config --help` lists those that sync).") var key: String
    @Argument(help: "Its value, as the config file would have it (3, 1.5, true, askUser, cyan).") var value: String
    @Flag(help: "Set this device's own value: it wins over the synced one here and never leaves this device.")
    var here = false

    func run() throws {
        try ConfigSet.write(key, value, here: here, global: global)
    }

    /// Writes (or, with a nil value, removes) one setting and says what happens next.
    static func write(_ key: String, _ value: String?, here: Bool, global: GlobalOptions) throws {
        let context = try Context(global)
        let store = try context.openStore()
        do {
            try store.writeSetting(key, value, here: here)
        } catch let error as SettingsError {
            throw CLIError(error.message)
        }
        let shown = value.map { "\(key) = \($0)" } ?? "\(key) removed"
        if here {
            Output.line("\(shown) on this device only")
        } else if context.config.cloudFolder == nil, try store.boundCloudFolder() == nil {
            Output.line("\(shown); it syncs once this device syncs with a cloud folder")
        } else {
            Output.line("\(shown); the next sync takes it to your other devices")
        }
    }
}

/// `cloudnotes config unset KEY [--here]`: removes a synced setting everywhere (the default is in
/// force again), or this device's own value.
struct ConfigUnset: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "unset",
        abstract:
            "Remove a synced setting on every device (the default applies again), or this device's own with --here."
    )

    @OptionGroup var global: GlobalOptions
    @Argument(help: "The setting.") var key: String
    @Flag(help: "Remove this device's own value: the synced one applies here again.") var here = false

    func run() throws {
        try ConfigSet.write(key, nil, here: here, global: global)
    }
}
