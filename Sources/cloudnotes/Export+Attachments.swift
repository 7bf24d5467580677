import Foundation
import NotesCore
import NotesStore

/// A Markdown export carries attachments: the note written as `<dir>/<stem>.md` has its
/// attachments as files in `<dir>/<stem>/`, beside its Markdown (`ImportAttachments` reads them
/// back). Content is streamed from the data directory, each file written atomically.
enum ExportAttachments {
    /// Writes `note`'s attachments into the folder `stemPath` (the Markdown file's path without
    /// `.md`); nothing for a note without attachments.
    static func write(_ note: Note, _ store: NoteStore, beside stemPath: String) throws {
        guard !note.attachments.isEmpty else { return }
        do {
            try FileManager.default.createDirectory(
                atPath: stemPath, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        } catch {
            throw CLIError("cannot create \(stemPath): \(Output.reason(error))")
        }
        for attachment in note.attachments {
            guard store.hasAttachmentContent(sha256: attachment.sha256) else {
                Output.warn(
                    "note \(note.idString): the content of \(attachment.name) has not arrived on this device; not exported"
                )
                continue
            }
            try AttachmentFormat.writeAtomically(to: stemPath + "/" + attachment.name) { handle in
                _ = try store.readAttachmentContent(sha256: attachment.sha256, chunkSize: 1 << 20) { piece in
                    try handle.write(contentsOf: Data(piece))
                }
            }
        }
    }
}
