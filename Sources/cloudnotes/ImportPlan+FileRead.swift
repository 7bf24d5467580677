import Foundation
import Glibc
import NotesCore

extension ImportPlan {
    /// What the first pass of an import keeps of one file: the notes held in memory (`read`:
    /// those of Markdown and JSON files, and the notes of a JSON Lines file that list
    /// attachments, which are carried before they are kept), and those of a JSON Lines file
    /// already in the scratch file (`located`: they list no attachments), with every id in the
    /// file's order.
    struct FileRead {
        var read: ImportReader.Read
        /// Every note's id, in the file's order.
        var ids: [UUID]
        /// Where each of `read.notes` is among `ids`.
        var heldPositions: [Int]
        /// Notes in the scratch file, with where each is among `ids`.
        var located: [(position: Int, id: UUID, entry: Entry)] = []
        /// Zone → the display name the file's notes give it (the first note naming it wins).
        var notebookNames: [String: String]
        /// How many of `located` are in the file's folder's notebook.
        var locatedInNotebook = 0

        /// A file read whole (`ImportReader.read`): every note held.
        init(_ read: ImportReader.Read) {
            self.read = read
            ids = read.notes.map(\.id)
            heldPositions = Array(read.notes.indices)
            notebookNames = read.notebookNames
        }

        /// A JSON Lines file read as a stream (`ImportReader.scanLines`): the notes that list
        /// attachments held, the others kept in `plan`'s scratch file as they are read (if the
        /// file is then refused, what it wrote there is never read).
        static func lines(_ file: ImportScan.File, now: Date, plan: inout ImportPlan) -> Result<FileRead, CLIError> {
            do {
                let descriptor = try Input.openForImport(file.path, inFolder: file.inFolder)
                defer { Glibc.close(descriptor) }
                var held: [ImportReader.ReadNote] = []
                var heldPositions: [Int] = []
                var ids: [UUID] = []
                var located: [(position: Int, id: UUID, entry: Entry)] = []
                var names: [String: String] = [:]
                var inNotebook = 0
                try ImportReader.scanLines(file, descriptor: descriptor, now: now) { read, _ in
                    if let name = read.notebookName, names[read.note.zone] == nil { names[read.note.zone] = name }
                    if read.attachments != nil {
                        heldPositions.append(ids.count)
                        held.append(read)
                    } else {
                        located.append((ids.count, read.note.id, try plan.keep(read.note)))
                        if read.note.zone == file.notebook { inNotebook += 1 }
                    }
                    ids.append(read.note.id)
                }
                var fileRead = FileRead(ImportReader.Read(held))
                fileRead.ids = ids
                fileRead.heldPositions = heldPositions
                fileRead.located = located
                fileRead.notebookNames = names
                fileRead.locatedInNotebook = inNotebook
                return .success(fileRead)
            } catch let error as CLIError {
                return .failure(error)
            } catch {
                return .failure(CLIError("\(error)"))
            }
        }
    }
}
