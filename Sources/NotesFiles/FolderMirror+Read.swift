import Foundation
import NotesCore

extension FolderMirror {
    /// The folder's changes since the mirror last looked. A file is read only when its stat
    /// says it may have changed (`FileRecord.mayHaveChanged`), and counts as edited only when
    /// its bytes differ from those recorded: the mirror's own writes never come back.
    /// `scan`: the folder's listing when the caller has just taken it; `changed`: the only paths
    /// that may have moved since the last pass (a keeper's inotify events), nil when any may have.
    func readFolder(_ report: inout MirrorReport, scan: [String: FileStat]? = nil, changed: Set<String>? = nil) throws
        -> [FolderChange]
    {
        let scan = try scan ?? FolderScan.scan(root)
        let idAtPath = state.idAtPath
        var changes: [FolderChange] = []
        // Notes whose path now holds another note's file (that note's, moved over it).
        var displaced: Set<String> = []
        var unknown: [FolderChange.ReadFile] = []
        // Most files are as recorded: only the others are sorted (changes in path order) and read.
        var candidates: [(path: String, stat: FileStat)] = []
        func consider(_ path: String, _ stat: FileStat) {
            if let id = idAtPath[path], let record = state.files[id], !record.mayHaveChanged(stat) { return }
            candidates.append((path, stat))
        }
        if let changed {
            for path in changed { if let stat = scan[path] { consider(path, stat) } }
        } else {
            for (path, stat) in scan { consider(path, stat) }
        }
        for (path, _) in candidates.sorted(by: { $0.path < $1.path }) {
            guard let id = idAtPath[path], let record = state.files[id] else {
                if let file = read(path, &report) { unknown.append(file) }
                continue
            }
            var unchanged: FileStat?
            guard let file = read(path, &report, unlessHash: record.sha256, unchanged: &unchanged) else {
                if let unchanged { changes.append(.touched(id: id, unchanged)) }
                continue
            }
            if file.parsed.idGiven, file.parsed.note.idString != id {
                // Another note's file saved over this one's name: that note's, moved here.
                displaced.insert(id)
                unknown.append(file)
            } else {
                changes.append(.edited(id: id, file))
            }
        }
        /// Whether note `id`'s recorded file is still there, its own.
        func isPresent(_ id: String) -> Bool {
            guard let record = state.files[id] else { return false }
            return scan[record.path] != nil && !displaced.contains(id)
        }
        var claimed: Set<String> = []
        for file in unknown {
            let id = file.parsed.note.idString
            if file.parsed.idGiven, !claimed.contains(id), !isPresent(id) {
                if let record = state.files[id] {
                    claimed.insert(id)
                    changes.append(.moved(id: id, from: record.path, file))
                    continue
                }
                if try store.note(file.parsed.note.id) != nil {
                    claimed.insert(id)
                    changes.append(.adopted(id: id, file))
                    continue
                }
            }
            changes.append(.created(file))
        }
        // Only a changed path can have lost its file, when the caller knows which changed.
        var gone: [(id: String, path: String)] = []
        func suspect(_ id: String, _ record: FileRecord) {
            guard !claimed.contains(id), scan[record.path] == nil || displaced.contains(id) else { return }
            gone.append((id, record.path))
        }
        if let changed {
            var suspects = displaced
            for path in changed { if let id = idAtPath[path] { suspects.insert(id) } }
            for id in suspects { if let record = state.files[id] { suspect(id, record) } }
        } else {
            // Every record, once (a sweep at 100k notes: no set of every id made first).
            for (id, record) in state.files { suspect(id, record) }
        }
        for (id, path) in gone.sorted(by: { $0.path < $1.path }) {
            changes.append(.deleted(id: id, path: path))
        }
        return try withoutReadOnly(changes, &report)
    }

    /// Reads and parses one file; nil (and the file named in `report`) when it changed while
    /// being read, is not UTF-8 text, or does not parse: such a file is left as it is.
    func read(_ path: String, _ report: inout MirrorReport) -> FolderChange.ReadFile? {
        var unchanged: FileStat?
        return read(path, &report, unlessHash: nil, unchanged: &unchanged)
    }

    /// `read`, which stops before parsing when the bytes hash to `known` (the file holds what
    /// the mirror last saw: `unchanged` is its stat), as most files of a pass do.
    func read(_ path: String, _ report: inout MirrorReport, unlessHash known: String?, unchanged: inout FileStat?)
        -> FolderChange.ReadFile?
    {
        let full = root + "/" + path
        guard let before = FileStat.of(full), let data = FileManager.default.contents(atPath: full),
            FileStat.of(full) == before
        else {
            report.waiting.append(path)
            return nil
        }
        let sha256 = Self.sha256(data)
        if sha256 == known {
            unchanged = before
            return nil
        }
        guard let text = String(data: data, encoding: .utf8) else {
            report.unparsed.append((path, "it is not UTF-8 text"))
            return nil
        }
        do {
            let parsed = try MarkdownNote.parseFile(
                text, fileDate: Date(timeIntervalSince1970: Double(before.mtimeNs) / 1e9), notebook: Note.defaultZone,
                fileName: Self.stem(of: path))
            return FolderChange.ReadFile(path: path, parsed: parsed, sha256: sha256, stat: before)
        } catch let error as MarkdownNote.FormatError {
            report.unparsed.append((path, "its front matter does not parse (\(error.description))"))
        } catch {
            report.unparsed.append((path, "it does not parse as a note"))
        }
        return nil
    }
}
