import Foundation
import Glibc

/// The note files under a notes folder: every `*.md` file, by path relative to the folder,
/// with its stat (in no order: each tick walks the whole folder). Skipped: dot-files and dot-folders (`.git/`, vim's `.x.md.swp`, Emacs's
/// `.#x.md`, the mirror's own temporary files), backups ending in `~`, vim's `4913` probe,
/// anything not ending in `.md` (`sed -i`'s `sedXXXXXX`), and a note's attachment folder (the
/// folder named like a `.md` file beside it).
public enum FolderScan {
    /// Whether a file or folder named `name` is none of the notes'.
    public static func isIgnored(_ name: String) -> Bool {
        name.hasPrefix(".") || name.hasSuffix("~") || name == "4913" || name.hasSuffix(".swp")
            || name.hasSuffix(".swx") || name.hasSuffix(".tmp")
    }

    /// Whether `name` is a note's file.
    public static func isNoteFile(_ name: String) -> Bool {
        !isIgnored(name) && name.hasSuffix(".md") && name.utf8.count > 3
    }

    /// Every note file under `root` (relative path → stat); `expecting`: about how many there
    /// are (the last scan's count), so the listing is not grown step by step.
    public static func scan(_ root: String, expecting: Int = 0) throws -> [String: FileStat] {
        try listing(root, expecting: expecting).files
    }

    /// Every note file under `root`, as `scan`, and the notes' attachment folders the walk passed
    /// over (sorted): what a sweep needs, in one walk.
    /// `under`: the folder to walk, relative to `root` (`""`: all of it).
    public static func listing(_ root: String, under relative: String = "", expecting: Int = 0) throws
        -> (files: [String: FileStat], attachmentFolders: [String])
    {
        var found: [String: FileStat] = [:]
        found.reserveCapacity(expecting)
        var attachments: [String] = []
        try walk(root, relative: relative, into: &found, attachments: &attachments)
        return (found, attachments.sorted())
    }

    /// The note files in the folder `relative` under `root` and below it (paths relative to
    /// `root`): what a folder created or moved in brings. None when it is a note's attachment
    /// folder (named like a `.md` file beside it).
    public static func scan(_ root: String, under relative: String) throws -> [String: FileStat] {
        isAttachmentFolder(root, relative) ? [:] : try listing(root, under: relative).files
    }

    /// The notes' attachment folders under `root` (relative paths, each named like a `.md` file
    /// beside it), found from the folders' listings: files are passed over by the type the
    /// listing gives, and only each folder is stat'ed (for a `.md` beside it), so a look at the
    /// attachments without a walk (a keeper's event in an attachment folder) does not stat every
    /// note's possible folder.
    public static func attachmentFolders(_ root: String) throws -> [String] {
        var found: [String] = []
        var pending = [""]
        while let relative = pending.popLast() {
            let directory = relative.isEmpty ? root : root + "/" + relative
            guard let stream = opendir(directory) else {
                throw MirrorError("cannot list \(directory): \(String(cString: strerror(errno)))")
            }
            defer { closedir(stream) }
            let prefix = relative.isEmpty ? "" : relative + "/"
            while let entry = readdir(stream) {
                var type = Int(entry.pointee.d_type)
                // Files are most entries: passed over by their type, their names never made.
                guard type == DT_DIR || type == DT_UNKNOWN else { continue }
                let name = withUnsafePointer(to: &entry.pointee.d_name) {
                    String(cString: UnsafeRawPointer($0).assumingMemoryBound(to: CChar.self))
                }
                guard name != ".", name != "..", !isIgnored(name) else { continue }
                var info = stat()
                if type == DT_UNKNOWN {
                    // A file system that does not say the type in its listing.
                    type = lstat(directory + "/" + name, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR ? DT_DIR : 0
                }
                guard type == DT_DIR else { continue }
                // One stat per folder (a notebook's folders are few), not per file.
                if fstatat(dirfd(stream), name + ".md", &info, AT_SYMLINK_NOFOLLOW) == 0 {
                    found.append(prefix + name)
                } else {
                    pending.append(prefix + name)
                }
            }
        }
        return found.sorted()
    }

    /// Whether the folder `relative` under `root` is a note's attachment folder.
    static func isAttachmentFolder(_ root: String, _ relative: String) -> Bool {
        guard !relative.isEmpty else { return false }
        var info = stat()
        return lstat(root + "/" + relative + ".md", &info) == 0
    }

    /// Each tick walks every file (100k at 100,000 notes), so the walk stats each name relative
    /// to its open folder (`fstatat`: no path to build and resolve per file) and builds no set.
    /// The attachment folders it passes over are added to `attachments`.
    private static func walk(
        _ root: String, relative: String, into found: inout [String: FileStat], attachments: inout [String]
    ) throws {
        let directory = relative.isEmpty ? root : root + "/" + relative
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: directory)
        } catch {
            throw MirrorError("cannot list \(directory): \(error.localizedDescription)")
        }
        let folder = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard folder >= 0 else { throw MirrorError("cannot open \(directory): \(String(cString: strerror(errno)))") }
        defer { close(folder) }
        let prefix = relative.isEmpty ? "" : relative + "/"
        var folders: [String] = []
        for name in names where !isIgnored(name) {
            var info = stat()
            guard fstatat(folder, name, &info, AT_SYMLINK_NOFOLLOW) == 0 else { continue }  // gone since the listing
            switch info.st_mode & S_IFMT {
            case S_IFDIR: folders.append(name)
            case S_IFREG: if isNoteFile(name) { found[prefix + name] = FileStat(info) }
            default: continue  // links, sockets: never a note
            }
        }
        for name in folders {
            // A note's attachments sit in the folder named like its file.
            var info = stat()
            if fstatat(folder, name + ".md", &info, AT_SYMLINK_NOFOLLOW) == 0 {
                attachments.append(prefix + name)
                continue
            }
            try walk(root, relative: prefix + name, into: &found, attachments: &attachments)
        }
    }
}
