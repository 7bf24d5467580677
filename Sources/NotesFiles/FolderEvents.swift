import Foundation
import Glibc
import NotesCore

/// The notes folder's changes as inotify names them (Linux), read without blocking at a keeper's
/// tick: a tick with no event walks nothing, and one with events stats only the paths they name.
///
/// Every folder under the root is watched except the ignored ones (`FolderScan.isIgnored`:
/// `.git/`, dot-folders); folders created or moved in are watched as their event is read. A
/// full queue (`IN_Q_OVERFLOW`), a watch that could not be added or the root itself moved or
/// removed make a batch `lost`: its caller then walks the whole folder, as a keeper without
/// inotify does at every tick. Not the cloud folder's `FolderWatcher` (CloudFolder, which
/// NotesFiles may not import): that one calls back on a thread of its own and names no path.
final class FolderEvents {
    /// What happened in the folder since the last `drain`, by path relative to the root.
    struct Batch: Equatable {
        /// Files named by an event, each with whether its bytes were written in place
        /// (`IN_MODIFY`, `IN_CLOSE_WRITE`: a save that may leave the stat as it was).
        var files: [String: Bool] = [:]
        /// Folders created or moved in: whatever is in them came without events of its own.
        var foldersIn: Set<String> = []
        /// Folders removed or moved away: every file under them is gone from there.
        var foldersOut: Set<String> = []
        /// Events were lost (a full queue, a folder left unwatched): only a walk can tell.
        var lost = false

        var isEmpty: Bool { files.isEmpty && foldersIn.isEmpty && foldersOut.isEmpty && !lost }
    }

    let root: String
    private let descriptor: Int32
    /// The watched folders by watch descriptor, relative to the root (`""`: the root).
    private var folders: [Int32: String] = [:]
    /// A folder could not be watched since the last `drain`.
    private var missed = false
    /// The root's watch, nil once the kernel dropped it (the folder removed or unmounted).
    private var rootWatch: Int32?
    private var buffer = [UInt8](repeating: 0, count: 64 * 1024)

    private static let mask = UInt32(
        IN_CREATE | IN_DELETE | IN_MOVED_FROM | IN_MOVED_TO | IN_CLOSE_WRITE | IN_MODIFY | IN_ATTRIB | IN_DELETE_SELF
            | IN_MOVE_SELF | IN_ONLYDIR | IN_DONT_FOLLOW)

    /// Watches `root` and every folder under it; nil when inotify cannot be set up (another
    /// system, no descriptors left, the root not watchable): the keeper then polls.
    init?(root: String) {
        self.root = root
        descriptor = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        guard descriptor >= 0 else { return nil }
        guard watchTree(""), rootWatch != nil else {
            close(descriptor)
            return nil
        }
    }

    deinit {
        close(descriptor)
    }

    /// Watches every folder again (after a lost batch: folders created while the queue was full
    /// came without an event). A folder already watched keeps its watch.
    func rewatch() {
        missed = !watchTree("")
    }

    /// Every event since the last call, without waiting.
    func drain() -> Batch {
        var batch = Batch()
        while true {
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            guard count > 0 else { break }
            for event in InotifyRecords.parse(buffer, count: count) {
                take(wd: event.wd, mask: event.mask, name: event.name, into: &batch)
            }
        }
        if rootWatch == nil {
            // The folder itself went away: the walk says so, and it is watched again if it is back.
            batch.lost = true
            missed = !watchTree("")
        }
        if missed { batch.lost = true }
        missed = false
        return batch
    }

    private func take(wd: Int32, mask: UInt32, name: String, into batch: inout Batch) {
        if mask & UInt32(IN_Q_OVERFLOW) != 0 {
            batch.lost = true
            return
        }
        if mask & UInt32(IN_IGNORED) != 0 {
            folders[wd] = nil
            if wd == rootWatch { rootWatch = nil }
            return
        }
        guard let folder = folders[wd] else { return }  // a folder no longer watched
        if mask & UInt32(IN_DELETE_SELF | IN_MOVE_SELF) != 0 {
            // The root gone or moved is the walk's to say; a folder below reports it in its parent.
            if folder.isEmpty { batch.lost = true }
            return
        }
        guard !name.isEmpty, !FolderScan.isIgnored(name) else { return }
        let path = folder.isEmpty ? name : folder + "/" + name
        guard mask & UInt32(IN_ISDIR) != 0 else {
            let inPlace = mask & UInt32(IN_MODIFY | IN_CLOSE_WRITE) != 0
            batch.files[path] = (batch.files[path] ?? false) || inPlace
            return
        }
        if mask & UInt32(IN_DELETE | IN_MOVED_FROM) != 0 {
            unwatch(path)
            batch.foldersOut.insert(path)
            batch.foldersIn.remove(path)
        } else if mask & UInt32(IN_CREATE | IN_MOVED_TO) != 0 {
            if !watchTree(path) { batch.lost = true }
            batch.foldersIn.insert(path)
        }
    }

    /// Watches `relative` and the folders under it; false when one could not be watched.
    private func watchTree(_ relative: String) -> Bool {
        let path = relative.isEmpty ? root : root + "/" + relative
        let wd = inotify_add_watch(descriptor, path, Self.mask)
        guard wd >= 0 else {
            // Gone again since its event (it is not there to miss), else unwatched: a walk.
            return errno == ENOENT || errno == ENOTDIR
        }
        folders[wd] = relative
        if relative.isEmpty { rootWatch = wd }
        // Gone or unreadable since: its parent's next event, or the walk, says what it was.
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: path) else { return true }
        // A note's file is no folder: only the other names are looked at (100k notes, one folder).
        let children = names.filter { !$0.hasSuffix(".md") && !FolderScan.isIgnored($0) }
        var complete = true
        for child in children {
            let childPath = relative.isEmpty ? child : relative + "/" + child
            var info = stat()
            guard lstat(root + "/" + childPath, &info) == 0, info.st_mode & S_IFMT == S_IFDIR else { continue }
            complete = watchTree(childPath) && complete
        }
        return complete
    }

    /// Stops watching `relative` and the folders under it (moved away: its watches would name
    /// it by its old path; removed: the kernel drops them anyway).
    private func unwatch(_ relative: String) {
        let prefix = relative + "/"
        for (wd, folder) in folders where folder == relative || folder.hasPrefix(prefix) {
            inotify_rm_watch(descriptor, wd)
            folders[wd] = nil
        }
    }
}
