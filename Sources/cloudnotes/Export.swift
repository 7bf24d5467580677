import ArgumentParser
import Foundation
import NotesCore
import NotesStore

enum TransferFormat: String, ExpressibleByArgument, CaseIterable {
    case markdown, json
}

struct Export: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Export notes as Markdown files (one per note, named by id) or one JSON file.",
        discussion: "An existing target is never overwritten without --force.")

    @OptionGroup var global: GlobalOptions
    @Argument(help: "A folder (markdown) or a file (json).") var target: String
    @Option(help: "markdown or json.") var format: TransferFormat = .markdown
    @Flag(help: "Include notes in the trash.") var includeTrash = false
    @Flag(help: "Overwrite an existing target.") var force = false

    func run() throws {
        let store = try Context(global).openStore()
        var summaries = try store.list(ListRequest(section: .all, limit: Int.max))
        if includeTrash { summaries += try store.list(ListRequest(section: .trash, limit: Int.max)) }
        let fm = FileManager.default
        switch format {
        case .json:
            if fm.fileExists(atPath: target) && !force {
                throw CLIError("\(target) exists; use --force to overwrite it")
            }
            var notes: [NoteJSON] = []
            for summary in summaries {
                if let note = try store.note(summary.id) { notes.append(NoteJSON(note)) }
            }
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            try write(try encoder.encode(notes), to: target)
        case .markdown:
            var isDirectory: ObjCBool = false
            if fm.fileExists(atPath: target, isDirectory: &isDirectory) {
                guard isDirectory.boolValue else {
                    throw CLIError("\(target) is a file; markdown export needs a folder")
                }
                let contents = (try? fm.contentsOfDirectory(atPath: target)) ?? []
                if !contents.isEmpty && !force {
                    throw CLIError("\(target) is not empty; use --force to write into it")
                }
            } else {
                do {
                    try fm.createDirectory(
                        atPath: target, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
                } catch {
                    throw CLIError("cannot create \(target): \(error.localizedDescription)")
                }
            }
            for summary in summaries {
                guard let note = try store.note(summary.id) else { continue }
                try write(Data(MarkdownNote.render(note).utf8), to: target + "/" + note.idString + ".md")
                try ExportAttachments.write(note, store, beside: target + "/" + note.idString)
            }
        }
        Output.info("exported \(summaries.count) note\(summaries.count == 1 ? "" : "s") to \(target)")
    }

    private func write(_ data: Data, to path: String) throws {
        do {
            try data.write(to: URL(fileURLWithPath: path), options: .atomic)
        } catch {
            throw CLIError(
                "cannot write \(path): \((error as NSError).localizedFailureReason ?? error.localizedDescription)")
        }
    }
}
