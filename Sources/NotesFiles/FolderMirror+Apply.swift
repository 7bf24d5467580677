import Foundation
import NotesCore
import NotesStore

extension FolderMirror {
    /// Brings the folder's changes into the store, each as an ordinary edit of its note: its
    /// folder is its notebook, a new file name its title (when the front matter's title is
    /// still the old name's), an edit a revision on the one the file was written from.
    func apply(_ changes: [FolderChange], _ report: inout MirrorReport) throws {
        var notebooks = try NotebookFolders(store)
        for change in changes {
            switch change {
            case .touched(let id, let stat):
                state[id: id]?.stat = stat
                state[id: id]?.checkedAtNs = nowNs()
            case .edited(let id, let file):
                let zone = try notebooks.zone(of: Self.folder(of: file.path), in: store) ?? Note.defaultZone
                try save(id, file, base: state.files[id]?.revision, title: file.parsed.note.title, zone: zone, &report)
                report.fromFolder.append("edited \(file.path)")
            case .moved(let id, let from, let file):
                let zone = try notebooks.zone(of: Self.folder(of: file.path), in: store) ?? Note.defaultZone
                var title = file.parsed.note.title
                let oldName = Self.titleStem(Self.stem(of: from), id: id)
                let newName = Self.titleStem(Self.stem(of: file.path), id: id)
                // Renamed, and the front matter still has the old name's title: the name wins.
                if newName != oldName, ExportNames.safe(title) == oldName { title = newName }
                try save(id, file, base: state.files[id]?.revision, title: title, zone: zone, &report)
                report.fromFolder.append("moved \(from) → \(file.path)")
            case .adopted(let id, let file):
                let zone = try notebooks.zone(of: Self.folder(of: file.path), in: store) ?? Note.defaultZone
                let base = try adoptionBase(file.parsed.note)
                try save(id, file, base: base, title: file.parsed.note.title, zone: zone, &report)
                report.fromFolder.append("read \(file.path)")
            case .created(let file):
                let zone = try notebooks.zone(of: Self.folder(of: file.path), in: store) ?? Note.defaultZone
                try create(file, zone: zone)
                report.fromFolder.append("new \(file.path)")
            case .deleted(let id, let path):
                state[id: id] = nil
                if let uuid = UUID(uuidString: id), let note = try store.note(uuid), !note.isTrashed {
                    _ = try store.trash(uuid)
                    report.fromFolder.append("trashed \(path)")
                }
            }
        }
    }

    /// Saves a file's note as an edit on `base`, merged with whatever else changed the note
    /// since (`NoteStore.update(_:onBase:resolve:_:)`); a note purged meanwhile comes back as
    /// a new one (the file's text is never dropped).
    private func save(
        _ id: String, _ file: FolderChange.ReadFile, base: String?, title: String, zone: String,
        _ report: inout MirrorReport
    ) throws {
        guard let uuid = UUID(uuidString: id), try store.note(uuid) != nil else {
            state[id: id] = nil
            try create(file, zone: zone, keepID: false)
            return
        }
        let parsed = file.parsed.note
        let result = try store.update(uuid, onBase: base, resolve: resolve) { note in
            note.title = title
            note.body = parsed.body
            note.tags = parsed.tags
            note.isFavorite = parsed.isFavorite
            note.zone = zone
            note.frontMatter = parsed.frontMatter
        }
        if result.conflict { report.conflicts.append(file.path) }
        record(id, file, note: result.note)
    }

    /// A new note from a file, with the file's id when it gives one no note has.
    private func create(_ file: FolderChange.ReadFile, zone: String, keepID: Bool = true) throws {
        let parsed = file.parsed.note
        var id = UUID()
        if keepID, file.parsed.idGiven, state.files[parsed.idString] == nil, try store.note(parsed.id) == nil {
            id = parsed.id
        }
        var note = try store.create(
            title: parsed.title, body: parsed.body, tags: parsed.tags, isFavorite: parsed.isFavorite, zone: zone, id: id
        )
        if let frontMatter = parsed.frontMatter {
            note = try store.update(id) { $0.frontMatter = frontMatter }
        }
        record(id.lowercasedString, file, note: note)
    }

    /// The revision a file from elsewhere (no record here) was written from: the one whose
    /// modification date its front matter gives, else the note's first, so that what changed
    /// since merges instead of being overwritten.
    private func adoptionBase(_ parsed: Note) throws -> String? {
        let history = try store.history(parsed.id).filter { !$0.isTombstone }
        let modified = parsed.modifiedAt.millisecondsSince1970
        return history.first { $0.fields?.modifiedAt == modified }?.id ?? history.last?.id
    }

    /// Records what the mirror read of `file` as `note`'s file.
    func record(_ id: String, _ file: FolderChange.ReadFile, note: Note) {
        let inStep = file.parsed.idGiven && Self.sameContent(file.parsed.note, note)
        state[id: id] = FileRecord(
            path: file.path, revision: note.headRev ?? "", inStep: inStep, sha256: file.sha256, stat: file.stat,
            checkedAtNs: nowNs())
    }

    /// Whether a file that parses as `file` says what `note` says (dates aside: the store's
    /// edit of a file's text changes its modification date, which is no reason to write it).
    static func sameContent(_ file: Note, _ note: Note) -> Bool {
        file.title == note.title && file.body == note.body && file.tags == note.tags
            && file.isFavorite == note.isFavorite && file.zone == note.zone && file.frontMatter == note.frontMatter
            && file.isTrashed == note.isTrashed
    }

    /// A file name's stem as the title it stands for: without the ` (1a2b3c4d)` export adds to a
    /// title two notes share.
    static func titleStem(_ stem: String, id: String) -> String {
        let mark = " (" + id.prefix(8) + ")"
        return stem.hasSuffix(mark) ? String(stem.dropLast(mark.count)) : stem
    }
}
