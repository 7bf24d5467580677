import Foundation
import NotesCore

/// The files an import reads, found by walking folders recursively (a notes vault keeps its
/// notes in subfolders), and what it leaves out, counted for the summary.
struct ImportScan {
    static let extensions = [".md", ".markdown", ".txt", ".json", ".jsonl"]

    struct File {
        var path: String
        /// The notebook of the subfolder the file is in (nil at the top of an imported folder,
        /// or for a file named on the command line): used when the file names none itself.
        var notebook: String?
    }

    var files: [File] = []
    /// Files with another extension, and links to folders (never followed: no loops).
    var otherFiles = 0
    /// Files and folders whose name starts with `.` (`.obsidian`, `.git`, `.DS_Store`); a hidden
    /// folder counts once, its contents are not read.
    var hidden = 0
    /// Subfolder (relative path) → notebook, for the subfolders that hold files to import.
    var notebooks: [(folder: String, notebook: String)] = []
    /// Folders given on the command line in which nothing could be imported.
    var emptyFolders: [String] = []
    /// Subfolders that could not be listed, with the reason (reported like unreadable files).
    var unreadable: [(path: String, reason: String)] = []

    var ignored: Int { otherFiles + hidden }

    /// Scans every path; a path that does not exist is an error before anything is read.
    init(_ paths: [String]) throws {
        for path in paths {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
                throw CLIError("\(path) does not exist")
            }
            guard isDirectory.boolValue else {
                files.append(File(path: path, notebook: nil))
                continue
            }
            let root = path.hasSuffix("/") && path.count > 1 ? String(path.dropLast()) : path
            var found: [(path: String, folder: String)] = []
            walk(root, relative: "", into: &found)
            if found.isEmpty { emptyFolders.append(path) }
            let slugs = NotebookSlug.slugs(ofFolderPaths: found.map(\.folder).filter { !$0.isEmpty })
            for folder in Set(found.map(\.folder)).sorted() where !folder.isEmpty {
                notebooks.append((folder, slugs[folder]!))
            }
            files += found.map { File(path: $0.path, notebook: $0.folder.isEmpty ? nil : slugs[$0.folder]) }
        }
    }

    private mutating func walk(
        _ directory: String, relative: String, into found: inout [(path: String, folder: String)]
    ) {
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: directory).sorted()
        } catch {
            unreadable.append((directory, "cannot list the folder: \(Output.reason(error))"))
            return
        }
        for name in names {
            let path = directory + "/" + name
            if name.hasPrefix(".") {
                hidden += 1
                continue
            }
            if ImportAttachments.isAttachmentFolder(path, among: names) { continue }  // a note's files, not notes
            let type = (try? FileManager.default.attributesOfItem(atPath: path))?[.type] as? FileAttributeType
            var isDirectory: ObjCBool = false
            let exists = FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory)
            if exists, isDirectory.boolValue {
                if type == .typeSymbolicLink {
                    otherFiles += 1
                } else {
                    walk(path, relative: relative.isEmpty ? name : relative + "/" + name, into: &found)
                }
            } else if Self.extensions.contains(where: name.lowercased().hasSuffix) {
                found.append((path, relative))
            } else {
                otherFiles += 1
            }
        }
    }
}
