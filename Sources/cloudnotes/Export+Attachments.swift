import Foundation
import NotesCore
import NotesStore

/// A Markdown export carries attachments: the note written as `<dir>/<stem>.md` has its
/// attachments as files in `<dir>/<stem>/`, beside its Markdown, and lists them in its front
/// matter (`attachments:`), which is how `ImportAttachments` knows the folder for what it is.
/// Content is streamed from the data directory, each file written atomically.
enum ExportAttachments {
    /// The attachments of `note` an export writes, with their file names (`ExportNames`):
    /// those whose content is on this device; the others are named in a warning.
    static func files(of note: Note, _ store: NoteStore) -> [MarkdownNote.AttachmentFile] {
        let present = note.attachments.filter { attachment in
            guard store.hasAttachmentContent(sha256: attachment.sha256) else {
                Output.warn(
                    "note \(note.idString): the content of \(attachment.name) has not arrived on this device; not exported"
                )
                return false
            }
            return true
        }
        return ExportNames.attachmentFiles(present)
    }

    /// Writes `note`'s attachments listed in `files` into the folder `stemPath` (the Markdown
    /// file's path without `.md`).
    static func write(_ note: Note, _ files: [MarkdownNote.AttachmentFile], _ store: NoteStore, beside stemPath: String)
        throws
    {
        guard !files.isEmpty else { return }
        do {
            try FileManager.default.createDirectory(
                atPath: stemPath, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        } catch {
            throw CLIError("cannot create \(stemPath): \(Output.reason(error))")
        }
        for file in files {
            guard let attachment = note.attachment(named: file.name) else { continue }
            try AttachmentFormat.writeAtomically(to: stemPath + "/" + file.file) { handle in
                _ = try store.readAttachmentContent(sha256: attachment.sha256, chunkSize: 1 << 20) { piece in
                    try handle.write(contentsOf: Data(piece))
                }
            }
        }
    }
}
