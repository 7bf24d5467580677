import Foundation
import NotesCore
import NotesStore

/// One file of an import read into notes, each checked as the store would check it, so that a
/// bad file is skipped alone instead of failing the whole import.
enum ImportReader {
    /// What one file gave: its notes, and the display names it gives their notebooks, zone →
    /// name (`notebookName`, which Markdown export writes in front matter and JSON export beside
    /// each note's `notebook`; the first note naming a zone wins).
    struct Read: Sendable {
        var notes: [Note]
        var notebookNames: [String: String] = [:]

        init(notes: [Note], notebookNames: [String: String] = [:]) {
            self.notes = notes
            self.notebookNames = notebookNames
        }

        /// Notes read from JSON, with the notebook names they carry.
        init(_ read: [(note: Note, notebookName: String?)]) {
            notes = read.map(\.note)
            for (note, name) in read {
                if let name, notebookNames[note.zone] == nil { notebookNames[note.zone] = name }
            }
        }
    }

    static func read(_ file: ImportScan.File, from: ImportFormat?, now: Date) throws -> Read {
        let read = try parse(file.path, notebook: file.notebook, from: from, now: now)
        let notes = read.notes
        for note in notes {
            guard NoteStore.isValidZone(note.zone) else {
                throw CLIError(
                    "note \(note.idString): notebook \"\(note.zone)\" is not valid (use 1-64 lowercase letters, digits and '-')"
                )
            }
            try Input.refuseNUL(note.title + note.body + note.tags.joined(), source: "note \(note.idString)")
        }
        return read
    }

    private static func parse(_ file: String, notebook: String?, from: ImportFormat?, now: Date) throws -> Read {
        let text = try Input.read(file)
        let lower = file.lowercased()
        func refuse(_ what: String) -> CLIError {
            CLIError("--from \(from?.rawValue ?? "") does not read \(what) files")
        }
        if lower.hasSuffix(".jsonl") {
            if let from, from != .json { throw refuse(".jsonl") }
            let notes = try text.split(separator: "\n").enumerated().map { index, line in
                do {
                    return try decodeNote(Data(line.utf8), notebook: notebook, now: now)
                } catch let error as CLIError {
                    throw CLIError("line \(index + 1): \(error.message)")
                }
            }
            return Read(notes)
        }
        if lower.hasSuffix(".json") {
            if let from, from.isMarkdown { throw refuse(".json") }
            let data = Data(text.utf8)
            switch from ?? detect(data) {
            case .jrnl:
                return Read(
                    notes: try decode(ImportApps.Jrnl.self, data, what: "a jrnl export").notes(notebook: notebook))
            case .simplenote:
                return Read(
                    notes: try decode(ImportApps.Simplenote.self, data, what: "a Simplenote export").notes(
                        notebook: notebook, now: now))
            default:
                return Read(try notes(data, text: text, notebook: notebook, now: now))
            }
        }
        if let from, !from.isMarkdown { throw refuse("Markdown") }
        let modified = (try? FileManager.default.attributesOfItem(atPath: file)[.modificationDate] as? Date) ?? now
        let stem = URL(fileURLWithPath: file).deletingPathExtension().lastPathComponent
        do {
            let parsed = try MarkdownNote.parseWithNotebookName(
                text, fileDate: modified, notebook: notebook, fileName: stem)
            return Read([(parsed.note, parsed.notebookName)])
        } catch let error as MarkdownNote.FormatError {
            throw CLIError("broken front matter, \(error)")
        }
    }

    /// A JSON file's kind by its top-level keys: jrnl's `entries`, Simplenote's `activeNotes`
    /// or `trashedNotes`, else notes.
    static func detect(_ data: Data) -> ImportFormat {
        guard let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else { return .json }
        if object["entries"] is [Any] { return .jrnl }
        if object["activeNotes"] is [Any] || object["trashedNotes"] is [Any] { return .simplenote }
        return .json
    }

    private static func decode<T: Decodable>(_ type: T.Type, _ data: Data, what: String) throws -> T {
        do {
            return try JSONDecoder().decode(T.self, from: data)
        } catch let error as DecodingError {
            throw CLIError("not \(what): \(error.shortDescription)")
        }
    }

    private static func notes(_ data: Data, text: String, notebook: String?, now: Date) throws -> [(
        note: Note, notebookName: String?
    )] {
        guard text.drop(while: \.isWhitespace).first == "[" else {
            return [try decodeNote(data, notebook: notebook, now: now)]
        }
        let many: [ImportedNote]
        do {
            many = try JSONDecoder().decode([ImportedNote].self, from: data)
        } catch let error as DecodingError {
            throw CLIError("not a list of notes: \(error.shortDescription)")
        }
        return try many.enumerated().map { index, note in
            do {
                return (try note.note(notebook: notebook, now: now), note.notebookName)
            } catch let error as CLIError {
                throw CLIError("note \(index + 1): \(error.message)")
            }
        }
    }

    private static func decodeNote(_ data: Data, notebook: String?, now: Date) throws -> (
        note: Note, notebookName: String?
    ) {
        do {
            let decoded = try JSONDecoder().decode(ImportedNote.self, from: data)
            return (try decoded.note(notebook: notebook, now: now), decoded.notebookName)
        } catch let error as DecodingError {
            throw CLIError("not a note: \(error.shortDescription)")
        }
    }
}
