import Foundation
import NotesCore
import NotesStore

extension Export {
    /// Writes every note as one JSON array to `target`, one note in memory at a time (issue 27:
    /// JSON export in bounded memory): into a temporary file beside it, renamed over `target` when
    /// complete, so a failure leaves any earlier file as it was. Attachments go first, into
    /// `<stem>-attachments/<note id>/`: a failure leaves no JSON naming files that are not there.
    /// Returns how many notes were written.
    static func writeJSON(_ store: NoteStore, to target: String, includeTrash: Bool) throws -> Int {
        var names: [String: String] = [:]
        for zone in try store.noteZones(includeTrash: includeTrash) {
            names[zone] = try store.displayName(ofNotebook: zone)
        }
        let folder = jsonAttachmentsFolder(target)
        let base = URL(fileURLWithPath: target).deletingLastPathComponent().path
        let temporary = base + "/." + URL(fileURLWithPath: target).lastPathComponent + ".tmp-\(getpid())"
        guard FileManager.default.createFile(atPath: temporary, contents: nil),
            let handle = FileHandle(forWritingAtPath: temporary)
        else { throw CLIError("cannot write \(target): \(String(cString: strerror(errno)))") }
        var written = 0
        do {
            defer { try? handle.close() }  // Closed once; a failure to close is seen by the write or the sync.
            var array = JSONArrayStream { try handle.write(contentsOf: $0) }
            try store.forEachNote(includeTrash: includeTrash) { note in
                var entry = NoteJSON(note, notebookName: names[note.zone])
                let files = ExportAttachments.files(of: note, store)
                if !files.isEmpty {
                    try ExportAttachments.write(note, files, store, beside: base + "/" + folder + "/" + note.idString)
                    entry.attachments = files.compactMap { file in
                        note.attachment(named: file.name).map {
                            AttachmentJSON(
                                name: $0.name, size: $0.size, sha256: $0.sha256,
                                file: folder + "/" + note.idString + "/" + file.file)
                        }
                    }
                }
                try array.append(entry)
                written += 1
            }
            try array.finish()
            try handle.synchronize()
            guard rename(temporary, target) == 0 else {
                throw CLIError("cannot write \(target): \(String(cString: strerror(errno)))")
            }
        } catch {
            // Our own temporary file: nothing else is in it.
            try? FileManager.default.removeItem(atPath: temporary)
            if let error = error as? CLIError { throw error }
            throw CLIError(
                "cannot write \(target): \((error as NSError).localizedFailureReason ?? Output.reason(error))")
        }
        return written
    }
}
