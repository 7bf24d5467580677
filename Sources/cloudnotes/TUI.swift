import ArgumentParser
import Foundation
import NotesRuntime

/// `cloudnotes` with no command, or `cloudnotes tui`: the full-screen app (issue 4).
struct TUI: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tui",
        abstract: "Open the full-screen app (what `cloudnotes` alone does on a terminal).",
        discussion: """
            `cloudnotes` with no command opens this app when stdin and stdout are a terminal; \
            otherwise (a pipe, a script) it prints the list as `cloudnotes list` does. Press ? in the app for keys.
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
        let context = try Context(global)
        let store = try context.openStore()
        let editor = ExternalEditor.command(configured: context.config.editor, environment: context.environment)
        let exit: NotesRuntime.Exit
        do {
            exit = try TerminalSession.run(store: store, options: RuntimeOptions(editorCommand: editor))
        } catch {
            throw CLIError(TerminalSession.describe(error) ?? "cannot start the TUI: \(error)")
        }
        // Ended by a signal (after saving): the conventional status, 128 + the signal.
        if case .signal(let signal) = exit { Foundation.exit(128 + signal) }
    }

    /// True when the user typed `tui`, rather than running `cloudnotes` with no command.
    private static var namedOnCommandLine: Bool {
        CommandLine.arguments.dropFirst().contains("tui")
    }
}
