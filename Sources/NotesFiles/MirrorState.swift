import Foundation
import Glibc

/// The mirror's state in the data directory (`notes-folder.json`, private): the folder it keeps
/// (nil after `files off`) and a `FileRecord` per note id. Kept beside the store, not in it, so
/// the mirror needs no schema change and a data directory without a folder carries nothing.
public struct MirrorState: Sendable, Equatable, Codable {
    public static let fileName = "notes-folder.json"

    /// The notes folder, absolute; nil when the mirror was turned off here.
    public var folder: String?
    /// Note id (lowercase) → its file.
    public var files: [String: FileRecord]

    public init(folder: String?, files: [String: FileRecord] = [:]) {
        self.folder = folder
        self.files = files
    }

    /// The state saved in `directory`, nil when there is none; an unreadable file is an error
    /// naming it (nothing is guessed: a lost record would make the mirror re-read every file).
    public static func load(directory: String) throws -> MirrorState? {
        let path = directory + "/" + fileName
        guard FileManager.default.fileExists(atPath: path) else { return nil }
        do {
            return try JSONDecoder().decode(MirrorState.self, from: Data(contentsOf: URL(fileURLWithPath: path)))
        } catch {
            throw MirrorError(
                "cannot read \(path): it is not a notes folder state; remove it and run 'cloudnotes files on DIR' again"
            )
        }
    }

    /// Whether `other` records something else of a file than this: another path, revision, step
    /// or content. A stat retaken (a `touch`, a file checked again after its racy window) is not:
    /// a pass that only retook stats leaves the saved state (10k records: a 2 MB rewrite) alone,
    /// and another process that reads the older stat only hashes that file once more.
    public func recordsDiffer(from other: MirrorState) -> Bool {
        folder != other.folder || files.count != other.files.count
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
