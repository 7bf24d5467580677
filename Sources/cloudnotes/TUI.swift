import ArgumentParser
import CloudFolder
import Foundation
import NotesApp
import NotesCore
import NotesRuntime
import NotesStore
import NotesSync
import Synchronization

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
        options.autosaveDelay = .milliseconds(Int((context.config.autosaveSeconds * 1000).rounded()))
        options.autosaveMaxWait = .milliseconds(Int((context.config.autosaveMaxSeconds * 1000).rounded()))
        options.theme = Theme(roles: context.config.theme, noColor: !(context.environment["NO_COLOR"] ?? "").isEmpty)
        // The editor's save-merge is sync's merge, so it flags conflicts as sync does.
        options.resolveHeads = ConflictResolver(strategy: context.config.conflictStrategy).resolve
        let deviceName = context.config.deviceName
        options.deviceLabels = { DeviceLabels(store: store, deviceName: deviceName) }
        let sync = BackgroundSync(context, store)
        options.syncStatus = sync.status
        if sync.status != nil { options.syncNow = { sync.syncNow() } }
        // An encrypted folder whose key is not remembered: the app asks in its dialog.
        options.startsLocked = sync.isLocked
        options.unlock = { sync.unlock(passphrase: $0) }
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
/// status for the status bar. Without a cloud folder the status bar says "local only". An
/// encrypted folder whose key is not remembered waits, locked, for the app's passphrase dialog.
private final class BackgroundSync: Sendable {
    /// nil: local only.
    let status: AsyncStream<SyncStatus>?
    private let continuation: AsyncStream<SyncStatus>.Continuation?
    private let context: Context
    private let store: NoteStore
    /// In a mutex: the dialog's unlock runs on the runtime's read queue.
    private let state = Mutex(State())

    private struct State {
        var engine: SyncEngine?
        var localWrites: FolderWatcher?
        var locked: (location: CloudLocation, info: ContainerInfo)?
    }

    init(_ context: Context, _ store: NoteStore) {
        self.context = context
        self.store = store
        let path: String?
        do { path = try SyncSetup.folderPath(context, store) } catch { path = "" }
        guard let path else {
            (status, continuation) = (nil, nil)
            return
        }
        let (stream, continuation) = AsyncStream<SyncStatus>.makeStream()
        (status, self.continuation) = (stream, continuation)
        // (A path that cannot be read or resolved fails in `start`, which says why.)
        if let location = try? CloudLocation.resolve(path, environment: context.environment, s3: context.config.s3),
            let info = FolderAccess.lockedContainer(location, context, store)
        {
            state.withLock { $0.locked = (location, info) }
            continuation.yield(SyncStatus(phase: .error(message: "sync is locked: s to type the passphrase")))
            return
        }
        start(unlocked: nil)
    }

    var isLocked: Bool { state.withLock { $0.locked != nil } }

    /// Starts the engine; a failure shows in the status bar (the app runs on the local store).
    private func start(unlocked: FolderSeal?) {
        do {
            guard let made = try SyncSetup.engine(context, store, automatic: true, unlocked: unlocked) else { return }
            let engine = made.engine
            let continuation = continuation
            let onThisDisk = SyncSetup.isOnThisDisk(made.folder, store)
            // The app's saves reach sync through this watcher: without it nothing would be sent
            // until a restart, so its failure turns sync off, said in the status bar (below).
            let writes = try SyncSetup.watchLocalWrites(of: store, for: engine)
            state.withLock { state in
                state.engine = engine
                state.localWrites = writes
            }
            Task {
                for await var status in engine.statusUpdates {
                    status.cloudOnThisDisk = onThisDisk
                    continuation?.yield(status)
                }
            }
            Task { await engine.start() }
        } catch {
            let message = (error as? CLIError)?.message ?? CloudError.userMessage(error)
            continuation?.yield(SyncStatus(phase: .error(message: "sync is off: \(message)")))
        }
    }

    /// The dialog's passphrase: nil when it unlocked the folder and sync started, else why not.
    func unlock(passphrase: String) -> String? {
        guard let (location, info) = state.withLock({ $0.locked }) else { return nil }
        do {
            let seal = try FolderAccess.unlock(location.folder(), info, context, store, passphrase: passphrase)
            state.withLock { $0.locked = nil }
            start(unlocked: seal)
            return nil
        } catch {
            return (error as? CLIError)?.message ?? "\(error)"
        }
    }

    func syncNow() {
        guard let engine = state.withLock({ $0.engine }) else { return }
        Task { _ = await engine.syncNow() }
    }

    /// Stops the engine after one last bounded send, so a note saved on quit usually reaches
    /// the cloud folder now rather than at the next start (it stays pending otherwise).
    func stop() {
        let (engine, watcher) = state.withLock { ($0.engine, $0.localWrites) }
        watcher?.stop()
        continuation?.finish()
        guard let engine else { return }
        let done = DispatchSemaphore(value: 0)
        Task {
            // A failed last send loses nothing: the changes stay queued for the next sync.
            _ = try? await engine.sendChanges()
            await engine.stop()
            done.signal()
        }
        _ = done.wait(timeout: .now() + 3)
    }
}
