import ArgumentParser
import Foundation
import Glibc
import NotesCore
import NotesFiles
import NotesStore
import NotesSync

/// `cloudnotes files`: the live notes folder, every note as a Markdown file kept in step with
/// the store both ways (`NotesFiles.FolderMirror`).
struct Files: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "files",
        abstract: "Keep every note as a Markdown file in a folder, in step both ways (on, off, status, sync, --watch).",
        discussion: """
            The layout is export's: a folder per notebook, a file per note named by its title, front matter with \
            its id. A file saved by any program becomes a revision of its note (merged with other changes as sync \
            merges two devices' edits), a new file a new note, a deleted file trashes its note, a moved file moves \
            it to that folder's notebook, a renamed file retitles it. The files are plaintext on this disk, like the \
            local store. With no subcommand: --watch keeps the folder in step until Ctrl-C, else `status`.
            """,
        subcommands: [FilesOn.self, FilesOff.self, FilesStatus.self, FilesSync.self])

    @OptionGroup var global: GlobalOptions
    @Flag(help: "Keep the folder and the store in step until Ctrl-C (each change within a second).")
    var watch = false

    func run() throws {
        guard watch else {
            try FilesStatus.show(global)
            return
        }
        let context = try Context(global)
        let store = try context.openStore()
        let folder = try FilesSetup.folder(context)
        signal(SIGINT, SIG_IGN)
        signal(SIGTERM, SIG_IGN)
        guard let task = try FilesSetup.watchInBackground(context, store) else { return }
        let done = DispatchSemaphore(value: 0)
        let signals = DispatchQueue(label: "cloudnotes.files-watch.signals")
        let sources = [SIGINT, SIGTERM].map { DispatchSource.makeSignalSource(signal: $0, queue: signals) }
        for source in sources {
            source.setEventHandler { done.signal() }
            source.resume()
        }
        Task {
            await task.value
            done.signal()
        }
        Output.info("keeping \(folder) in step; Ctrl-C stops")
        done.wait()
        task.cancel()
        for source in sources { source.cancel() }
        // The keeper's last pass, after the cancel.
        Blocking.value { await task.value }
    }
}

/// `cloudnotes files on DIR`.
struct FilesOn: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "on",
        abstract: "Keep every note as a Markdown file in DIR (made if missing), and bring it up to date now.",
        discussion: """
            Files already in DIR are read first: one naming a note (an earlier export) is merged with it, any other \
            becomes a new note. The setting is this data directory's; it wins over `notesFolder` in the config file.
            """)

    @OptionGroup var global: GlobalOptions
    @Argument(help: "The folder.") var folder: String

    func run() throws {
        let context = try Context(global)
        let store = try context.openStore()
        let absolute = URL(fileURLWithPath: folder).standardizedFileURL.path
        try FilesSetup.checkPlace(absolute, context, store)
        do {
            try FileManager.default.createDirectory(
                atPath: absolute, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        } catch {
            throw CLIError("cannot create \(absolute): \(Output.reason(error))")
        }
        if try MirrorState.loadFolder(directory: context.dataDirectory)?.folder != absolute {
            try MirrorState(folder: absolute).save(directory: context.dataDirectory)
        }
        let report = try FilesSetup.pass(context, store, folder: absolute)
        FilesSetup.print(report)
        Output.info(
            "notes are kept as files in \(absolute) while the app, 'sync --watch' or 'files --watch' runs; 'files sync' brings them up to date once"
        )
    }
}

/// `cloudnotes files off`.
struct FilesOff: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "off", abstract: "Stop keeping notes as files (the files stay as they are).")

    @OptionGroup var global: GlobalOptions

    func run() throws {
        let context = try Context(global)
        let folder = try FilesSetup.configuredFolder(context)
        try FilesSetup.mapped { try MirrorState(folder: nil).save(directory: context.dataDirectory) }
        Output.line(folder.map { "notes are no longer kept in \($0); its files stay" } ?? "no notes folder was kept")
    }
}

/// `cloudnotes files status`.
struct FilesStatus: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "status",
        abstract:
            "Show the notes folder and what is out of step: files changed, notes not yet written, files that do not parse."
    )

    @OptionGroup var global: GlobalOptions

    func run() throws { try Self.show(global) }

    static func show(_ global: GlobalOptions) throws {
        let context = try Context(global)
        guard let folder = try FilesSetup.configuredFolder(context) else {
            Output.line("no notes folder ('cloudnotes files on DIR' keeps every note as a file)")
            return
        }
        let store = try context.openStore()
        let report = try FilesSetup.mapped {
            try FilesSetup.mirror(context, store, folder: folder).status()
        }
        Output.line("folder  \(Output.display(folder))")
        for line in report.fromFolder { Output.line("  to the store: " + Output.display(line)) }
        for line in report.toFolder { Output.line("  to the folder: " + Output.display(line)) }
        for line in report.waiting { Output.line("  waiting: " + Output.display(line)) }
        for (path, reason) in report.unparsed {
            Output.line("  not read: \(Output.display(path)): \(Output.display(reason)); it is left as it is")
        }
        if report.isEmpty { Output.line("in step") }
    }
}

/// `cloudnotes files sync`.
struct FilesSync: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sync", abstract: "Bring the notes folder and the store in step once, both ways.")

    @OptionGroup var global: GlobalOptions

    func run() throws {
        let context = try Context(global)
        let store = try context.openStore()
        let folder = try FilesSetup.folder(context)
        FilesSetup.print(try FilesSetup.pass(context, store, folder: folder))
    }
}
