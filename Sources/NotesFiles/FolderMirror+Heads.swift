import Foundation
import NotesCore
import NotesStore

extension FolderMirror {
    /// The store's notes as the last pass wrote the folder from them (no text, `allNoteHeads`'s
    /// order), and the number of the store's change sequence they are as of: the next pass
    /// reads only the notes changed since (`NoteStore.noteHeads(changedAfter:)`).
    struct Heads {
        var notes: [Note]
        /// Each note's id string, by position.
        var ids: [String]
        var position: [String: Int]
        /// One note of each notebook the notes are in (what `NotebookFolders` names).
        var zones: [Note]
        var sequence: Int64
    }

    /// What `writeFolder` looks at: the notes, their ids, files and notebooks, and which of
    /// them to look at (`look`; nil: every one).
    struct WritePlan {
        var notes: [Note]
        var ids: [String]
        var paths: [String]
        var notebooks: NotebookFolders
        var look: [Int]?
    }

    /// Every note when `full` (`status`, a sweep) or when the names of the files may have moved
    /// (a note added, removed, retitled, moved or recreated, a notebook renamed: a file's name
    /// depends on its neighbours'); else only the notes changed since the last pass, those the
    /// last pass left waiting and those whose record this pass's reads changed, read by the
    /// change sequence instead of every head.
    /// A `dryRun` keeps the heads as they were: the folder was not written from the newer ones.
    func writePlan(full: Bool, dryRun: Bool) throws -> WritePlan {
        if !full, !dryRun, let plan = try changedOnly() { return plan }
        let (notes, sequence) = try store.allNoteHeadsAndSequence()
        headsRead = notes.count
        let notebooks = try NotebookFolders(store, zonesOf: notes)
        let keys = notes.map { PathKey(id: $0.id, zone: $0.zone, title: $0.title, createdAt: $0.createdAt) }
        let paths: [String]
        if let last = lastPaths, last.keys == keys, last.folders == notebooks.folders {
            paths = last.paths
        } else {
            paths = ExportNames.paths(notes, folders: notebooks.folders)
            lastPaths = (keys, notebooks.folders, paths)
        }
        // Each note's id as the records key it, once (a UUID's string is made per call).
        let ids = notes.map(\.idString)
        var position: [String: Int] = [:]
        position.reserveCapacity(ids.count)
        var zones: [String: Note] = [:]
        for (index, id) in ids.enumerated() {
            position[id] = index
            if zones[notes[index].zone] == nil { zones[notes[index].zone] = notes[index] }
        }
        if !dryRun {
            heads = Heads(notes: notes, ids: ids, position: position, zones: Array(zones.values), sequence: sequence)
        }
        return WritePlan(notes: notes, ids: ids, paths: paths, notebooks: notebooks, look: nil)
    }

    /// The plan from the notes changed since the last pass; nil when every note must be looked at.
    private func changedOnly() throws -> WritePlan? {
        // Taken out while it changes, so that its arrays are changed in place, not copied.
        guard var heads, let last = lastPaths else { return nil }
        self.heads = nil
        let changes = try store.noteHeads(changedAfter: heads.sequence)
        headsRead = changes.live.count
        var look: Set<Int> = []
        for id in unfinished {
            guard let index = heads.position[id] else { return nil }
            look.insert(index)
        }
        // Records this pass's reads set or removed (a note created here is in `changes`).
        for id in state.changedIDs { if let index = heads.position[id] { look.insert(index) } }
        for id in changes.gone where heads.position[id.lowercasedString] != nil { return nil }
        for note in changes.live {
            guard let index = heads.position[note.idString] else { return nil }
            let old = heads.notes[index]
            guard old.zone == note.zone, old.title == note.title, old.createdAt == note.createdAt else { return nil }
            heads.notes[index] = note
            look.insert(index)
        }
        let notebooks = try NotebookFolders(store, zonesOf: heads.zones)
        guard notebooks.folders == last.folders else { return nil }
        heads.sequence = changes.sequence
        self.heads = heads
        return WritePlan(
            notes: heads.notes, ids: heads.ids, paths: last.paths, notebooks: notebooks, look: look.sorted())
    }
}
