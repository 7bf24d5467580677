import ArgumentParser
import Foundation
import NotesCore
import NotesStore

struct Import: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Import notes from Markdown files, folders of them, JSON or JSON Lines.",
        discussion: """
            Keeps ids and dates; a note whose id exists gets a new revision if it differs. Folders are read with their \
            subfolders, each of which becomes a notebook named after its path (Work/Projects → work-projects) unless a \
            note names its own; hidden files and folders and other file types are left out and counted. A file that \
            cannot be read is reported and skipped, the rest is imported, and a summary is printed at the end (exit 1 \
            if any was skipped, or if a folder holds nothing to import).
            """)

    @OptionGroup var global: GlobalOptions
    @Argument(help: "Files or folders (.md, .markdown, .txt, .json, .jsonl).") var paths: [String]

    func run() throws {
        let store = try Context(global).openStore()
        let scan = try ImportScan(paths)
        var notes: [Note] = []
        var skipped = scan.unreadable.map { ($0.path, $0.reason) }
        var perNotebook: [String: Int] = [:]
        for file in scan.files {
            do {
                let read = try ImportAttachments.carry(
                    self.read(file.path, notebook: file.notebook), from: file.path, store, global)
                notes += read
                if let notebook = file.notebook {
                    perNotebook[notebook, default: 0] += read.filter { $0.zone == notebook }.count
                }
            } catch let error as CLIError {
                skipped.append((file.path, error.message))
            } catch {
                skipped.append((file.path, "\(error)"))
            }
        }
        for (file, reason) in skipped { Output.warn("skipped \(file): \(reason)") }
        for folder in scan.emptyFolders {
            Output.warn(
                "nothing to import in \(folder): no \(ImportScan.extensions.joined(separator: ", ")) file in it or its subfolders"
                    + (Self.ignoredSummary(scan).map { " (\($0))" } ?? ""))
        }
        for (folder, notebook) in scan.notebooks where perNotebook[notebook, default: 0] > 0 {
            let count = perNotebook[notebook, default: 0]
            Output.info("\(folder)/ → notebook \(notebook) (\(count) note\(count == 1 ? "" : "s"))")
        }
        let counts = try store.importNotes(notes)
        Output.info(
            "imported \(notes.count) note\(notes.count == 1 ? "" : "s") (\(counts.created) new, \(counts.updated) updated, \(counts.unchanged) unchanged); skipped \(skipped.count) file\(skipped.count == 1 ? "" : "s")"
                + (Self.ignoredSummary(scan).map { "; \($0)" } ?? "")
        )
        if !skipped.isEmpty || !scan.emptyFolders.isEmpty { throw ExitCode(1) }
    }

    /// "ignored 1 file of another type and 2 hidden files or folders", nil when nothing was
    /// left out ("another type": not one of `ImportScan.extensions`, or a link to a folder).
    static func ignoredSummary(_ scan: ImportScan) -> String? {
        func plural(_ n: Int, _ word: String) -> String { "\(n) \(word)\(n == 1 ? "" : "s")" }
        var parts: [String] = []
        if scan.otherFiles > 0 { parts.append(plural(scan.otherFiles, "file") + " of another type") }
        if scan.hidden > 0 {
            parts.append("\(scan.hidden) hidden \(scan.hidden == 1 ? "file or folder" : "files or folders")")
        }
        return parts.isEmpty ? nil : "ignored " + parts.joined(separator: " and ")
    }

    /// The notes in one file, each checked as the store would check it, so that a bad file is
    /// skipped alone instead of failing the whole import.
    private func read(_ file: String, notebook: String?) throws -> [Note] {
        let notes = try parse(file, notebook: notebook)
        for note in notes {
            guard NoteStore.isValidZone(note.zone) else {
                throw CLIError(
                    "note \(note.idString): notebook \"\(note.zone)\" is not valid (use 1-64 lowercase letters, digits and '-')"
                )
            }
            try Input.refuseNUL(note.title + note.body + note.tags.joined(), source: "note \(note.idString)")
        }
        return notes
    }

    private func parse(_ file: String, notebook: String?) throws -> [Note] {
        let text = try Input.read(file)
        let lower = file.lowercased()
        if lower.hasSuffix(".jsonl") {
            return try text.split(separator: "\n").enumerated().map { index, line in
                do {
                    return try decodeNote(Data(line.utf8), notebook: notebook)
                } catch let error as CLIError {
                    throw CLIError("line \(index + 1): \(error.message)")
                }
            }
        }
        if lower.hasSuffix(".json") {
            guard text.drop(while: \.isWhitespace).first == "[" else {
                return [try decodeNote(Data(text.utf8), notebook: notebook)]
            }
            let many: [ImportedNote]
            do {
                many = try JSONDecoder().decode([ImportedNote].self, from: Data(text.utf8))
            } catch let error as DecodingError {
                throw CLIError("not a list of notes: \(error.shortDescription)")
            }
            return try many.enumerated().map { index, note in
                do {
                    return try note.note(notebook: notebook)
                } catch let error as CLIError {
                    throw CLIError("note \(index + 1): \(error.message)")
                }
            }
        }
        let modified = (try? FileManager.default.attributesOfItem(atPath: file)[.modificationDate] as? Date) ?? Date()
        do {
            return [try MarkdownNote.parse(text, fileDate: modified, notebook: notebook)]
        } catch let error as MarkdownNote.FormatError {
            throw CLIError("broken front matter, \(error)")
        }
    }

    private func decodeNote(_ data: Data, notebook: String?) throws -> Note {
        do {
            return try JSONDecoder().decode(ImportedNote.self, from: data).note(notebook: notebook)
        } catch let error as DecodingError {
            throw CLIError("not a note: \(error.shortDescription)")
        }
    }
}
