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
        /// Each note's file name stem as `ExportNames.paths` compares it (`safe`, lowercased), by
        /// position: made the first time a name must be made again, then kept.
        var stems: [String]?
    }

    /// What `writeFolder` looks at: the notes, their ids, files and notebooks, and which of
    /// them to look at (`look`; nil: every one), and the notes gone since the last pass whose
    /// files it removes (with `look` nil: every record of a note not in `notes`).
    struct WritePlan {
        var notes: [Note]
        var ids: [String]
        var paths: [String]
        var notebooks: NotebookFolders
        var look: [Int]?
        var gone: [String] = []
    }

    /// Every note on a first pass or a `dryRun` (`status`); else only the notes changed since
    /// the last pass, those the last pass left waiting and those whose record this pass's reads
    /// changed, read by the change sequence instead of every head; with `sweep` every note with
    /// attachments too (the sweep writes back those missing from the folder). A note added,
    /// gone, retitled or moved names its namesakes' files again (a file's name depends on its
    /// namesakes' in its folder), and a notebook whose folder moved all its notes, from the
    /// notes held.
    /// The store's change sequence misses nothing, so a sweep (the net for the folder's changes
    /// that inotify missed) reads no more heads than a tick.
    /// A `dryRun` keeps the heads as they were: the folder was not written from the newer ones.
    func writePlan(sweep: Bool, dryRun: Bool) throws -> WritePlan {
        if !dryRun, let plan = try changedOnly(sweep: sweep) { return plan }
        let (notes, sequence) = try store.allNoteHeadsAndSequence()
        headsRead = notes.count
        let notebooks = try NotebookFolders(store, zonesOf: notes)
        let keys = notes.map { PathKey(id: $0.id, zone: $0.zone, title: $0.title, createdAt: $0.createdAt) }
        let paths: [String]
        if let last = lastPaths, last.keys == keys, last.folders == notebooks.folders {
            paths = last.paths
        } else {
            paths = ExportNames.paths(notes, folders: notebooks.folders)
            // Kept beside the heads, position for position: a dry run's (another order) is not.
            if !dryRun { lastPaths = (keys, notebooks.folders, paths) }
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
    private func changedOnly(sweep: Bool) throws -> WritePlan? {
        // Taken out while it changes, so that its arrays are changed in place, not copied.
        guard var heads, var last = lastPaths else { return nil }
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
        // The notebooks whose files are named again: a note came, went, was retitled or moved;
        // and the stems it had and has (only their namesakes' names can move).
        var renamed: Set<String> = []
        var namesakes: Set<String> = []
        var gone: Set<Int> = []
        for id in changes.gone {
            guard let index = heads.position[id.lowercasedString] else { continue }
            gone.insert(index)
            renamed.insert(heads.notes[index].zone)
            namesakes.insert(Self.stem(heads.notes[index].title))
        }
        let goneIDs = gone.map { heads.ids[$0] }
        for note in changes.live {
            let key = PathKey(id: note.id, zone: note.zone, title: note.title, createdAt: note.createdAt)
            guard let index = heads.position[note.idString] else {
                look.insert(heads.notes.count)
                heads.position[note.idString] = heads.notes.count
                heads.notes.append(note)
                heads.ids.append(note.idString)
                heads.stems?.append(Self.stem(note.title))
                last.keys.append(key)
                last.paths.append("")
                renamed.insert(note.zone)
                namesakes.insert(Self.stem(note.title))
                continue
            }
            if last.keys[index] != key {
                renamed.formUnion([last.keys[index].zone, note.zone])
                namesakes.formUnion([Self.stem(last.keys[index].title), Self.stem(note.title)])
                heads.stems?[index] = Self.stem(note.title)
                last.keys[index] = key
            }
            heads.notes[index] = note
            look.insert(index)
        }
        if !gone.isEmpty { Self.remove(gone, from: &heads, &last, look: &look) }
        if !renamed.isEmpty {
            var zones: [String: Note] = [:]
            for note in heads.notes where zones[note.zone] == nil { zones[note.zone] = note }
            heads.zones = Array(zones.values)
        }
        if sweep {
            for (index, note) in heads.notes.enumerated() where !note.attachments.isEmpty { look.insert(index) }
        }
        let notebooks = try NotebookFolders(store, zonesOf: heads.zones)
        // A notebook created, renamed or gone moves the folders of the notebooks whose folder
        // name changed: every note of those is named again (from the notes held, no head read).
        var moved: Set<String> = []
        if notebooks.folders != last.folders {
            for zone in Set(notebooks.folders.keys).union(last.folders.keys)
            where notebooks.folders[zone] != last.folders[zone] {
                moved.insert(zone)
            }
            last.folders = notebooks.folders
        }
        if !renamed.isEmpty || !moved.isEmpty {
            // Only the notes of those notebooks (a note's name depends on no other folder's), and
            // of them only the changed notes' namesakes (`namesakes(of:…)`).
            let stems = heads.stems ?? heads.notes.map { Self.stem($0.title) }
            heads.stems = stems
            var members = Self.namesakes(of: namesakes, in: renamed.subtracting(moved), heads.notes, stems)
            members += heads.notes.indices.filter { moved.contains(heads.notes[$0].zone) }
            let paths = ExportNames.paths(members.map { heads.notes[$0] }, folders: notebooks.folders)
            for (index, path) in zip(members, paths) where last.paths[index] != path {
                last.paths[index] = path
                look.insert(index)
            }
        }
        heads.sequence = changes.sequence
        self.heads = heads
        lastPaths = last
        return WritePlan(
            notes: heads.notes, ids: heads.ids, paths: last.paths, notebooks: notebooks, look: look.sorted(),
            gone: goneIDs)
    }

    /// A title's stem as `ExportNames.paths` compares it.
    private static func stem(_ title: String) -> String { ExportNames.safe(title).lowercased() }

    /// The positions of the notes in `zones` whose file names may move when notes of the stems
    /// `changed` come, go or are renamed: those whose stem starts with a changed stem's base (up
    /// to its first `(`, without the spaces before it). `ExportNames.paths` gives a note its stem,
    /// else `stem (1a2b3c4d)`, else its id: a note whose stem does not start with such a base
    /// can take none of those names from such a note, nor they from it, so named apart the group
    /// gets the names a naming of the whole notebook gives it. A stem that is a note id (the
    /// third name), or a base that is empty, and every note of those notebooks is named again.
    static func namesakes(of changed: Set<String>, in zones: Set<String>, _ notes: [Note], _ stems: [String]) -> [Int] {
        let inZones = notes.indices.filter { zones.contains(notes[$0].zone) }
        var bases: [String] = []
        for stem in changed {
            var base = stem.prefix { $0 != "(" }
            while base.last?.isWhitespace == true { base.removeLast() }
            guard !base.isEmpty else { return inZones }
            bases.append(String(base))
        }
        var members: [Int] = []
        for index in inZones {
            let stem = stems[index]
            if stem.utf8.count == 36, UUID(uuidString: stem) != nil { return inZones }
            if bases.contains(where: { stem.hasPrefix($0) }) { members.append(index) }
        }
        return members
    }

    /// Takes the notes at `gone` out of the heads and the last paths, and renumbers `look`.
    private static func remove(
        _ gone: Set<Int>, from heads: inout Heads,
        _ last: inout (keys: [PathKey], folders: [String: String], paths: [String]),
        look: inout Set<Int>
    ) {
        var newIndex = [Int](repeating: -1, count: heads.notes.count)
        var kept = 0
        for index in heads.notes.indices where !gone.contains(index) {
            newIndex[index] = kept
            kept += 1
        }
        func keep<T>(_ values: inout [T]) {
            var index = 0
            values.removeAll { _ in
                defer { index += 1 }
                return gone.contains(index)
            }
        }
        keep(&heads.notes)
        keep(&heads.ids)
        if var stems = heads.stems {
            heads.stems = nil
            keep(&stems)
            heads.stems = stems
        }
        keep(&last.keys)
        keep(&last.paths)
        heads.position = [:]
        heads.position.reserveCapacity(heads.ids.count)
        for (index, id) in heads.ids.enumerated() { heads.position[id] = index }
        look = Set(look.compactMap { newIndex[$0] >= 0 ? newIndex[$0] : nil })
    }
}
