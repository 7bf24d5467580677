import Foundation
import NotesCore

/// The files an import reads, found by walking folders recursively (a notes vault keeps its
/// notes in subfolders), and what it leaves out, counted for the summary.
struct ImportScan {
    static let extensions = [".md", ".markdown", ".txt", ".json", ".jsonl"]

    struct File: Sendable {
        var path: String
        /// The path given on the command line the file was found under (the file itself, or a folder).
        var source: String
        /// The notebook of the subfolder the file is in (nil at the top of an imported folder,
        /// or for a file named on the command line): used when the file names none itself.
        var notebook: String?
        /// Found in a folder (not named on the command line): read without following a link
        /// (`O_NOFOLLOW`), so a file swapped for a link after the scan is refused too.
        var inFolder: Bool { path != source }
    }

    var files: [File] = []
    /// Files with another extension.
    var otherFiles = 0
    /// Those files' paths, with the source they were found under: what notes may embed.
    var otherPaths: [(path: String, source: String)] = []
    /// Symbolic links found in a folder (relative to the folder given), never followed: a link
    /// may lead out of the folder (`shadow.md -> /etc/shadow`, `~/.ssh`) or back into it (a loop).
    var links: [String] = []
    /// Files and folders whose name starts with `.` (`.obsidian`, `.git`, `.DS_Store`); a hidden
    /// folder counts once, its contents are not read.
    var hidden = 0
    /// Subfolder (relative path) → notebook, for the subfolders that hold files to import.
    var notebooks: [(folder: String, notebook: String)] = []
    /// Folders given on the command line in which nothing could be imported.
    var emptyFolders: [String] = []
    /// Subfolders that could not be listed, with the reason (reported like unreadable files).
    var unreadable: [(path: String, reason: String, source: String)] = []
    /// Folders named like a Markdown file beside them (`Trip/` beside `Trip.md`): that note's
    /// attachments, as export writes them, not a notebook. Not read here (the attachments
    /// import reads them from this list).
    var attachmentFolders: [(note: String, folder: String)] = []

    var ignored: Int { otherFiles + hidden + links.count }

    /// Scans every path; a path that does not exist is an error before anything is read.
    init(_ paths: [String]) throws {
        for path in paths {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
                throw CLIError("\(path) does not exist")
            }
            guard isDirectory.boolValue else {
                files.append(File(path: path, source: path, notebook: nil))
                continue
            }
            let root = Self.root(of: path)
            var found: [(path: String, folder: String)] = []
            walk(root, relative: "", source: path, into: &found)
            if found.isEmpty { emptyFolders.append(path) }
            let slugs = NotebookSlug.slugs(ofFolderPaths: found.map(\.folder).filter { !$0.isEmpty })
            for folder in Set(found.map(\.folder)).sorted() where !folder.isEmpty {
                // `slugs` has every folder it was given.
                if let slug = slugs[folder] { notebooks.append((folder, slug)) }
            }
            files += found.map {
                File(path: $0.path, source: path, notebook: $0.folder.isEmpty ? nil : slugs[$0.folder])
            }
        }
    }

    /// A folder given on the command line without its trailing slash: the prefix of its files' paths.
    static func root(of folder: String) -> String {
        folder.hasSuffix("/") && folder.count > 1 ? String(folder.dropLast()) : folder
    }

    /// Whether the Markdown file lists attachments in its front matter (`attachments:`, as
    /// export writes it): then the folder named like it holds them, whatever their names
    /// (`readme.md` included), and is no notebook.
    static func listsAttachments(_ markdownFile: String) -> Bool {
        // A file that cannot be read or parsed lists nothing; the import reports it itself.
        guard let text = try? Input.readInFolder(markdownFile),
            let parsed = try? MarkdownNote.parseFile(text)
        else { return false }
        return parsed.attachmentFiles?.isEmpty == false
    }

    /// A folder with no Markdown file and no subfolder in it: the attachment folder of the note
    /// of its name beside it (its .txt or .json files are that note's files). Obsidian's "folder
    /// notes", a `Projects/` full of notes beside `Projects.md`, stay notebooks.
    static func holdsNoNotes(_ folder: String) -> Bool {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder) else { return false }
        return names.allSatisfy { name in
            var isDirectory: ObjCBool = false
            _ = FileManager.default.fileExists(atPath: folder + "/" + name, isDirectory: &isDirectory)
            return !isDirectory.boolValue
                && !ImportAttachments.markdownExtensions.contains(where: name.lowercased().hasSuffix)
        }
    }

    private mutating func walk(
        _ directory: String, relative: String, source: String, into found: inout [(path: String, folder: String)]
    ) {
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: directory).sorted()
        } catch {
            unreadable.append((directory, "cannot list the folder: \(Output.reason(error))", source))
            return
        }
        let markdownStems = Set(
            names.filter { $0.lowercased().hasSuffix(".md") }.map { String($0.dropLast(3)) })
        for name in names {
            let path = directory + "/" + name
            if name.hasPrefix(".") {
                hidden += 1
                continue
            }
            // Unreadable attributes: counted as a file of another type, never read. One `lstat`
            // (FileManager's attributes read the owner's and group's names too: a twentieth of
            // a folder's import).
            var info = stat()
            let type = lstat(path, &info) == 0 ? info.st_mode & S_IFMT : nil
            if type == S_IFLNK {
                links.append(relative.isEmpty ? name : relative + "/" + name)
            } else if type == S_IFDIR {
                if markdownStems.contains(name),
                    Self.listsAttachments(directory + "/" + name + ".md") || Self.holdsNoNotes(path)
                {
                    attachmentFolders.append((directory + "/" + name + ".md", path))
                } else {
                    walk(
                        path, relative: relative.isEmpty ? name : relative + "/" + name, source: source, into: &found)
                }
            } else if type == S_IFREG, Self.extensions.contains(where: name.lowercased().hasSuffix) {
                // Only regular files: a FIFO or a device named `x.md` would block the read.
                found.append((path, relative))
            } else {
                otherFiles += 1
                if type == S_IFREG { otherPaths.append((path, source)) }
            }
        }
    }
}
