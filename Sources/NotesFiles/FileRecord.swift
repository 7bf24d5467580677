import Foundation

/// What the mirror last wrote or read of one note's file: where it is, the revision its text
/// is, and its bytes' hash and stat. A file whose stat and hash still match was not edited.
public struct FileRecord: Sendable, Equatable, Codable {
    /// The file's path under the notes folder (`Notebook/Title.md`).
    public var path: String
    /// The note revision the file was written from or last read as: the base of an edit made
    /// in the file.
    public var revision: String
    /// Whether the file says what the note says at `revision`; false when the store took the
    /// file's edit with changes of its own (a merge, a new id, a retitle), so the file is written.
    public var inStep: Bool
    /// SHA-256 of the file's bytes, hex.
    public var sha256: String
    public var stat: FileStat
    /// When the stat was taken (ns since 1970): a file modified within the clock's granularity
    /// of that moment could change again with the same stat, so it is hashed again (git's
    /// "racily clean" rule).
    public var checkedAtNs: Int64

    public init(path: String, revision: String, inStep: Bool, sha256: String, stat: FileStat, checkedAtNs: Int64) {
        self.path = path
        self.revision = revision
        self.inStep = inStep
        self.sha256 = sha256
        self.stat = stat
        self.checkedAtNs = checkedAtNs
    }

    /// Whether the file at this record's path, now with `current` stat, may hold bytes the
    /// mirror has not read: its stat changed, or it was modified too close to the last check.
    func mayHaveChanged(_ current: FileStat) -> Bool {
        current != stat || isRacilyClean
    }

    /// Whether the file was modified too close to the last check for its stat to tell a later
    /// save (git's "racily clean"): it is hashed again until a check 2 s after its mtime.
    var isRacilyClean: Bool {
        stat.mtimeNs + 2_000_000_000 > checkedAtNs
    }

    /// Whether a keeper makes a pass at each tick for this file while it is racily clean; a file
    /// dated ahead of the clock (a minute or more) is left to the sweep.
    var isWatchedAtTicks: Bool {
        isRacilyClean && stat.mtimeNs < checkedAtNs + 60_000_000_000
    }
}
