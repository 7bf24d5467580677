import ArgumentParser
import Foundation
import Glibc
import NotesCore
import NotesStore
import Synchronization

enum TransferFormat: String, ExpressibleByArgument, CaseIterable {
    case markdown, json
}

struct Export: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract:
            "Export notes as Markdown files (a folder per notebook named by its name, a file per note named by its title) or one JSON file (with each note's notebook id and name), attachments included.",
        discussion: """
            Markdown files carry front matter (id, dates, tags, favorite, notebook and the keys kept from an import), \
            so importing the folder gives back the same notes. A title shared by two notes of a notebook gets the \
            start of the id in the later one's name, a notebook name shared by two notebooks the id of the later \
            one (in zone id order); the same notes always get the same names. A note's attachments go into \
            the folder named like its file (Markdown, listed in its front matter; a name too long for a file is \
            shortened and the original kept there) or into <stem>-attachments/<note id>/ beside the JSON file \
            (listed in its "attachments"). A new folder is written under a temporary name and renamed when \
            complete. An existing target is never overwritten without --force.
            """)

    @OptionGroup var global: GlobalOptions
    @Argument(help: "A folder (markdown) or a file (json).") var target: String
    @Option(help: "markdown or json.") var format: TransferFormat = .markdown
    @Flag(help: "Include notes in the trash.") var includeTrash = false
    @Flag(help: "Overwrite an existing target.") var force = false

    func run() throws {
        let store = try Context(global).openStore(.read)
        let fm = FileManager.default
        let notes: [Note]
        switch format {
        case .json:
            if fm.fileExists(atPath: target) && !force {
                throw CLIError("\(target) exists; use --force to overwrite it")
            }
            let count = try Self.writeJSON(store, to: target, includeTrash: includeTrash)
            Output.info("exported \(count) note\(count == 1 ? "" : "s") to \(target)")
            return
        case .markdown:
            var isDirectory: ObjCBool = false
            var intoExisting = false
            if fm.fileExists(atPath: target, isDirectory: &isDirectory) {
                guard isDirectory.boolValue else {
                    throw CLIError("\(target) is a file; markdown export needs a folder")
                }
                // A folder that cannot be listed is treated as empty here; writing into it then
                // fails with its own error, and nothing is overwritten.
                let contents = (try? fm.contentsOfDirectory(atPath: target)) ?? []
                if !contents.isEmpty && !force {
                    throw CLIError("\(target) is not empty; use --force to write into it")
                }
                intoExisting = !contents.isEmpty
            }
            notes = try store.allNotes(includeTrash: includeTrash)
            let names = try Self.notebookNames(notes, store)
            // A new folder is written under a temporary name beside the target and renamed when
            // complete: an export that fails part-way leaves no folder that looks like a backup.
            // (`.` or `..` cannot be renamed onto: written in place.)
            let lastName = target.split(separator: "/").last ?? ""
            intoExisting = intoExisting || lastName == "." || lastName == ".."
            let folder = intoExisting ? target : try Self.temporaryFolder(for: target)
            do {
                let files = notes.map { ExportAttachments.files(of: $0, store) }
                let paths = try Self.writeMarkdown(notes, into: folder, notebookNames: names, attachmentFiles: files)
                // A note's attachments go into the folder named like its file, beside it.
                for index in notes.indices where !files[index].isEmpty {
                    try ExportAttachments.write(
                        notes[index], files[index], store, beside: folder + "/" + String(paths[index].dropLast(3)))
                }
                if !intoExisting, rename(folder, target) != 0 {
                    throw CLIError("cannot move the export to \(target): \(String(cString: strerror(errno)))")
                }
            } catch {
                let message = (error as? CLIError)?.message ?? Output.reason(error)
                guard !intoExisting else {
                    throw CLIError(message + "; the export stopped part-way: \(target) holds only some notes")
                }
                // Our own temporary folder; nothing else is in it.
                try? fm.removeItem(atPath: folder)
                throw CLIError(message + "; nothing was exported")
            }
        }
        Output.info("exported \(notes.count) note\(notes.count == 1 ? "" : "s") to \(target)")
    }

    /// Zone → display name of the notebooks `notes` are in (both export formats write it).
    static func notebookNames(_ notes: [Note], _ store: NoteStore) throws -> [String: String] {
        var names: [String: String] = [:]
        for zone in Set(notes.map(\.zone)) { names[zone] = try store.displayName(ofNotebook: zone) }
        return names
    }

    /// Renders and writes every note's file, on all cores; the first failure is reported
    /// after the others are written. `notebookNames`: zone → display name, which names the
    /// notebook's folder (`ExportNames.folders`) and goes into the front matter.
    /// Returns each note's path under `target` (`<notebook>/<stem>.md`).
    @discardableResult
    static func writeMarkdown(
        _ notes: [Note], into target: String, notebookNames: [String: String] = [:],
        attachmentFiles: [[MarkdownNote.AttachmentFile]] = []
    ) throws -> [String] {
        var allNames = notebookNames
        for zone in Set(notes.map(\.zone)) where allNames[zone] == nil { allNames[zone] = zone }
        let names = allNames
        let folders = ExportNames.folders(names)
        let paths = ExportNames.paths(notes, folders: folders)
        for folder in Set(folders.values).sorted() { try makeFolder(target + "/" + folder) }
        let workers = max(1, min(ProcessInfo.processInfo.activeProcessorCount, notes.count))
        let failure = Mutex<CLIError?>(nil)
        DispatchQueue.concurrentPerform(iterations: workers) { worker in
            for index in stride(from: worker, to: notes.count, by: workers) {
                do {
                    let note = notes[index]
                    let files = index < attachmentFiles.count ? attachmentFiles[index] : []
                    try writeNew(
                        MarkdownNote.render(note, notebookName: names[note.zone], attachmentFiles: files),
                        to: target + "/" + paths[index])
                } catch let error as CLIError {
                    failure.withLock { $0 = $0 ?? error }
                } catch {
                    failure.withLock { $0 = $0 ?? CLIError("\(error)") }
                }
            }
        }
        if let failure = failure.withLock({ $0 }) { throw failure }
        return paths
    }

    /// One file of a Markdown export: open, write, close. Not synced to disk file by file
    /// (`Data.write` fsyncs each file, which made most of the time of a 100k-note export); the
    /// notes stay in the store, and the OS writes the files back within seconds.
    static func writeNew(_ text: String, to path: String) throws {
        var text = text
        let failure = text.withUTF8 { FileDescriptorIO.writeNewFile(UnsafeRawBufferPointer($0), to: path, mode: 0o600) }
        guard failure == 0 else { throw CLIError("cannot write \(path): \(FileDescriptorIO.reason(failure))") }
    }

    /// The folder (its name, beside the JSON file) that holds a JSON export's attachments:
    /// `notes-attachments` for `notes.json`.
    static func jsonAttachmentsFolder(_ target: String) -> String {
        var name = URL(fileURLWithPath: target).lastPathComponent
        if name.lowercased().hasSuffix(".json") { name.removeLast(5) }
        return name + "-attachments"
    }

    /// A new, empty folder beside `target` (`.<name>.export-<pid>`), on its file system so that
    /// it can be renamed to `target`; the target's parent is made if missing.
    static func temporaryFolder(for target: String) throws -> String {
        var target = target
        while target.count > 1, target.hasSuffix("/") { target.removeLast() }
        let url = URL(fileURLWithPath: target)
        let parent = url.deletingLastPathComponent().path
        try makeFolder(parent)
        let folder = parent + "/." + url.lastPathComponent + ".export-\(getpid())"
        if FileManager.default.fileExists(atPath: folder) {
            // A leftover of an earlier export by a process with our pid, killed part-way.
            try? FileManager.default.removeItem(atPath: folder)
        }
        guard mkdir(folder, 0o700) == 0 else {
            throw CLIError("cannot create \(folder): \(String(cString: strerror(errno)))")
        }
        return folder
    }

    static func makeFolder(_ path: String) throws {
        do {
            try FileManager.default.createDirectory(
                atPath: path, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        } catch {
            throw CLIError("cannot create \(path): \(error.localizedDescription)")
        }
    }
}
