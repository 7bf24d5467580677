import Foundation
import NotesCore
import NotesStore

/// An import carries attachments (the layout `ExportAttachments` writes): a folder whose name
/// equals the stem of a sibling Markdown file holds that note's attachments, so it is not a
/// notebook and its files are not notes.
enum ImportAttachments {
    static let markdownExtensions = [".md", ".markdown"]

    /// The notes read from `file`, with the files of its attachment folder attached (their
    /// content copied into the data directory, streamed) when it is a Markdown file that has one.
    static func carry(_ notes: [Note], from file: String, _ store: NoteStore, _ global: GlobalOptions) throws -> [Note]
    {
        guard notes.count == 1, var note = notes.first,
            let ext = markdownExtensions.first(where: { file.lowercased().hasSuffix($0) })
        else { return notes }
        let folder = String(file.dropLast(ext.count))
        var isDirectory: ObjCBool = false
        // A folder of notes beside a note of its name (Obsidian's folder notes) is a notebook.
        guard FileManager.default.fileExists(atPath: folder, isDirectory: &isDirectory), isDirectory.boolValue,
            ImportScan.holdsNoNotes(folder)
        else { return notes }
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: folder).sorted()
        } catch {
            throw CLIError("cannot list the attachment folder \(folder): \(Output.reason(error))")
        }
        let loaded = try ConfigLoader.load(
            explicitPath: global.configPath, environment: ProcessInfo.processInfo.environment)
        var attachments: [Attachment] = []
        for name in names where Attachment.nameProblem(name) == nil {
            let path = folder + "/" + name
            let type = (try? FileManager.default.attributesOfItem(atPath: path))?[.type] as? FileAttributeType
            guard type == .typeRegular else { continue }
            do {
                attachments.append(
                    try store.addAttachmentContent(
                        fromFile: path, name: name, maxBytes: Int64(loaded.config.maxNoteBytes)))
            } catch let error as StoreError {
                throw CLIError("attachment \(name): \(error.message)")
            }
        }
        note.attachments = Attachment.sorted(attachments)
        return [note]
    }
}
