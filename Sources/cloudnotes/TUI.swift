import ArgumentParser
import CloudFolder
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
            shows the sync state in its status bar.
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
        var options = RuntimeOptions(
            editorCommand: ExternalEditor.command(configured: context.config.editor, environment: context.environment))
        options.theme = Theme(roles: context.config.theme, noColor: !(context.environment["NO_COLOR"] ?? "").isEmpty)
        // The editor's save-merge is sync's merge, so it flags conflicts as sync does.
        options.resolveHeads = ConflictResolver(strategy: context.config.conflictStrategy).resolve
        let deviceName = context.config.deviceName
        options.deviceLabels = { DeviceLabels(store: store, deviceName: deviceName) }
        let sync = BackgroundSync(context, store)
        options.syncStatus = sync.status
        options.syncNow = sync.syncNow
        let exit: NotesRuntime.Exit
        do {
            exit = try TerminalSession.run(store: store, options: options)
        } catch {
            sync.stop()
            throw CLIError(TerminalSession.describe(error) ?? "cannot start the TUI: \(error)")
        }
        sync.stop()
        // Ended by a signal (after saving): the conventional status, 128 + the signal.
        if case .signal(let signal) = exit { Foundation.exit(128 + signal) }
    }

    /// True when the user typed `tui`, rather than running `cloudnotes` with no command.
    private static var namedOnCommandLine: Bool {
        CommandLine.arguments.dropFirst().contains("tui")
    }
}

/// The sync engine behind the TUI: automatic sync over the cloud folder in force, local writes
/// (the app's and other processes') noticed through the data directory, and the engine's
/// status for the status bar. Without a cloud folder the status bar says "local only".
private struct BackgroundSync {
    let status: AsyncStream<SyncStatus>?
    let syncNow: (@Sendable () -> Void)?
    private let engine: SyncEngine?
    private let localWrites: FolderWatcher?

    init(_ context: Context, _ store: NoteStore) {
        let engine: SyncEngine
        do {
            guard let made = try SyncSetup.engine(context, store, automatic: true) else {
                (status, syncNow, self.engine, localWrites) = (nil, nil, nil, nil)
                return
            }
            engine = made.engine
        } catch {
            // The app still opens on the local store; the status bar says why sync is off.
            let message = (error as? CLIError)?.message ?? "\(error)"
            status = AsyncStream { $0.yield(SyncStatus(phase: .error(message: "sync is off: \(message)"))) }
            (syncNow, self.engine, localWrites) = (nil, nil, nil)
            return
        }
        self.engine = engine
        status = engine.statusUpdates
        syncNow = { Task { _ = await engine.syncNow() } }
        localWrites = try? SyncSetup.watchLocalWrites(of: store, for: engine)
        Task { await engine.start() }
    }

    /// Stops the engine after one last bounded send, so a note saved on quit usually reaches
    /// the cloud folder now rather than at the next start (it stays pending otherwise).
    func stop() {
        localWrites?.stop()
        guard let engine else { return }
        let done = DispatchSemaphore(value: 0)
        Task {
            _ = try? await engine.sendChanges()
            await engine.stop()
            done.signal()
        }
        _ = done.wait(timeout: .now() + 3)
    }
}
