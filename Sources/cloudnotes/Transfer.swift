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
            if fm.fileExists(atPath: target) && !force { throw CLIError("\(target) exists; use --force to overwrite it") }
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
                guard isDirectory.boolValue else { throw CLIError("\(target) is a file; markdown export needs a folder") }
                let contents = (try? fm.contentsOfDirectory(atPath: target)) ?? []
                if !contents.isEmpty && !force { throw CLIError("\(target) is not empty; use --force to write into it") }
            } else {
                do {
                    try fm.createDirectory(atPath: target, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
                } catch {
                    throw CLIError("cannot create \(target): \(error.localizedDescription)")
                }
            }
            for summary in summaries {
                guard let note = try store.note(summary.id) else { continue }
                try write(Data(MarkdownNote.render(note).utf8), to: target + "/" + note.idString + ".md")
            }
        }
        Output.info("exported \(summaries.count) note\(summaries.count == 1 ? "" : "s") to \(target)")
    }

    private func write(_ data: Data, to path: String) throws {
        do {
            try data.write(to: URL(fileURLWithPath: path), options: .atomic)
        } catch {
            throw CLIError("cannot write \(path): \((error as NSError).localizedFailureReason ?? error.localizedDescription)")
        }
    }
}

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
        Output.info("imported \(notes.count) note\(notes.count == 1 ? "" : "s") (\(counts.created) new, \(counts.updated) updated, \(counts.unchanged) unchanged); skipped \(skipped.count) file\(skipped.count == 1 ? "" : "s")")
        if !skipped.isEmpty { throw ExitCode(1) }
    }

    private func files(at path: String) throws -> [String] {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw CLIError("\(path) does not exist")
        }
        guard isDirectory.boolValue else { return [path] }
        let names = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
        return names.filter { [".md", ".markdown", ".txt", ".json", ".jsonl"].contains(where: $0.lowercased().hasSuffix) && !$0.hasPrefix(".") }
            .sorted().map { path + "/" + $0 }
    }

    /// The notes in one file, each checked as the store would check it, so that a bad file is
    /// skipped alone instead of failing the whole import.
    private func read(_ file: String) throws -> [Note] {
        let notes = try parse(file)
        for note in notes {
            guard NoteStore.isValidZone(note.zone) else {
                throw CLIError("note \(note.idString): notebook \"\(note.zone)\" is not valid (use 1-64 lowercase letters, digits and '-')")
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
            if let many = try? JSONDecoder().decode([ImportedNote].self, from: Data(text.utf8)) {
                return try many.map { try $0.note() }
            }
            return [try decodeNote(Data(text.utf8))]
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

/// A note in JSON as export writes it or `corpus.py --jsonl` does (`notebook` optional).
struct ImportedNote: Decodable {
    var id: String
    var title: String
    var body: String
    var tags: [String]?
    var isFavorite: Bool?
    var notebook: String?
    var createdAt: String
    var modifiedAt: String?
    var deletedAt: String?

    func note() throws -> Note {
        guard let uuid = UUID(uuidString: id) else { throw CLIError("\"id\" is not a UUID") }
        guard let created = ISODate.parse(createdAt) else { throw CLIError("\"createdAt\" is not an ISO 8601 date") }
        var modified = created
        if let modifiedAt {
            guard let m = ISODate.parse(modifiedAt) else { throw CLIError("\"modifiedAt\" is not an ISO 8601 date") }
            modified = m
        }
        var deleted: Date?
        if let deletedAt {
            guard let d = ISODate.parse(deletedAt) else { throw CLIError("\"deletedAt\" is not an ISO 8601 date") }
            deleted = d
        }
        return Note(
            id: uuid, zone: notebook ?? Note.defaultZone, title: title, body: body, tags: tags ?? [],
            isFavorite: isFavorite ?? false, createdAt: created, modifiedAt: modified, deletedAt: deleted)
    }
}

extension DecodingError {
    var shortDescription: String {
        switch self {
        case .keyNotFound(let key, _): return "missing \"\(key.stringValue)\""
        case .typeMismatch(_, let c), .valueNotFound(_, let c):
            return "\"\(c.codingPath.map(\.stringValue).joined(separator: "."))\": \(c.debugDescription)"
        case .dataCorrupted(let c): return c.debugDescription
        @unknown default: return "\(self)"
        }
    }
}
