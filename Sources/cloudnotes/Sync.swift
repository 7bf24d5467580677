import ArgumentParser
import CloudFolder
import Foundation
import Glibc
import NotesCore
import NotesStore
import NotesSync
import Synchronization

struct Sync: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sync",
        abstract: "Sync with the cloud folder.",
        discussion: """
            `cloudnotes sync` sends pending changes and fetches remote ones once; `--watch` keeps \
            syncing until interrupted. `cloudnotes sync init PATH` creates or joins a cloud folder.
            """,
        subcommands: [SyncRun.self, SyncInit.self, SyncMove.self, SyncEncrypt.self, SyncPassphrase.self],
        defaultSubcommand: SyncRun.self)
}

struct SyncRun: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run", abstract: "Send and fetch once (the default), or keep syncing with --watch.")

    @OptionGroup var global: GlobalOptions
    @Flag(help: "Keep syncing in the foreground (folder watcher, debounced sends) until SIGINT or SIGTERM.")
    var watch = false
    @Flag(help: "Also scan for copies a replicator renamed (conflicted copy, .sync-conflict) and ingest them.")
    var repair = false
    @Flag(
        help:
            "After syncing, compact (the cloud folder and each shared notebook's place): write a zone snapshot and delete this device's own log files that a snapshot a day old covers and every active device has read."
    )
    var compact = false
    @Option(help: "With --watch: seconds from a local change to its send (default: the config's).")
    var debounce: Double?

    func run() throws {
        let context = try Context(global)
        let store = try context.openStore()
        let progress = watch ? nil : SyncProgress.forTerminal()
        guard
            let (engine, place) = try SyncSetup.engine(
                context, store, automatic: watch, debounce: debounce, progress: progress)
        else {
            // Shared notebooks sync through their places with or without a cloud folder of one's own.
            if !watch, !(try ShareBook.read(store).places.isEmpty) {
                guard try ShareSync.runAll(context, store, compact: compact) else {
                    throw CLIError("some shared notebooks did not sync")
                }
                return
            }
            throw CLIError("no cloud folder is configured (local only); run 'cloudnotes sync init PATH'")
        }
        if watch {
            return try SyncWatch.run(
                engine, store: store, shared: ShareSync.automaticEngines(context, store, notify: { Output.warn($0) }),
                context: context)
        }
        if repair {
            let found = try Blocking.run { try await engine.repair() }
            Output.line(
                "repair: \(found.salvaged) renamed cop(ies) ingested, \(found.ignored) unknown name(s) ignored, "
                    + "\(found.chunksRewritten) missing or damaged chunk(s) written again")
        }
        let summary = Blocking.value { await engine.syncNow() }
        progress?.finish()
        try Self.print(summary, engine, place: place)
        if compact {
            let compacted = try Blocking.run { try await engine.compact() }
            Self.print(compacted)
        }
        guard try ShareSync.runAll(context, store, compact: compact) else {
            throw CLIError("some shared notebooks did not sync")
        }
    }

    static func print(_ compacted: CompactionSummary) {
        if compacted.zones.isEmpty {
            Output.line("compact: nothing to compact (no zone where this device has published more than one file)")
        }
        for (zone, result) in compacted.zones.sorted(by: { $0.key < $1.key }) {
            var line = "compact: zone \(zone): "
            if let seq = result.snapshotSeq {
                line += "snapshot written at seq \(seq) (\(result.snapshotRevisions) revision(s)); "
            }
            line +=
                "\(result.deleted) log file(s) deleted, this device's log pruned through seq \(result.prunedThrough)"
            if let waiting = result.waiting { line += "; not yet more: \(waiting)" }
            Output.line(line)
        }
        if let chunks = compacted.chunks, chunks.deleted > 0 || chunks.unreferenced > 0 || chunks.waiting != nil {
            var line = "compact: \(chunks.deleted) chunk(s) no file names deleted, \(chunks.kept) kept"
            if chunks.unreferenced > 0 {
                line += " (\(chunks.unreferenced) named by nothing, deleted once so for a day)"
            }
            if let waiting = chunks.waiting { line += "; not yet: \(waiting)" }
            Output.line(line)
        }
    }

    /// `place`: the cloud folder's name, for the way back from an emptied one.
    static func print(_ summary: SyncSummary, _ engine: SyncEngine, place: String? = nil) throws {
        // A note held back is both a failed record and an engine warning: said once.
        var said = Set<String>()
        for message in summary.sent.failed.map(\.error.message) + Blocking.value({ await engine.warnings })
        where said.insert(message).inserted {
            Output.warn(message)
        }
        if let error = summary.error {
            let status = Blocking.value { await engine.status }
            switch status.phase {
            case .offline(let reason):
                if let place, let hint = SyncSetup.recoveryHint(reason, place: place) {
                    throw CLIError("\(reason); \(hint)")
                }
                throw CLIError(reason)
            case .signInFailed(let reason): throw CLIError("sign-in failed: \(reason)")
            case .error(let message): throw CLIError(message)
            default: throw CLIError(error.userMessage)
            }
        }
        let fetched = summary.fetched
        Output.line(
            "sent \(summary.sent.sent) change(s) in \(summary.sent.batches) file(s); received \(fetched.received), "
                + "\(Set(fetched.changed).count) note(s) changed, \(fetched.merged) merged")
        var tail = "pending \(summary.pending), conflicts \(summary.conflicts)"
        if fetched.buffered > 0 { tail += ", \(fetched.buffered) waiting for earlier changes" }
        if fetched.snapshotsLoaded > 0 { tail += ", \(fetched.snapshotsLoaded) snapshot(s) loaded" }
        if fetched.waitingForAttachments > 0 {
            tail += ", ↻ waiting for attachment (\(fetched.waitingForAttachments) change(s))"
        }
        Output.line(tail)
        if !fetched.settingsChanged.isEmpty {
            Output.line("settings changed on another device: \(fetched.settingsChanged.joined(separator: ", "))")
        }
        // Automatic compaction (a long log) says what it did.
        if let compacted = summary.compacted { print(compacted) }
    }
}

struct SyncInit: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "init",
        abstract:
            "Create a cloud folder (in an empty or new folder) or join an existing one, and bind this data directory to it."
    )

    @OptionGroup var global: GlobalOptions
    @Argument(
        help:
            "The cloud folder: a plain directory (Dropbox, Syncthing and the like may replicate it) or s3://BUCKET/PREFIX."
    )
    var path: String
    @Flag(
        help:
            "Create an encrypted cloud folder: every file sealed with a key the passphrase wraps ($CLOUDNOTES_PASSPHRASE, passphraseCommand, or asked)."
    )
    var encrypt = false
    @Flag(
        help:
            "Re-create this data directory's cloud folder (the same container) in an emptied or new place from this device's notes; the other devices then send what only they had."
    )
    var restore = false

    func run() throws {
        let context = try Context(global)
        let store = try context.openStore()
        let location = try CloudLocation.resolve(path, environment: context.environment, s3: context.config.s3)
        let absolute = location.name
        if restore { try SyncRestore.run(at: location, context, store) }
        let state = try store.engineState().map(SyncEngineState.init(serialized:))
        if let bound = state?.containerID, let current = try store.boundCloudFolder(), current != absolute {
            throw CLIError(
                "this data directory is already bound to container \(bound) in \(current); use another --data-dir for another account"
            )
        }
        if !location.isRemote { try SyncSetup.checkOutside(store, cloudFolder: absolute) }
        if !location.isRemote, state?.containerID == nil, !FileManager.default.fileExists(atPath: absolute) {
            try FileManager.default.createDirectory(
                atPath: absolute, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        }
        // Binding is one store transaction after every step in the folder: an interrupted or
        // failed init leaves the data directory as it was (SYNC-FORMAT rule 12, "Joining").
        let containerID: String
        do {
            let folder = try EncryptedSetup.folder(at: location, encrypt: encrypt, context, store)
            containerID = try SyncEngine.join(folder, store: store, path: absolute)
            if folder.seal != nil && !context.config.rememberKey { FolderAccess.forget(store) }
        } catch let error as CloudError {
            if state?.containerID != nil, location.folder().isEmptied() {
                throw CLIError("\(error.message); \(SyncSetup.recoveryHint(place: absolute))")
            }
            throw CLIError(error.message)
        }
        Output.line("bound to cloud folder \(absolute) (container \(containerID))")
        let progress = SyncProgress.forTerminal()
        guard let (engine, _) = try SyncSetup.engine(context, store, progress: progress) else { return }
        let summary = Blocking.value { await engine.syncNow() }
        progress?.finish()
        try SyncRun.print(summary, engine)
    }
}

/// Progress of a long sync (the initial sync of a large zone) on stderr, only when stderr is a
/// terminal: one line rewritten in place while changes are sent or received, cleared at the end.
final class SyncProgress: Sendable {
    /// Whether a line is on the terminal; held while writing, so two updates never interleave.
    private let shown = Mutex(false)

    /// A progress line, or nil when stderr is not a terminal.
    static func forTerminal() -> SyncProgress? { isatty(STDERR_FILENO) != 0 ? SyncProgress() : nil }

    func update(_ status: SyncStatus) {
        guard case .syncing(let done, let total) = status.phase else { return }
        let text = total > done ? "syncing: \(done) of \(total) change(s)" : "syncing: \(done) change(s)"
        shown.withLock { shown in
            shown = true
            // Progress only: a closed stderr loses no note.
            try? FileHandle.standardError.write(contentsOf: Data("\r\(text)\u{1B}[K".utf8))
        }
    }

    /// Clears the line, if one was shown.
    func finish() {
        shown.withLock { shown in
            if shown { try? FileHandle.standardError.write(contentsOf: Data("\r\u{1B}[K".utf8)) }
            shown = false
        }
    }
}
