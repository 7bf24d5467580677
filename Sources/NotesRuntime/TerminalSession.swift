import NotesStore
import TerminalNcurses

/// The TUI on the real terminal: ncurses set up, the runtime's loop, the terminal restored.
public enum TerminalSession {
    /// Runs the TUI on stdin/stdout until the user quits or a signal ends it. The terminal is
    /// given back on every way out (crash signals included, by the ncurses backend).
    public static func run(store: NoteStore, options: RuntimeOptions) throws -> NotesRuntime.Exit {
        let terminal: NcursesTerminal
        do {
            terminal = try NcursesTerminal()
        } catch let error as NcursesTerminal.OpenError {
            throw RuntimeError(error.description)
        }
        defer { terminal.close() }
        var options = options
        options.asciiOnly = options.asciiOnly || !terminal.isUTF8
        let runtime = NotesRuntime(store: store, backend: terminal, options: options)
        return runtime.run()
    }

    /// Why the TUI could not start, in words for the user.
    public static func describe(_ error: Error) -> String? {
        (error as? RuntimeError)?.description
    }
}
