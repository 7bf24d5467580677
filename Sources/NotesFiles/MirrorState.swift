import Foundation
import Glibc

/// The mirror's state in the data directory (`notes-folder.json`, private): the folder it keeps
/// (nil after `files off`) and a `FileRecord` per note id. Kept beside the store, not in it, so
/// the mirror needs no schema change and a data directory without a folder carries nothing.
public struct MirrorState: Sendable, Equatable, Codable {
    public static let fileName = "notes-folder.json"

    /// The notes folder, absolute; nil when the mirror was turned off here.
    public var folder: String?
    /// Note id (lowercase) → its file; changed through `subscript(id:)`, which keeps
    /// `racilyClean` with it.
    public private(set) var files: [String: FileRecord]
    /// The ids of the records a keeper's tick must look at again (`FileRecord.isWatchedAtTicks`):
    /// kept as records change, so a tick with nothing changed costs nothing per note. Not saved.
    private(set) var racilyClean: Set<String> = []
    /// Each recorded path's note id (the records turned around), kept as records change: a pass
    /// that looks at a few paths finds their notes without going through every record. Not saved.
    private(set) var idAtPath: [String: String] = [:]

    private enum CodingKeys: String, CodingKey {
        case folder, files
    }

    public init(folder: String?, files: [String: FileRecord] = [:]) {
        self.folder = folder
        self.files = files
        racilyClean = Set(files.filter { $0.value.isWatchedAtTicks }.keys)
        idAtPath.reserveCapacity(files.count)
        for (id, record) in files { idAtPath[record.path] = id }
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            folder: try container.decodeIfPresent(String.self, forKey: .folder),
            files: try container.decode([String: FileRecord].self, forKey: .files))
    }

    /// The record of note `id` (lowercase).
    public subscript(id id: String) -> FileRecord? {
        get { files[id] }
        set {
            changedIDs.insert(id)
            let old = files[id]
            if old?.path != newValue?.path || old?.revision != newValue?.revision || old?.inStep != newValue?.inStep
                || old?.sha256 != newValue?.sha256
            {
                unsaved = true
            }
            if let old, idAtPath[old.path] == id { idAtPath[old.path] = nil }
            if let newValue { idAtPath[newValue.path] = id }
            files[id] = newValue
            if newValue?.isWatchedAtTicks == true {
                if racilyClean.insert(id).inserted { unsaved = true }
            } else if racilyClean.remove(id) != nil {
                unsaved = true
            }
        }
    }

    /// The state saved in `directory`, nil when there is none; an unreadable file is an error
    /// naming it (nothing is guessed: a lost record would make the mirror re-read every file).
    public static func load(directory: String) throws -> MirrorState? {
        try decode(MirrorState.self, directory: directory)
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
    /// saved (`markSaved`): another path, revision, step or content, or another set of racily
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

    /// The state is what its file now holds.
    public mutating func markSaved() {
        unsaved = false
    }

    /// Writes the state to `directory` atomically (0600).
    public func save(directory: String) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        try AtomicFile.write(try encoder.encode(self), to: directory + "/" + Self.fileName)
    }

    /// Removes the state from `directory` (the folder and its files stay).
    public static func remove(directory: String) {
        unlink(directory + "/" + fileName)
    }
}
