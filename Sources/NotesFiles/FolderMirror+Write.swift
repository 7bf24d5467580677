import Foundation
import Glibc
import NotesCore

extension FolderMirror {
    /// Writes the store's notes into the folder: a note in the trash (or gone) loses its file, a
    /// moved or retitled note's file is renamed, and a note whose file is not its current text
    /// is written atomically. A file is replaced, renamed or removed only while it still holds
    /// what the mirror last read (its stat unchanged); else it waits for the next pass, which
    /// reads it first. With `dryRun`, only says what it would do.
    ///
    /// The notes are read without their text (`allNoteHeads`): a note whose file is at its path
    /// and says its head revision is passed over, and only the others are read in full. After a
    /// first pass, only the notes the store's change sequence says moved since are looked at
    /// (`writePlan`; a note added, gone, retitled or moved names its namesakes' files again). With
    /// `sweep`, each note's attachments missing from the folder are written back too.
    func writeFolder(_ report: inout MirrorReport, dryRun: Bool, sweep: Bool = true) throws {
        var finished = false
        // A pass that stops half way forgets the heads: the next reads every note.
        defer { if !finished { heads = nil } }
        var plan = try writePlan(sweep: sweep, dryRun: dryRun)
        let (notes, ids, paths, notebooks) = (plan.notes, plan.ids, plan.paths, plan.notebooks)
        // A notebook renamed: its notes' files say the old name even where their path stays (a
        // name with the same folder), so their records say they are behind until written.
        let renamed = state.namesChanged(notebooks.names)
        if !renamed.isEmpty {
            // A plan of every note (`look` nil) looks at them anyway.
            var look = plan.look.map(Set.init)
            for index in notes.indices where renamed.contains(notes[index].zone) {
                if var record = state.files[ids[index]], record.inStep {
                    record.inStep = false
                    state[id: ids[index]] = record
                }
                look?.insert(index)
            }
            plan.look = look?.sorted()
        }
        let unparsed = Set(report.unparsed.map(\.path))
        var waiting: Set<String> = []
        // A plan of every note finds the records of notes gone; else it names them.
        let live = plan.look == nil ? Set(ids) : []
        let goneIDs = plan.look == nil ? state.files.keys.filter { !live.contains($0) } : plan.gone
        for (id, record) in goneIDs.compactMap({ id in state.files[id].map { (id, $0) } }).sorted(by: {
            $0.1.path < $1.1.path
        }) {
            if dryRun {
                report.toFolder.append("remove \(record.path)")
                continue
            }
            let full = root + "/" + record.path
            if let now = FileStat.of(full) {
                guard now == record.stat else {
                    report.waiting.append(record.path)
                    waiting.insert(id)
                    continue
                }
                unlink(full)
                written.insert(record.path)
                removeEmptyFolders(Self.folder(of: record.path))
            }
            state[id: id] = nil
            report.toFolder.append("removed \(record.path)")
        }
        var occupied = state.idAtPath
        for (index, note) in (plan.look ?? Array(notes.indices)).lazy.map({ ($0, notes[$0]) }) {
            let id = ids[index]
            let target = paths[index]
            let record = state.files[id]
            if let record, record.path == target, record.inStep, record.revision == note.headRev {
                if !dryRun, sweep, !note.attachments.isEmpty {
                    try writeAttachments(note, attachmentFiles(of: note), notePath: target)
                }
                continue
            }
            if let record, unparsed.contains(record.path) {
                report.waiting.append(record.path)
                waiting.insert(id)
                continue
            }
            let taken = occupied[target].map { $0 != id } ?? false
            if taken || unparsed.contains(target) || (record == nil && FileStat.of(root + "/" + target) != nil) {
                report.waiting.append(target)
                waiting.insert(id)
                continue
            }
            if dryRun {
                let from = record.map { $0.path == target ? "" : $0.path + " → " } ?? ""
                report.toFolder.append("write \(from)\(target)")
                continue
            }
            if let record, let now = FileStat.of(root + "/" + record.path), now != record.stat {
                report.waiting.append(record.path)
                waiting.insert(id)
                continue
            }
            // Its text, now that it is to be written (gone meanwhile: the next pass removes its file).
            guard let note = try store.note(note.id), !note.isTrashed else { continue }
            let attachments = note.attachments.isEmpty ? [] : attachmentFiles(of: note)
            let data = Data(
                MarkdownNote.render(note, notebookName: notebooks.names[note.zone], attachmentFiles: attachments).utf8)
            let sha256 = Self.sha256(data)
            try makeFolders(Self.folder(of: target))
            if let record, record.path != target {
                if FileStat.of(root + "/" + record.path) != nil,
                    rename(root + "/" + record.path, root + "/" + target) != 0
                {
                    throw MirrorError(
                        "cannot rename \(root)/\(record.path) to \(target): \(String(cString: strerror(errno)))")
                }
                written.formUnion([record.path, target])
                moveAttachmentFolder(from: record.path, to: target)
                occupied[record.path] = nil
                occupied[target] = id
                removeEmptyFolders(Self.folder(of: record.path))
            }
            let isNew = FileStat.of(root + "/" + target) == nil
            if record?.sha256 != sha256 || isNew {
                // A new file replaces nothing: its bytes are flushed with the others' at the end of
                // the pass (one `syncfs`, not an `fsync` each: the first write of 100k files).
                try AtomicFile.write(data, to: root + "/" + target, sync: !isNew)
                if isNew { unflushed = true }
                written.insert(target)
            }
            try writeAttachments(note, attachments, notePath: target)
            guard let stat = FileStat.of(root + "/" + target) else {
                throw MirrorError("\(root)/\(target) vanished just after it was written")
            }
            state[id: id] = FileRecord(
                path: target, revision: note.headRev ?? "", inStep: true, sha256: sha256, stat: stat,
                checkedAtNs: nowNs())
            report.toFolder.append("wrote \(target)")
        }
        if !dryRun { unfinished = waiting }
        finished = true
    }

    private func makeFolders(_ folder: String) throws {
        guard !folder.isEmpty else { return }
        do {
            try FileManager.default.createDirectory(
                atPath: root + "/" + folder, withIntermediateDirectories: true,
                attributes: [.posixPermissions: 0o700])
        } catch {
            throw MirrorError("cannot create \(root)/\(folder): \(error.localizedDescription)")
        }
    }

    /// Removes `folder` and its parents under the root while they are empty (a notebook's
    /// folder whose last note moved away); a folder with anything in it stays.
    private func removeEmptyFolders(_ folder: String) {
        var folder = folder
        while !folder.isEmpty, rmdir(root + "/" + folder) == 0 { folder = Self.folder(of: folder) }
    }
}
