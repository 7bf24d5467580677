import ArgumentParser
import Foundation
import NotesCore
import NotesStore

struct Import: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Import notes from Markdown files, folders of them, JSON or JSON Lines.",
        discussion: """
            Keeps ids and dates; a note whose id exists gets a new revision if it differs. A file that cannot be read \
            is reported and skipped, the rest is imported, and a summary is printed at the end (exit 1 if any was skipped).
            """)

    @OptionGroup var global: GlobalOptions
    @Argument(help: "Files or folders (.md, .markdown, .txt, .json, .jsonl).") var paths: [String]

    func run() throws {
        let store = try Context(global).openStore()
        var notes: [Note] = []
        var skipped: [(String, String)] = []
        for path in paths {
            for file in try files(at: path) {
                do {
                    notes += try read(file)
                } catch let error as CLIError {
                    skipped.append((file, error.message))
                } catch {
                    skipped.append((file, "\(error)"))
                }
            }
        }
        for (file, reason) in skipped { Output.warn("skipped \(file): \(reason)") }
        let counts = try store.importNotes(notes)
        Output.info(
            "imported \(notes.count) note\(notes.count == 1 ? "" : "s") (\(counts.created) new, \(counts.updated) updated, \(counts.unchanged) unchanged); skipped \(skipped.count) file\(skipped.count == 1 ? "" : "s")"
        )
        if !skipped.isEmpty { throw ExitCode(1) }
    }

    private func files(at path: String) throws -> [String] {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw CLIError("\(path) does not exist")
        }
        guard isDirectory.boolValue else { return [path] }
        let names = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
        return names.filter {
            [".md", ".markdown", ".txt", ".json", ".jsonl"].contains(where: $0.lowercased().hasSuffix)
                && !$0.hasPrefix(".")
        }
        .sorted().map { path + "/" + $0 }
    }

    /// The notes in one file, each checked as the store would check it, so that a bad file is
    /// skipped alone instead of failing the whole import.
    private func read(_ file: String) throws -> [Note] {
        let notes = try parse(file)
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

    private func parse(_ file: String) throws -> [Note] {
        let text = try Input.read(file)
        let lower = file.lowercased()
        if lower.hasSuffix(".jsonl") {
            return try text.split(separator: "\n").enumerated().map { index, line in
                do {
                    return try decodeNote(Data(line.utf8))
                } catch let error as CLIError {
                    throw CLIError("line \(index + 1): \(error.message)")
                }
            }
        }
        if lower.hasSuffix(".json") {
            guard text.drop(while: \.isWhitespace).first == "[" else { return [try decodeNote(Data(text.utf8))] }
            let many: [ImportedNote]
            do {
                many = try JSONDecoder().decode([ImportedNote].self, from: Data(text.utf8))
            } catch let error as DecodingError {
                throw CLIError("not a list of notes: \(error.shortDescription)")
            }
            return try many.enumerated().map { index, note in
                do {
                    return try note.note()
                } catch let error as CLIError {
                    throw CLIError("note \(index + 1): \(error.message)")
                }
            }
        }
        let modified = (try? FileManager.default.attributesOfItem(atPath: file)[.modificationDate] as? Date) ?? Date()
        do {
            return [try MarkdownNote.parse(text, fileDate: modified)]
        } catch let error as MarkdownNote.FormatError {
            throw CLIError("broken front matter, \(error)")
        }
    }

    private func decodeNote(_ data: Data) throws -> Note {
        do {
            return try JSONDecoder().decode(ImportedNote.self, from: data).note()
        } catch let error as DecodingError {
            throw CLIError("not a note: \(error.shortDescription)")
        }
    }
}
