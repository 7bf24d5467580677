import Foundation
import Glibc
import NotesCore

extension FolderMirror {
    /// The attachments of `note` the folder holds, with their file names (`ExportNames`): those
    /// whose content is on this device (the others follow once it arrives).
    func attachmentFiles(of note: Note) -> [MarkdownNote.AttachmentFile] {
        ExportNames.attachmentFiles(note.attachments.filter { store.hasAttachmentContent(sha256: $0.sha256) })
    }

    /// Writes `note`'s attachments into the folder named like its file (`Work/Plan/` beside
    /// `Work/Plan.md`), as export does: each missing one (or one of another size) streamed from
    /// the data directory into a hidden temporary file, then renamed into place.
    func writeAttachments(_ note: Note, _ files: [MarkdownNote.AttachmentFile], notePath: String) throws {
        guard !files.isEmpty else { return }
        let folder = root + "/" + String(notePath.dropLast(3))
        for file in files {
            guard let attachment = note.attachment(named: file.name) else { continue }
            let path = folder + "/" + file.file
            if FileStat.of(path)?.size == attachment.size { continue }
            try FileManager.default.createDirectory(
                atPath: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            let temporary = folder + "/." + file.file.prefix(200) + ".cloudnotes-\(getpid())"
            guard
                FileManager.default.createFile(atPath: temporary, contents: nil, attributes: [.posixPermissions: 0o600])
            else {
                throw MirrorError("cannot write \(path): \(String(cString: strerror(errno)))")
            }
            do {
                let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: temporary))
                defer { try? handle.close() }  // synchronized below: a failed close loses nothing
                _ = try store.readAttachmentContent(sha256: attachment.sha256, chunkSize: 1 << 20) { piece in
                    try handle.write(contentsOf: Data(piece))
                }
                try handle.synchronize()
                guard rename(temporary, path) == 0 else {
                    throw MirrorError("cannot write \(path): \(String(cString: strerror(errno)))")
                }
            } catch {
                unlink(temporary)
                throw error as? MirrorError ?? MirrorError("cannot write \(path): \(error.localizedDescription)")
            }
        }
    }

    /// Moves a note's attachment folder along with its file (`from` and `to` are note paths).
    func moveAttachmentFolder(from: String, to: String) {
        let old = root + "/" + String(from.dropLast(3))
        let new = root + "/" + String(to.dropLast(3))
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: old, isDirectory: &isDirectory), isDirectory.boolValue,
            !FileManager.default.fileExists(atPath: new)
        else { return }
        // A folder left behind is written again under the new name at the next write; nothing is lost.
        _ = rename(old, new)
    }
}
