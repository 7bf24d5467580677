import Foundation
import NotesCore

extension FolderMirror {
    /// Files another program put in a note's attachment folder (`Work/Plan/` beside
    /// `Work/Plan.md`) become attachments of that note, named by the file's name: their content
    /// is copied into the data directory and attached in one edit of the note. A file named like
    /// one of the note's attachments' files is that attachment's copy (the mirror wrote it) and is
    /// not read; dot-files, editors' backups, folders and links are skipped, as in the notes.
    /// `folders`: the notes' attachment folders (`FolderScan`), relative to the root.
    func readAttachments(_ report: inout MirrorReport, in folders: [String]) throws {
        for relative in folders {
            guard let key = state.idAtPath[relative + ".md"] else { continue }
            let folder = root + "/" + relative
            guard let id = UUID(uuidString: key), let note = try store.note(id) else { continue }
            let known = Set(ExportNames.attachmentFiles(note.attachments).map(\.file))
            let names: [String]
            do {
                names = try FileManager.default.contentsOfDirectory(atPath: folder).sorted()
            } catch {
                throw MirrorError("cannot list \(folder): \(error.localizedDescription)")
            }
            var added: [Attachment] = []
            for name in names where !known.contains(name) && !FolderScan.isIgnored(name) {
                guard FileStat.of(folder + "/" + name) != nil, Attachment.nameProblem(name) == nil else { continue }
                added.append(
                    try store.addAttachmentContent(
                        fromFile: folder + "/" + name, name: name, maxBytes: Attachment.maxSize, followingLinks: false))
                report.fromFolder.append("attached \(relative)/\(name)")
            }
            if !added.isEmpty { try store.attach(id, added) }
        }
    }
}
