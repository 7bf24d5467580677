import Crypto
import Foundation
import Glibc
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
        /// Note id → the attachments the file lists for it; absent when it says nothing of them.
        var listedAttachments: [UUID: ImportAttachments.Listed] = [:]

        init(notes: [Note], notebookNames: [String: String] = [:]) {
            self.notes = notes
            self.notebookNames = notebookNames
        }

        /// Notes read from JSON or Markdown, with the notebook names and attachments they carry.
        init(_ read: [(note: Note, notebookName: String?, attachments: ImportAttachments.Listed?)]) {
            notes = read.map(\.note)
            for (note, name, attachments) in read {
                if let name, notebookNames[note.zone] == nil { notebookNames[note.zone] = name }
                if let attachments { listedAttachments[note.id] = attachments }
            }
        }
    }

    static func read(_ file: ImportScan.File, from: ImportFormat?, now: Date) throws -> Read {
        let text = try file.inFolder ? Input.readInFolder(file.path) : Input.read(file.path)
        let read = try parse(text, file: file.path, notebook: file.notebook, from: from, now: now)
        // One id twice in a file: which of the two is meant cannot be told, so neither is taken.
        var first: [UUID: Int] = [:]
        for (index, note) in read.notes.enumerated() {
            if let earlier = first[note.id] { throw twice(note, earlier + 1, index + 1) }
            first[note.id] = index
        }
        for note in read.notes { try check(note) }
        return read
    }

    /// Refuses a note the store could not hold: an invalid notebook id, or a NUL in its text.
    static func check(_ note: Note) throws {
        guard NoteStore.isValidZone(note.zone) else {
            throw CLIError(
                "note \(note.idString): notebook \"\(note.zone)\" is not valid (use 1-64 lowercase letters, digits and '-')"
            )
        }
        if Input.containsNUL(note.title) || Input.containsNUL(note.body) || note.tags.contains(where: Input.containsNUL)
        {
            try Input.refuseNUL(note.title + note.body + note.tags.joined(), source: "note \(note.idString)")
        }
    }

    private static func parse(_ text: String, file: String, notebook: String?, from: ImportFormat?, now: Date) throws
        -> Read
    {
        let lower = file.lowercased()
        func refuse(_ what: String) -> CLIError {
            CLIError("--from \(from?.rawValue ?? "") does not read \(what) files")
        }
        // A note without dates takes the file's: the same on the next import of that file.
        let modified = FileTimes.modified(file) ?? now
        let now = modified
        if lower.hasSuffix(".jsonl") {
            if let from, from != .json { throw refuse(".jsonl") }
            return Read(try jsonLines(text, path: file, source: realPath(file), notebook: notebook, now: now))
        }
        if lower.hasSuffix(".json") {
            if let from, from.isMarkdown { throw refuse(".json") }
            var ids = SourceIDs(source: realPath(file))
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
                return Read(try notes(data, text: text, notebook: notebook, now: now, ids: &ids))
            }
        }
        if let from, !from.isMarkdown { throw refuse("Markdown") }
        do {
            var parsed = try MarkdownNote.parseFile(
                text, fileDate: modified, notebook: notebook, fileName: MarkdownNote.fileStem(of: file))
            // A file without an id is one note: the same on every import of that file.
            if !parsed.idGiven { parsed.note.id = ImportedNote.stableID("file\n" + realPath(file)) }
            return Read([(parsed.note, parsed.notebookName, parsed.attachmentFiles.map { .folder($0) })])
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

    private static func notes(_ data: Data, text: String, notebook: String?, now: Date, ids: inout SourceIDs) throws
        -> [(note: Note, notebookName: String?, attachments: ImportAttachments.Listed?)]
    {
        guard text.drop(while: \.isWhitespace).first == "[" else {
            return [try decodeNote(data, notebook: notebook, now: now, ids: &ids)]
        }
        let many: [ImportedNote]
        do {
            many = try JSONDecoder().decode([ImportedNote].self, from: data)
        } catch let error as DecodingError {
            throw CLIError("not a list of notes: \(error.shortDescription)")
        }
        var out: [(note: Note, notebookName: String?, attachments: ImportAttachments.Listed?)] = []
        for (index, note) in many.enumerated() {
            do {
                out.append(
                    (
                        try note.note(notebook: notebook, now: now, fallbackID: ids.id(for: note)), note.notebookName,
                        note.attachments.map { .json($0) }
                    ))
            } catch let error as CLIError {
                throw CLIError("note \(index + 1): \(error.message)")
            }
        }
        return out
    }

    /// The file's path with links resolved (the same file however it was named), or as given.
    static func realPath(_ file: String) -> String {
        guard let resolved = realpath(file, nil) else { return file }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    /// Ids for the JSON notes of one file that give none, made from the file and the note's
    /// title and body (and which of several equal notes it is): importing the file again finds
    /// the same notes instead of adding them again, and an edited note is a new one rather than
    /// another note's update.
    struct SourceIDs {
        let source: String
        /// How many notes of each title and body came so far, by the SHA-256 of the text (a
        /// large file's notes are not held).
        private var seen: [SHA256.Digest: Int] = [:]

        init(source: String) { self.source = source }

        mutating func id(for note: ImportedNote) -> UUID? {
            guard note.id == nil else { return nil }
            let key = (note.title ?? "") + "\n" + note.body
            let digest = SHA256.hash(data: Data(key.utf8))
            seen[digest, default: 0] += 1
            return ImportedNote.stableID("json\n" + source + "\n" + key + "\n\(seen[digest, default: 1])")
        }
    }

    private static func decodeNote(_ data: Data, notebook: String?, now: Date, ids: inout SourceIDs) throws -> (
        note: Note, notebookName: String?, attachments: ImportAttachments.Listed?
    ) {
        do {
            let decoded = try JSONDecoder().decode(ImportedNote.self, from: data)
            return (
                try decoded.note(notebook: notebook, now: now, fallbackID: ids.id(for: decoded)), decoded.notebookName,
                decoded.attachments.map { .json($0) }
            )
        } catch let error as DecodingError {
            throw CLIError("not a note: \(error.shortDescription)")
        }
    }
}
