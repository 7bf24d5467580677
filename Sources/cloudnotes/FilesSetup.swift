import Foundation
import NotesCore
import NotesFiles
import NotesStore
import NotesSync

/// What the `files` commands share: the folder in force, the mirror, its report as lines.
enum FilesSetup {
    /// The notes folder of this data directory: `files on`/`files off`'s, else the config's.
    static func configuredFolder(_ context: Context) throws -> String? {
        guard !context.dataDirectory.isEmpty else { return context.config.notesFolder }
        if let state = try mapped({ try MirrorState.loadFolder(directory: context.dataDirectory) }) {
            return state.folder
        }
        return context.config.notesFolder
    }

    /// The folder in force, or an error saying how to set one.
    static func folder(_ context: Context) throws -> String {
        guard let folder = try configuredFolder(context) else {
            throw CLIError("no notes folder is set; run 'cloudnotes files on DIR'")
        }
        return folder
    }

    static func mirror(_ context: Context, _ store: NoteStore, folder: String) throws -> FolderMirror {
        let resolver = ConflictResolver(strategy: context.config.conflictStrategy)
        return try mapped {
            try FolderMirror(
                store: store, folder: folder, dataDirectory: context.dataDirectory, resolve: resolver.resolve)
        }
    }

    /// One pass both ways.
    static func pass(_ context: Context, _ store: NoteStore, folder: String) throws -> MirrorReport {
        let mirror = try mirror(context, store, folder: folder)
        return try mapped { try mirror.sync() }
    }

    /// The keeper of the notes folder for a process that runs on (the app, `files --watch`,
    /// `sync --watch`), when one is set; nil when none is.
    static func keeper(_ context: Context, _ store: NoteStore) throws -> MirrorKeeper? {
        guard let folder = try configuredFolder(context) else { return nil }
        let resolver = ConflictResolver(strategy: context.config.conflictStrategy)
        let directory = context.dataDirectory
        return try mapped {
            try MirrorKeeper(store: store, dataDirectory: directory) {
                try FolderMirror(store: store, folder: folder, dataDirectory: directory, resolve: resolver.resolve)
            }
        }
    }

    /// Keeps the notes folder in step in the background while another command runs (`sync
    /// --watch`), when one is set; nil when none is. Its passes print like `files --watch`'s.
    static func watchInBackground(_ context: Context, _ store: NoteStore) throws -> Task<Void, Never>? {
        guard let keeper = try keeper(context, store) else { return nil }
        return Task {
            await MirrorWatch().run(keeper: keeper, clock: ContinuousClock()) { step in
                switch step {
                case .quiet: break
                case .passed(let report): print(report)
                case .failed: step.line.map(Output.warn)
                case .keptElsewhere: step.line.map(Output.info)
                }
            }
        }
    }

    /// The notes folder must not hold, or be inside, the data directory or a cloud folder on
    /// this disk: its files are plaintext, and the cloud folder's are the sync format's.
    static func checkPlace(_ folder: String, _ context: Context, _ store: NoteStore) throws {
        let url = URL(fileURLWithPath: folder, isDirectory: true)
        if Context.path(url, isInside: store.directory) || Context.path(store.directory, isInside: url) {
            throw CLIError("the notes folder cannot hold or be inside the data directory \(store.directory.path)")
        }
        let cloud = try store.boundCloudFolder() ?? context.config.cloudFolder
        if let cloud, !CloudLocation.isURL(cloud) {
            let cloudURL = URL(fileURLWithPath: cloud, isDirectory: true)
            if Context.path(url, isInside: cloudURL) || Context.path(cloudURL, isInside: url) {
                throw CLIError("the notes folder cannot hold or be inside the cloud folder \(cloud)")
            }
        }
    }

    /// A pass's report as lines: what changed each way, conflicts, files that do not parse.
    static func print(_ report: MirrorReport) {
        for line in report.fromFolder { Output.line("folder → notes: " + Output.display(line)) }
        for line in report.toFolder { Output.line("notes → folder: " + Output.display(line)) }
        for path in report.conflicts {
            Output.warn(
                "\(Output.display(path)): the file's edit overlapped another change; both are kept and the note is flagged (see 'cloudnotes conflicts')"
            )
        }
        for (path, reason) in report.unparsed {
            Output.warn("\(Output.display(path)) is not read: \(Output.display(reason)); it is left as it is")
        }
    }

    /// `body`, its `MirrorError` as a `CLIError`.
    static func mapped<T>(_ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as MirrorError {
            throw CLIError(error.message)
        }
    }

    static func message(_ error: any Error) -> String {
        if let error = error as? MirrorError { return error.message }
        if let error = error as? StoreError { return error.message }
        if let error = error as? CLIError { return error.message }
        return Output.reason(error)
    }
}
