import ArgumentParser
import Foundation
import Glibc
import NotesCore
import NotesStore
import NotesSync
import Synchronization

/// `cloudnotes view watch NAME`: a line whenever a note starts or stops matching a saved search,
/// or a matching note changes (`CKQuerySubscription`), as changes reach this data directory: from
/// the app, another command, or a sync (`--sync` syncs in this process too).
struct ViewWatch: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "watch",
        abstract: "Print a line whenever a note starts or stops matching a view, or a matching note changes.",
        discussion: """
            Runs until SIGINT or SIGTERM. It sees what reaches this data directory: the app, other \
            commands, and a sync running beside it (the app, `sync --watch`), or this process's own \
            with --sync. Lines: `+ ID TITLE` (now matches), `- ID TITLE` (no longer matches: edited \
            out, moved, trashed or deleted), `~ ID TITLE` (changed); --json prints one object per \
            line. --exec runs a command per change through sh, with CLOUDNOTES_VIEW, \
            CLOUDNOTES_EVENT (added, removed, changed), CLOUDNOTES_NOTE_ID and CLOUDNOTES_NOTE_TITLE \
            in its environment (never in its command line), e.g. \
            `cloudnotes view watch work --exec 'notify-send "$CLOUDNOTES_NOTE_TITLE"'`.
            """)

    @OptionGroup var global: GlobalOptions
    @Argument(help: "The view's name (`cloudnotes views` lists them).") var name: String
    @Flag(help: "Print one JSON object per change.") var json = false
    @Option(help: "A command to run through sh for each change (see above).") var exec: String?
    @Flag(help: "Also sync this data directory with its cloud folder while watching.") var sync = false
    @Option(help: "How often to look for changes, in seconds.") var interval: Double = 0.3

    func validate() throws {
        if !(0.05...60).contains(interval) { throw ValidationError("--interval takes 0.05 to 60 seconds") }
    }

    func run() throws {
        let context = try Context(global)
        let query = try Views.named(name, context).query
        let store = try context.openStore()
        var engine: SyncEngine?
        if sync {
            guard let (started, _) = try SyncSetup.engine(context, store, automatic: true) else {
                throw CLIError("no cloud folder is configured (local only); run 'cloudnotes sync init PATH'")
            }
            engine = started
        }
        let watcher = ViewWatcher(
            view: name, query: query, store: store, json: json, exec: exec)
        try watcher.look(printing: false)
        signal(SIGINT, SIG_IGN)
        signal(SIGTERM, SIG_IGN)
        let done = DispatchSemaphore(value: 0)
        let signals = DispatchQueue(label: "cloudnotes.view-watch.signals")
        let sources = [SIGINT, SIGTERM].map { DispatchSource.makeSignalSource(signal: $0, queue: signals) }
        for source in sources {
            source.setEventHandler { done.signal() }
            source.resume()
        }
        let changes = try store.watchExternalChanges(every: .milliseconds(Int(interval * 1000))) {
            watcher.lookAndReport()
        }
        // With --sync: the engine syncs on its own, as `sync --watch` does; what it applies is a
        // commit the watcher above sees.
        let local = try engine.map { try $0.watchLocalWrites(in: store.directory.path) }
        if let engine { Task { await engine.start() } }
        Output.info("watching view \(name): \(watcher.count) note(s) match; Ctrl-C stops")
        done.wait()
        changes.cancel()
        local?.stop()
        if let engine { Blocking.value { await engine.stop() } }
        for source in sources { source.cancel() }
    }
}

/// The saved search's matches as last seen, and what prints a change.
final class ViewWatcher: Sendable {
    let view: String
    let query: SearchQuery
    let store: NoteStore
    let json: Bool
    let exec: String?
    private let matches = Mutex<[UUID: ViewMatch]>([:])

    init(view: String, query: String, store: NoteStore, json: Bool, exec: String?) {
        self.view = view
        self.query = SearchQuery(parsing: query)
        self.store = store
        self.json = json
        self.exec = exec
    }

    /// How many notes matched at the last look.
    var count: Int { matches.withLock { $0.count } }

    /// Every note the view matches now.
    func current() throws -> [UUID: ViewMatch] { try store.viewMatches(query) }

    /// Looks again and reports what changed since the last look.
    func look(printing: Bool) throws {
        let now = try current()
        let changes = matches.withLock { held in
            defer { held = now }
            return ViewChange.between(held, now)
        }
        guard printing else { return }
        for change in changes { report(change) }
    }

    /// `look`, with a failure said on stderr (the next change looks again).
    func lookAndReport() {
        do {
            try look(printing: true)
        } catch {
            Output.warn("view \(view): \(error)")
        }
    }

    func report(_ change: ViewChange) {
        let id = change.note.id.lowercasedString
        if json {
            let object: JSONValue = .object([
                "event": .string(change.kind.rawValue), "id": .string(id), "title": .string(change.note.title),
                "view": .string(view),
            ])
            Output.line(object.canonicalString)
        } else {
            let mark =
                switch change.kind {
                case .added: "+"
                case .removed: "-"
                case .changed: "~"
                }
            Output.line("\(mark) \(id.prefix(8))  \(Output.display(change.note.title))")
        }
        if let exec { run(exec, for: change) }
    }

    /// Runs `command` through sh with the change in its environment; its failure is said, the
    /// watch goes on.
    private func run(_ command: String, for change: ViewChange) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", command]
        var environment = ProcessInfo.processInfo.environment
        environment["CLOUDNOTES_VIEW"] = view
        environment["CLOUDNOTES_EVENT"] = change.kind.rawValue
        environment["CLOUDNOTES_NOTE_ID"] = change.note.id.lowercasedString
        environment["CLOUDNOTES_NOTE_TITLE"] = change.note.title
        process.environment = environment
        do {
            try process.run()
            process.waitUntilExit()
            if process.terminationStatus != 0 {
                Output.warn("--exec exited with status \(process.terminationStatus) for \(change.kind.rawValue)")
            }
        } catch {
            Output.warn("--exec could not run: \(error.localizedDescription)")
        }
    }
}
