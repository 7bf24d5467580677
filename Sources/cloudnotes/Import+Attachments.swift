import Foundation
import NotesCore
import NotesStore

/// An import carries attachments, as export writes them: a Markdown file lists its note's
/// attachments in its front matter (`attachments:`) and the folder named like the file, beside
/// it, holds them; a JSON note lists them with the file of each, relative to the JSON file.
/// Files are read without following links. A note whose source says nothing about attachments
/// keeps the ones it has (`importNotes(keepingAttachments:)`).
enum ImportAttachments {
    static let markdownExtensions = [".md", ".markdown"]

    /// What a file says about one note's attachments.
    enum Listed: Sendable {
        /// Listed in a Markdown file's front matter: files of the folder named like it.
        case folder([MarkdownNote.AttachmentFile])
        /// Listed in JSON: each with its file (relative to the JSON file's folder) or its content's hash.
        case json([AttachmentJSON])
    }

    /// The notes read from `file`, with their attachments' content copied into the data
    /// directory (streamed), and the ids of the notes whose source said nothing about
    /// attachments. Throws (the file is then skipped) when a listed attachment cannot be read.
    static func carry(
        _ read: ImportReader.Read, from file: String, _ store: NoteStore, maxBytes: Int64
    ) throws -> (notes: [Note], unsaid: Set<UUID>) {
        var notes: [Note] = []
        var unsaid = Set<UUID>()
        let markdownExtension = markdownExtensions.first(where: { file.lowercased().hasSuffix($0) })
        let folder = markdownExtension.map { String(file.dropLast($0.count)) }
        for var note in read.notes {
            var attachments: [Attachment]
            switch read.listedAttachments[note.id] {
            case .folder(let files)?:
                guard let folder else { throw CLIError("attachments are listed, but not in a Markdown file") }
                attachments = try files.map { listed in
                    try add(folder + "/" + listed.file, name: listed.name, store, maxBytes: maxBytes)
                }
            case .json(let listed)?:
                let base = URL(fileURLWithPath: file).deletingLastPathComponent().path
                attachments = try listed.map { try add($0, base: base, store, maxBytes: maxBytes) }
            case nil:
                // An export of an earlier build lists nothing: a folder with no notes in it,
                // named like a lone Markdown note, holds its attachments.
                guard read.notes.count == 1, let folder, isFolder(folder), ImportScan.holdsNoNotes(folder) else {
                    unsaid.insert(note.id)
                    notes.append(note)
                    continue
                }
                attachments = try legacyFolder(folder, store, maxBytes: maxBytes)
            }
            let names = attachments.map { Array($0.name.utf8) }
            guard Set(names).count == names.count else {
                throw CLIError("note \(note.idString) lists two attachments of one name")
            }
            note.attachments = Attachment.sorted(attachments)
            notes.append(note)
        }
        return (notes, unsaid)
    }

    static func isFolder(_ path: String) -> Bool {
        // Unreadable attributes: not a folder (the file is then refused by its own read).
        let type = (try? FileManager.default.attributesOfItem(atPath: path))?[.type] as? FileAttributeType
        return type == .typeDirectory
    }

    /// One file's content, as the attachment `name` (a symbolic link is refused).
    private static func add(_ path: String, name: String, _ store: NoteStore, maxBytes: Int64) throws -> Attachment {
        do {
            return try store.addAttachmentContent(fromFile: path, name: name, maxBytes: maxBytes, followingLinks: false)
        } catch let error as StoreError {
            throw CLIError("attachment \(name): \(error.message)")
        }
    }

    /// A JSON note's attachment: its file, which must lie under `base` (no `..`, no absolute
    /// path, no link on the way) and match the hash given; or, without a file, content already
    /// on this device by its hash.
    private static func add(_ listed: AttachmentJSON, base: String, _ store: NoteStore, maxBytes: Int64) throws
        -> Attachment
    {
        if let problem = Attachment.nameProblem(listed.name) { throw CLIError(problem) }
        guard let file = listed.file else {
            guard let sha256 = listed.sha256, let size = listed.size, store.hasAttachmentContent(sha256: sha256) else {
                throw CLIError(
                    "attachment \(listed.name): no \"file\" is given and its content is not on this device")
            }
            return Attachment(name: listed.name, size: size, sha256: sha256)
        }
        let parts = file.split(separator: "/", omittingEmptySubsequences: false)
        guard !file.hasPrefix("/"), !parts.contains(where: { $0 == ".." || $0.isEmpty }) else {
            throw CLIError("attachment \(listed.name): \"\(file)\" is not a path inside the folder of the JSON file")
        }
        var path = base
        for part in parts.dropLast() {
            path += "/" + part
            guard isFolder(path) else {
                throw CLIError("attachment \(listed.name): \(path) is not a folder (links are not followed)")
            }
        }
        let attachment = try add(base + "/" + file, name: listed.name, store, maxBytes: maxBytes)
        if let sha256 = listed.sha256, sha256 != attachment.sha256 {
            throw CLIError("attachment \(listed.name): \(file) does not hold the content its sha256 names")
        }
        return attachment
    }

    /// The regular files of an attachment folder an earlier build's export wrote.
    private static func legacyFolder(_ folder: String, _ store: NoteStore, maxBytes: Int64) throws -> [Attachment] {
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: folder).sorted()
        } catch {
            throw CLIError("cannot list the attachment folder \(folder): \(Output.reason(error))")
        }
        var attachments: [Attachment] = []
        for name in names where Attachment.nameProblem(name) == nil {
            let path = folder + "/" + name
            // Unreadable attributes: not a regular file, left out like a link.
            let type = (try? FileManager.default.attributesOfItem(atPath: path))?[.type] as? FileAttributeType
            guard type == .typeRegular else { continue }
            attachments.append(try add(path, name: name, store, maxBytes: maxBytes))
        }
        return attachments
    }
}
