import Foundation
import NotesCore
import NotesStore

/// Keeps a folder of Markdown files and the store in step, both ways: the live notes folder.
///
/// The layout is `export`'s (`ExportNames`, `MarkdownNote.render`): a folder per notebook, a
/// file per note by its title, front matter with the id. A pass (`sync`) first reads the
/// folder (`readFolder`): a file whose bytes differ from what the mirror last wrote or read
/// becomes a revision of its note on the revision it was written from (`NoteStore.update(_:
/// onBase:resolve:_:)`, so an edit racing another change merges as two devices' edits do); a
/// new file is a new note, a missing one trashes its note, a moved or renamed one moves or
/// retitles it. Then it writes the folder (`writeFolder`): each note whose file is not its
/// current text is written atomically, and only when the file still holds what the pass read
/// (never a lost byte). Each file's `FileRecord` keeps the mirror's own writes from coming back
/// as edits.
public final class FolderMirror {
    public let store: NoteStore
    /// The notes folder, absolute.
    public let root: String
    let dataDirectory: String
    let resolve: NoteStore.HeadsResolver
    /// Wall-clock nanoseconds, for `FileRecord.checkedAtNs`.
    let nowNs: () -> Int64
    var state: MirrorState
    /// The stats of the state file and its journal as this mirror last loaded or saved them:
    /// while they are unchanged, no other pass has run since and `state` is what they hold (no
    /// reload of 100k records).
    var stateFileStat: MirrorState.Stamp?
    /// The note files the last pass wrote, renamed or removed (relative paths): the only ones
    /// whose stat moved because of the mirror itself.
    public internal(set) var written: Set<String> = []
    /// The last pass's file names (`ExportNames.paths`) and what they were made of: reused while
    /// no note was added, removed, retitled or moved and no notebook renamed.
    var lastPaths: (keys: [PathKey], folders: [String: String], paths: [String])?
    /// The notes the last pass wrote the folder from (`writePlan`); nil: the next pass reads
    /// every head.
    var heads: Heads?
    /// The notes the last pass left waiting (a file changed under it, a name taken): the next
    /// pass looks at them again even if the store did not change them.
    var unfinished: Set<String> = []
    /// How many notes' heads the last pass read from the store (every note's, or the changed ones').
    public internal(set) var headsRead = 0
    /// Whether a pass wrote new files without an `fsync` each (`AtomicFile.write(sync: false)`):
    /// the file system is flushed before their records are saved.
    var unflushed = false

    struct PathKey: Equatable {
        var id: UUID
        var zone: String
        var title: String
        var createdAt: Date
    }

    /// A mirror of `store` into `folder`, its state in `dataDirectory`; `resolve` merges heads
    /// as sync does (`ConflictResolver.resolve`).
    public init(
        store: NoteStore, folder: String, dataDirectory: String, resolve: @escaping NoteStore.HeadsResolver,
        nowNs: @escaping () -> Int64 = { Int64(Date().timeIntervalSince1970 * 1_000_000_000) }
    ) throws {
        self.store = store
        self.root = folder
        self.dataDirectory = dataDirectory
        self.resolve = resolve
        self.nowNs = nowNs
        state = MirrorState(folder: folder)
        try reloadState()
    }

    /// Reads the records saved by the last pass, of this process or another (`files sync` beside
    /// `files --watch`): passes take turns (`PassLock`) and each starts from the last one's records.
    func reloadState() throws {
        let current = MirrorState.stamp(directory: dataDirectory)
        if current.state != nil, current == stateFileStat { return }
        let saved = try MirrorState.load(directory: dataDirectory)
        // Another pass (another process's) wrote the folder: this one's heads say nothing of it.
        heads = nil
        state = saved?.folder == root ? saved ?? MirrorState(folder: root) : MirrorState(folder: root)
        // Another folder's state (or none) is replaced at the end of the pass.
        stateFileStat = saved?.folder == root ? current : nil
    }

    /// One pass both ways: the folder's changes into the store, then the store's into the folder.
    ///
    /// Either way a pass reads only the files whose stat says they may have changed and writes
    /// only the notes whose head moved. `scan` is the folder's listing when the caller just took
    /// it (`MirrorKeeper`'s tick), saving a second walk. A `sweep` (the default: `files sync`,
    /// the keeper's periodic pass) also reads the files added to the notes' attachment folders
    /// and writes back attachments missing from the folder; without it those wait for the next
    /// sweep. `changed`: the only paths of `scan` that may have moved since the last pass (a
    /// keeper's inotify events); nil: any may have. `attachmentFolders`: those the walk that took
    /// `scan` passed over (`FolderScan.listing`), so a sweep does not list the folder again.
    @discardableResult
    public func sync(
        scan: [String: FileStat]? = nil, changed: Set<String>? = nil, sweep: Bool = true,
        attachmentFolders: [String]? = nil
    ) throws -> MirrorReport {
        try checkRoot()
        let lock = try PassLock(directory: dataDirectory)
        defer { lock.release() }
        try reloadState()
        state.forgetChanged()
        written = []
        headsRead = 0
        var report = MirrorReport()
        let walked = try scan == nil ? FolderScan.listing(root) : nil
        let changes = try readFolder(&report, scan: scan ?? walked?.files, changed: scan == nil ? nil : changed)
        try apply(changes, &report)
        if sweep {
            let folders = try attachmentFolders ?? walked?.attachmentFolders ?? FolderScan.attachmentFolders(root)
            try readAttachments(&report, in: folders)
        }
        try writeFolder(&report, dryRun: false, sweep: sweep)
        // New files' bytes are on disk before any record says they were written: after a crash
        // of the machine, no record names a file that came back empty.
        if unflushed {
            try AtomicFile.flush(root)
            unflushed = false
        }
        if stateFileStat == nil || state.unsaved {
            try state.saveChanges(directory: dataDirectory)
            stateFileStat = MirrorState.stamp(directory: dataDirectory)
        }
        return report
    }

    /// Whether a file was read or written so recently that it could be saved again with the
    /// same stat (`FileRecord.mayHaveChanged`): the next pass hashes it again. Kept as records
    /// change (`MirrorState.racilyClean`): no look at every record.
    public var hasRacilyCleanFiles: Bool {
        !state.racilyClean.isEmpty
    }

    /// What a pass would do, doing nothing: files changed in the folder, notes whose files are
    /// behind, files that do not parse.
    public func status() throws -> MirrorReport {
        try checkRoot()
        let lock = try PassLock(directory: dataDirectory)
        defer { lock.release() }
        try reloadState()
        var report = MirrorReport()
        let saved = state
        defer { state = saved }
        for change in try readFolder(&report) {
            switch change {
            case .edited(_, let file): report.fromFolder.append("edited \(file.path)")
            case .moved(_, let from, let file): report.fromFolder.append("moved \(from) → \(file.path)")
            case .created(let file): report.fromFolder.append("new \(file.path)")
            case .adopted(_, let file): report.fromFolder.append("edited \(file.path)")
            case .deleted(_, let path): report.fromFolder.append("deleted \(path)")
            case .touched: continue
            }
        }
        try writeFolder(&report, dryRun: true)
        return report
    }

    /// The folder must be there: a missing one (an unmounted disk) would read as every file
    /// deleted.
    func checkRoot() throws {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: root, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw MirrorError(
                "the notes folder \(root) is missing; nothing was changed (create it, or 'cloudnotes files off')")
        }
    }

    static func sha256(_ data: Data) -> String {
        var hasher = ContentHasher()
        hasher.update(data)
        return hasher.finalize()
    }

    /// The folder part of a relative path (`""` at the top).
    static func folder(of path: String) -> String {
        path.lastIndex(of: "/").map { String(path[..<$0]) } ?? ""
    }

    /// The file name without its folder and `.md`.
    static func stem(of path: String) -> String {
        let name = path.lastIndex(of: "/").map { String(path[path.index(after: $0)...]) } ?? path
        return name.hasSuffix(".md") ? String(name.dropLast(3)) : name
    }
}
