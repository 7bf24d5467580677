import Foundation
import Glibc

/// The mirror's state in the data directory (`notes-folder.json`, private): the folder it keeps
/// (nil after `files off`) and a `FileRecord` per note id. Kept beside the store, not in it, so
/// the mirror needs no schema change and a data directory without a folder carries nothing.
///
/// A pass that changed a few records appends them to a journal (`notes-folder.journal`, JSON
/// Lines) instead of rewriting every record (35 MB at 100k notes); the journal is folded into
/// the state file when it grows past a quarter of it (`saveChanges`). Its first line names the
/// state file it continues (`generation`, new at each whole write), so a journal left by a
/// process killed between the two steps of a whole write is never replayed over newer records.
public struct MirrorState: Sendable, Equatable, Codable {
    public static let fileName = "notes-folder.json"
    public static let journalName = "notes-folder.journal"

    /// The notes folder, absolute; nil when the mirror was turned off here.
    public var folder: String?
    /// Note id (lowercase) → its file; changed through `subscript(id:)`, which keeps
    /// `racilyClean` with it.
    public private(set) var files: [String: FileRecord]
    /// Each notebook's display name as the folder's files say it (zone → name, front matter's
    /// `notebookName`); nil in a state written before it was kept. A notebook renamed to a name
    /// with the same folder changes no path: this is how a pass knows its notes' files are behind
    /// (`namesChanged(_:)`). Changed rarely, so a change writes the state whole.
    public private(set) var notebookNames: [String: String]?
    /// The ids of the records a keeper's tick must look at again (`FileRecord.isWatchedAtTicks`):
    /// kept as records change, so a tick with nothing changed costs nothing per note. Not saved.
    private(set) var racilyClean: Set<String> = []
    /// Each recorded path's note id (the records turned around), kept as records change: a pass
    /// that looks at a few paths finds their notes without going through every record. Not saved.
    private(set) var idAtPath: [String: String] = [:]

    /// The state file this state was read from or last written as (random, new at each whole
    /// write); nil in a file written before the journal, which is then written whole.
    private(set) var generation: UInt64?
    /// The records changed in a way `unsaved` counts since the last save: the journal's next lines.
    /// Not saved.
    private var dirty: Set<String> = []
    /// Whether the next save writes the state whole: a state not read from its file (new, or
    /// another folder's), or a journal that cannot be appended to (of another state file, or
    /// ending in a line cut by a crash). Not saved.
    private var rewriteWhole = true

    private enum CodingKeys: String, CodingKey {
        case folder, files, generation, notebookNames
    }

    public init(folder: String?, files: [String: FileRecord] = [:]) {
        self.folder = folder
        self.files = files
        racilyClean = Set(files.filter { $0.value.isWatchedAtTicks }.keys)
        idAtPath.reserveCapacity(files.count)
        for (id, record) in files { idAtPath[record.path] = id }
    }

    /// Two states are equal when they name the same folder and the same records: what a state
    /// says, not how much of it is still to be saved (`generation`, `dirty`, `rewriteWhole`) nor
    /// what is derived from the records.
    public static func == (lhs: MirrorState, rhs: MirrorState) -> Bool {
        lhs.folder == rhs.folder && lhs.files == rhs.files && lhs.notebookNames == rhs.notebookNames
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            folder: try container.decodeIfPresent(String.self, forKey: .folder),
            files: try container.decode([String: FileRecord].self, forKey: .files))
        generation = try container.decodeIfPresent(UInt64.self, forKey: .generation)
        notebookNames = try container.decodeIfPresent([String: String].self, forKey: .notebookNames)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encodeIfPresent(folder, forKey: .folder)
        try container.encode(files, forKey: .files)
        try container.encodeIfPresent(generation, forKey: .generation)
        try container.encodeIfPresent(notebookNames, forKey: .notebookNames)
    }

    /// The notebooks of `names` (zone → display name, as the store has them now) whose files
    /// said another name (every one of them when the state does not know), and the state now
    /// says `names`.
    mutating func namesChanged(_ names: [String: String]) -> Set<String> {
        guard notebookNames != names else { return [] }
        let changed = Set(names.keys.filter { notebookNames?[$0] != names[$0] })
        notebookNames = names
        unsaved = true
        rewriteWhole = true
        return changed
    }

    /// The record of note `id` (lowercase).
    public subscript(id id: String) -> FileRecord? {
        get { files[id] }
        set {
            changedIDs.insert(id)
            let old = files[id]
            // What another process must not redo: a stat merely retaken (a `touch`) is not.
            var matters =
                old?.path != newValue?.path || old?.revision != newValue?.revision || old?.inStep != newValue?.inStep
                || old?.sha256 != newValue?.sha256
            if let old, idAtPath[old.path] == id { idAtPath[old.path] = nil }
            if let newValue { idAtPath[newValue.path] = id }
            files[id] = newValue
            if newValue?.isWatchedAtTicks == true {
                if racilyClean.insert(id).inserted { matters = true }
            } else if racilyClean.remove(id) != nil {
                matters = true
            }
            if matters {
                unsaved = true
                dirty.insert(id)
            }
        }
    }

    /// The state saved in `directory` with its journal's records, nil when there is none; an
    /// unreadable file is an error naming it (nothing is guessed: a lost record would make the
    /// mirror re-read every file). A last journal line cut short (a crash while appending) is
    /// left out, and the next save writes the state whole.
    public static func load(directory: String) throws -> MirrorState? {
        guard let saved = try decode(MirrorState.self, directory: directory) else { return nil }
        let path = directory + "/" + journalName
        guard let journal = FileManager.default.contents(atPath: path) else {
            var state = saved
            state.rewriteWhole = saved.generation == nil
            return state
        }
        guard let replayed = try MirrorJournal.replay(journal, onto: saved.files, generation: saved.generation) else {
            // Another state file's journal, or the state's own cut short: written whole next.
            return saved
        }
        var state = MirrorState(folder: saved.folder, files: replayed.files)
        state.generation = saved.generation
        state.notebookNames = saved.notebookNames
        state.rewriteWhole = replayed.cut
        return state
    }

    /// The stats of the state file and its journal: while both are unchanged, no other pass
    /// wrote the state since they were taken.
    public struct Stamp: Sendable, Equatable {
        var state: FileStat?
        var journal: FileStat?
    }

    public static func stamp(directory: String) -> Stamp {
        Stamp(state: FileStat.of(directory + "/" + fileName), journal: FileStat.of(directory + "/" + journalName))
    }

    /// The state saved in `directory` without its records (`files` empty), nil when there is
    /// none: the folder in force, without decoding a record per note.
    public static func loadFolder(directory: String) throws -> MirrorState? {
        try decode(Header.self, directory: directory).map { MirrorState(folder: $0.folder) }
    }

    private struct Header: Decodable {
        var folder: String?
    }

    private static func decode<T: Decodable>(_ type: T.Type, directory: String) throws -> T? {
        let path = directory + "/" + fileName
        guard FileManager.default.fileExists(atPath: path) else { return nil }
        do {
            return try JSONDecoder().decode(type, from: Data(contentsOf: URL(fileURLWithPath: path)))
        } catch {
            throw MirrorError(
                "cannot read \(path): it is not a notes folder state; remove it and run 'cloudnotes files on DIR' again"
            )
        }
    }

    /// Whether a record says something else of a file than when the state was read or last
    /// saved (`saveChanges`): another path, revision, step or content, or another set of racily
    /// clean files. A stat retaken (a `touch`) is not: a pass that only retook stats leaves the
    /// saved state (10k records: a 2 MB rewrite) alone, and another process that reads the older
    /// stat only hashes that file once more. A file checked again after its racy window is: else
    /// every process after `files on` (which leaves every file racily clean) would hash every
    /// file again. Kept as records change, so a pass keeps no copy of 100k records to compare
    /// with. Not saved.
    public private(set) var unsaved = false
    /// The notes whose record was set or removed since `forgetChanged` (a pass's reads: a
    /// removed file of a read-only notebook loses its record so that its note is written
    /// again): the pass's writes look at them even when the store did not change them. Not saved.
    private(set) var changedIDs: Set<String> = []

    mutating func forgetChanged() {
        changedIDs = []
    }

    /// Saves what changed since the state was read or last saved: the changed records appended
    /// to the journal, or the whole state (`save`) when it must be written whole or the journal
    /// grew past a quarter of the state file (and 64 KiB).
    public mutating func saveChanges(directory: String) throws {
        let journal = directory + "/" + Self.journalName
        if !rewriteWhole, let generation, let base = FileStat.of(directory + "/" + Self.fileName),
            (FileStat.of(journal)?.size ?? 0) <= max(64 * 1024, base.size / 4)
        {
            let lines = dirty.sorted().map { MirrorJournal.Line(id: $0, record: files[$0]) }
            try MirrorJournal.append(lines, generation: generation, to: journal)
        } else {
            try saveWhole(directory: directory)
        }
        dirty = []
        unsaved = false
    }

    /// Writes the state to `directory` atomically (0600), as a new generation, and removes the
    /// journal that continued the last.
    public func save(directory: String) throws {
        var state = self
        try state.saveWhole(directory: directory)
    }

    private mutating func saveWhole(directory: String) throws {
        generation = UInt64.random(in: 1...UInt64.max)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        try AtomicFile.write(try encoder.encode(self), to: directory + "/" + Self.fileName)
        // A journal left by a crash here names the last generation: never replayed.
        unlink(directory + "/" + Self.journalName)
        rewriteWhole = false
    }

    /// Removes the state from `directory` (the folder and its files stay).
    public static func remove(directory: String) {
        unlink(directory + "/" + fileName)
        unlink(directory + "/" + journalName)
    }
}
