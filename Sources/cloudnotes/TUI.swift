import ArgumentParser
import Foundation
import NotesApp
import NotesCore
import NotesRuntime
import NotesStore
import NotesSync

/// `cloudnotes` with no command, or `cloudnotes tui`: the full-screen app (issue 4).
struct TUI: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tui",
        abstract: "Open the full-screen app (what `cloudnotes` alone does on a terminal).",
        discussion: """
            `cloudnotes` with no command opens this app when stdin and stdout are a terminal; \
            otherwise (a pipe, a script) it prints the list as `cloudnotes list` does. Press ? in the app for keys. \
            With a cloud folder configured (or bound by `sync init`), the app syncs in the background and \
            shows the sync state in its status bar. With a notes folder set (`files on`), it keeps the folder in \
            step while it runs, as `files --watch` does.
            """)

    @OptionGroup var global: GlobalOptions

    func run() throws {
        guard Output.stdinIsTerminal && Output.stdoutIsTerminal else {
            guard !Self.namedOnCommandLine else {
                throw CLIError("the TUI needs a terminal on stdin and stdout; scripts can use `cloudnotes list`")
            }
            var list = try List.parse([])
            list.global = global
            try list.run()
            return
        }
        try Self.open(configPath: global.configPath, dataDirectory: global.dataDirectory)
    }

    /// The arguments of `cloudnotes` run on a terminal with no command and at most `--config` and
    /// `--data-dir` (each once, with a value that is not empty and is not an option): the app,
    /// which `CLI.main` then opens without ArgumentParser, whose command tree and reflection
    /// cost a start what the app's first screen is measured against (issue 27). Nil for anything
    /// else, which the parser reads as before (and for a pipe, where the parser's path lists).
    static func launchedAlone(_ arguments: [String]) -> (configPath: String?, dataDirectory: String?)? {
        guard Output.stdinIsTerminal && Output.stdoutIsTerminal else { return nil }
        var values: [String: String] = [:]
        var index = 0
        while index < arguments.count {
            var name = arguments[index]
            var value: String
            if let equals = name.firstIndex(of: "="), name.hasPrefix("--") {
                value = String(name[name.index(after: equals)...])
                name = String(name[..<equals])
                index += 1
            } else {
                guard index + 1 < arguments.count else { return nil }
                value = arguments[index + 1]
                index += 2
            }
            guard GlobalOptions.names.contains(name), values[name] == nil, !value.isEmpty, !value.hasPrefix("-")
            else { return nil }
            values[name] = value
        }
        return (values["--config"], values["--data-dir"])
    }

    /// The app on this terminal, with the config and data directory given (else the defaults).
    static func open(configPath: String?, dataDirectory: String?) throws {
        let context = try Context(configPath: configPath, dataDirectory: dataDirectory)
        let store = try context.openStore()
        var options = RuntimeOptions(
            editorCommand: ExternalEditor.command(configured: context.config.editor, environment: context.environment))
        let live = Self.liveSettings(context.config, environment: context.environment, said: nil)
        options.autosaveDelay = live.autosaveDelay
        options.autosaveMaxWait = live.autosaveMaxWait
        options.theme = live.theme
        // The editor's save-merge is sync's merge, so it flags conflicts as sync does.
        options.resolveHeads = ConflictResolver(strategy: context.config.conflictStrategy).resolve
        let deviceName = context.config.deviceName
        options.deviceLabels = { DeviceLabels(store: store, deviceName: deviceName) }
        options.reloadSettings = Self.settingsReloader(context, store, configPath: configPath)
        let keeper = try Self.keepNotesFolder(context, store, &options)
        let sync = Self.syncClient(context, store)
        options.sync = sync
        // After the app: its last save reaches its file, then the last send includes it.
        let stop = {
            if let line = keeper?.finish().statusLine { Output.warn(line) }
            sync.stop()
        }
        let exit: NotesRuntime.Exit
        do {
            exit = try TerminalSession.run(store: store, options: options)
        } catch {
            stop()
            throw CLIError(TerminalSession.describe(error) ?? "cannot start the TUI: \(error)")
        }
        stop()
        // Ended by a signal (after saving): the conventional status, 128 + the signal.
        if case .signal(let signal) = exit { Foundation.exit(128 + signal) }
    }

    /// True when the user typed `tui`, rather than running `cloudnotes` with no command.
    private static var namedOnCommandLine: Bool {
        CommandLine.arguments.dropFirst().contains("tui")
    }
}
