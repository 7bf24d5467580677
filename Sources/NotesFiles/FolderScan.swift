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
        !isIgnored(name) && name.hasSuffix(".md") && name.count > 3
    }

    /// Every note file under `root` (relative path → stat).
    public static func scan(_ root: String) throws -> [String: FileStat] {
        var found: [String: FileStat] = [:]
        try walk(root, relative: "", into: &found)
        return found
    }

    private static func walk(_ root: String, relative: String, into found: inout [String: FileStat]) throws {
        let directory = relative.isEmpty ? root : root + "/" + relative
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: directory)
        } catch {
            throw MirrorError("cannot list \(directory): \(error.localizedDescription)")
        }
        let markdown = Set(names.filter(isNoteFile).map { String($0.dropLast(3)) })
        for name in names where !isIgnored(name) {
            let path = relative.isEmpty ? name : relative + "/" + name
            var info = stat()
            guard lstat(root + "/" + path, &info) == 0 else { continue }  // gone since the listing
            switch info.st_mode & S_IFMT {
            case S_IFDIR:
                // A note's attachments sit in the folder named like its file.
                if !markdown.contains(name) { try walk(root, relative: path, into: &found) }
            case S_IFREG:
                if isNoteFile(name) { found[path] = FileStat(info) }
            default:
                continue  // links, sockets: never a note
            }
        }
    }
}
