import ArgumentParser
import Foundation
import NotesCore
import NotesStore

/// `attach NOTE FILE…`: copies files into the data directory (streamed) and attaches them
/// (SYNC-FORMAT rule 15: they sync as chunks).
struct Attach: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "attach",
        abstract: "Attach files to a note.",
        discussion:
            "cloudnotes attach NOTE report.pdf photo.jpg    attaches each file under its file name; a name the note "
            + "already has is refused unless --force replaces it. Files over maxNoteBytes are refused.")

    @OptionGroup var global: GlobalOptions
    @Argument(help: "Id, id prefix or exact title.") var note: String
    @Argument(help: "Files to attach.") var files: [String]
    @Option(help: "The name to attach the file under (one file only).") var name: String?
    @Flag(help: "Replace an attachment of the same name.") var force = false

    func validate() throws {
        guard !files.isEmpty else { throw ValidationError("name at least one file to attach") }
        if name != nil, files.count > 1 { throw ValidationError("--name needs exactly one file") }
    }

    func run() throws {
        let context = try Context(global)
        let store = try context.openStore()
        let note = try store.resolve(self.note)
        // Everything is checked before any content is copied: a refusal changes nothing.
        var names: [String] = []
        for file in files {
            let name = self.name ?? (file as NSString).lastPathComponent
            if let problem = Attachment.nameProblem(name) { throw CLIError("\(file): \(problem)") }
            guard !names.contains(where: { $0.utf8.elementsEqual(name.utf8) }) else {
                throw CLIError("two of the files would be attached as \(name)")
            }
            if !force, note.attachment(named: name) != nil {
                throw CLIError(
                    "note \(Format.shortID(note.id)) already has an attachment named \(name); use --force to replace it"
                )
            }
            var info = stat()
            guard stat(file, &info) == 0 else {
                throw CLIError("cannot read \(file): \(String(cString: strerror(errno)))")
            }
            guard (info.st_mode & S_IFMT) == S_IFREG else { throw CLIError("\(file) is not a regular file") }
            let limit = Int64(context.config.maxNoteBytes)
            guard Int64(info.st_size) <= min(limit, Attachment.maxSize) else {
                throw CLIError(
                    "\(file) is \(info.st_size) bytes, over the \(min(limit, Attachment.maxSize))-byte limit (maxNoteBytes)"
                )
            }
            names.append(name)
        }
        var attachments: [Attachment] = []
        for (file, name) in zip(files, names) {
            attachments.append(
                try store.addAttachmentContent(
                    fromFile: file, name: name, maxBytes: Int64(context.config.maxNoteBytes)))
        }
        try store.attach(note.id, attachments, replacing: force)
        for attachment in attachments {
            Output.line(
                "attached \(Output.display(attachment.name)) (\(Format.bytes(attachment.size))) to "
                    + Format.shortID(note.id))
        }
    }
}

/// `attachments NOTE [--json]`.
struct Attachments: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "attachments", abstract: "List a note's attachments.")

    @OptionGroup var global: GlobalOptions
    @Argument(help: "Id, id prefix or exact title.") var note: String
    @Flag(help: "Print JSON.") var json = false

    struct Entry: Encodable {
        var name: String
        var size: Int64
        var sha256: String
        /// Whether the content is in this data directory.
        var present: Bool
    }

    func run() throws {
        let store = try Context(global).openStore()
        let note = try store.resolve(self.note)
        let entries = note.attachments.map {
            Entry(
                name: $0.name, size: $0.size, sha256: $0.sha256, present: store.hasAttachmentContent(sha256: $0.sha256))
        }
        if json { return try Output.json(entries) }
        for entry in entries {
            let missing = entry.present ? "" : "  (content not here yet)"
            Output.line(
                Format.bytes(entry.size).padding(toLength: 10, withPad: " ", startingAt: 0) + " "
                    + Output.display(entry.name) + missing)
        }
    }
}

/// `attachment NOTE NAME --output FILE|-`: writes an attachment's content, streamed.
struct AttachmentCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "attachment", abstract: "Write one of a note's attachments to a file or to standard output.")

    @OptionGroup var global: GlobalOptions
    @Argument(help: "Id, id prefix or exact title.") var note: String
    @Argument(help: "The attachment's name.") var name: String
    @Option(name: .shortAndLong, help: "Where to write it: a file, or - for standard output.") var output: String

    func run() throws {
        let store = try Context(global).openStore()
        let note = try store.resolve(self.note)
        guard let attachment = note.attachment(named: name) else {
            throw CLIError("note \(Format.shortID(note.id)) has no attachment named \(name)")
        }
        guard store.hasAttachmentContent(sha256: attachment.sha256) else {
            throw CLIError("the content of \(name) has not arrived on this device yet; sync and try again")
        }
        if output == "-" {
            _ = try store.readAttachmentContent(sha256: attachment.sha256, chunkSize: 1 << 20) { piece in
                try FileHandle.standardOutput.write(contentsOf: Data(piece))
            }
            return
        }
        try AttachmentFormat.writeAtomically(to: output) { handle in
            _ = try store.readAttachmentContent(sha256: attachment.sha256, chunkSize: 1 << 20) { piece in
                try handle.write(contentsOf: Data(piece))
            }
        }
    }
}

/// `detach NOTE NAME`.
struct Detach: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "detach", abstract: "Remove an attachment from a note.")

    @OptionGroup var global: GlobalOptions
    @Argument(help: "Id, id prefix or exact title.") var note: String
    @Argument(help: "The attachment's name.") var name: String

    func run() throws {
        let store = try Context(global).openStore()
        let note = try store.resolve(self.note)
        guard note.attachment(named: name) != nil else {
            throw CLIError("note \(Format.shortID(note.id)) has no attachment named \(name)")
        }
        try store.detach(note.id, name: name)
        Output.line("detached \(Output.display(name)) from \(Format.shortID(note.id))")
    }
}

enum AttachmentFormat {
    /// Writes a file under a temporary name beside it and renames it into place, so a failure
    /// leaves no half-written file.
    static func writeAtomically(to path: String, _ write: (FileHandle) throws -> Void) throws {
        let directory = (path as NSString).deletingLastPathComponent
        let temporary =
            (directory.isEmpty ? "." : directory) + "/.\((path as NSString).lastPathComponent).tmp-\(getpid())"
        guard FileManager.default.createFile(atPath: temporary, contents: nil) else {
            throw CLIError("cannot write \(path): \(String(cString: strerror(errno)))")
        }
        do {
            let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: temporary))
            // Synchronized (fsync) before the rename: a failed close then loses nothing.
            defer { try? handle.close() }
            try write(handle)
            try handle.synchronize()
            guard rename(temporary, path) == 0 else {
                throw CLIError("cannot write \(path): \(String(cString: strerror(errno)))")
            }
        } catch {
            unlink(temporary)
            if let error = error as? CLIError { throw error }
            throw CLIError("cannot write \(path): \(Output.reason(error))")
        }
    }
}
