import Foundation

extension MirrorKeeper {
    /// What a tick looked at (for tests and benchmarks): a quiet tick with inotify live walks
    /// nothing and stats nothing.
    public struct Look: Sendable, Equatable {
        /// Whether the tick walked the whole folder (the first tick, a sweep, lost events, no
        /// inotify).
        public var walked = false
        /// How many paths the tick stat'ed from inotify's events, without a walk.
        public var statted = 0
        /// Whether the tick made a pass.
        public var passed = false
        /// How many notes' heads its pass read from the store.
        public var heads = 0

        public init(walked: Bool = false, statted: Int = 0, passed: Bool = false, heads: Int = 0) {
            self.walked = walked
            self.statted = statted
            self.passed = passed
            self.heads = heads
        }
    }

    /// The folder's listing after `batch`: `last` with each path the events named stat'ed
    /// again (and the folders moved in walked); `changed`, the paths whose stat moved or whose
    /// bytes were written in place (a save that may keep the stat: the pass hashes it if it is
    /// racily clean); `attachments`, an event in a note's attachment folder (read by a sweep).
    /// Nil when only a walk can tell (events lost, a folder that cannot be listed).
    static func listing(after batch: FolderEvents.Batch, last: [String: FileStat], root: String) -> (
        scan: [String: FileStat], changed: Set<String>, statted: Int, attachments: Bool
    )? {
        guard !batch.lost else { return nil }
        var scan = last
        var changed: Set<String> = []
        var statted = 0
        var attachments = false
        for folder in batch.foldersOut {
            let prefix = folder + "/"
            for path in scan.keys where path.hasPrefix(prefix) {
                scan[path] = nil
                changed.insert(path)
            }
        }
        for folder in batch.foldersIn {
            // The folder itself or one above it a note's attachment folder.
            if isInAttachmentFolder(folder + "/", root: root) {
                attachments = true
                continue
            }
            // Gone again since its event, or unreadable: a walk.
            guard let found = try? FolderScan.scan(root, under: folder) else { return nil }
            statted += found.count
            for (path, stat) in found where scan[path] != stat {
                scan[path] = stat
                changed.insert(path)
            }
            // What the last look had there and is gone: removed before the folder was watched
            // (a folder the mirror made, its file removed at once), so no event of its own said it.
            let prefix = folder + "/"
            for path in scan.keys where path.hasPrefix(prefix) && found[path] == nil {
                scan[path] = nil
                changed.insert(path)
            }
        }
        for (path, inPlace) in batch.files {
            if isInAttachmentFolder(path, root: root) {
                attachments = true
                continue
            }
            let name = path.lastIndex(of: "/").map { String(path[path.index(after: $0)...]) } ?? path
            guard FolderScan.isNoteFile(name) else { continue }
            statted += 1
            let stat = FileStat.of(root + "/" + path)
            if stat != scan[path] {
                scan[path] = stat
                changed.insert(path)
            } else if inPlace, stat != nil {
                changed.insert(path)
            }
        }
        return (scan, changed, statted, attachments)
    }

    /// Whether `path` lies in a note's attachment folder (a folder named like a `.md` file
    /// beside it, at any depth above), which the walk never enters.
    private static func isInAttachmentFolder(_ path: String, root: String) -> Bool {
        var folder = FolderMirror.folder(of: path)
        while !folder.isEmpty {
            if FolderScan.isAttachmentFolder(root, folder) { return true }
            folder = FolderMirror.folder(of: folder)
        }
        return false
    }
}
