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

    private enum CodingKeys: String, CodingKey {
        case folder, files
    }

    public init(folder: String?, files: [String: FileRecord] = [:]) {
        self.folder = folder
        self.files = files
        racilyClean = Set(files.filter { $0.value.isWatchedAtTicks }.keys)
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
            files[id] = newValue
            if newValue?.isWatchedAtTicks == true {
                racilyClean.insert(id)
            } else {
                racilyClean.remove(id)
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

    /// Whether `other` records something else of a file than this: another path, revision, step
    /// or content, or another set of racily clean files. A stat retaken (a `touch`) is not: a
    /// pass that only retook stats leaves the saved state (10k records: a 2 MB rewrite) alone,
    /// and another process that reads the older stat only hashes that file once more. A file
    /// checked again after its racy window is: else every process after `files on` (which
    /// leaves every file racily clean) would hash every file again.
    public func recordsDiffer(from other: MirrorState) -> Bool {
        folder != other.folder || files.count != other.files.count || racilyClean != other.racilyClean
            || files.contains { id, record in
                guard let old = other.files[id] else { return true }
                return old.path != record.path || old.revision != record.revision || old.inStep != record.inStep
                    || old.sha256 != record.sha256
            }
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
