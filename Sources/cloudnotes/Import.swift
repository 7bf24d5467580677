import ArgumentParser
import Foundation
import NotesCore
import NotesStore
import Synchronization

/// Where the files of an import come from (`--from`); without it each file's kind is found
/// from its extension and, for JSON, its top-level keys.
enum ImportFormat: String, ExpressibleByArgument, CaseIterable, Sendable {
    case obsidian, joplin, nb, jrnl, simplenote, json, markdown

    /// Obsidian vaults, Joplin's "Markdown + Front Matter" export and nb notebooks are all
    /// folders of Markdown with front matter: one reader.
    var isMarkdown: Bool { [.obsidian, .joplin, .nb, .markdown].contains(self) }
}

struct Import: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract:
            "Import notes from Markdown files and folders (Obsidian, Joplin, nb), JSON, JSON Lines, jrnl or Simplenote exports.",
        discussion: """
            Keeps ids and dates; a note whose id exists gets a new revision if it differs. Folders are read with their \
            subfolders, each of which becomes a notebook named after its path (Work/Projects, id work-projects) unless a \
            note names its own (as an export's notes do, with their notebook's name, which a notebook new here takes); hidden files and folders (.obsidian, nb's .index) and other file types are left out \
            and counted, except files a note embeds (![[diagram.png]], Joplin's _resources), which become its \
            attachments; a folder named like a note beside it (Trip/ beside Trip.md) holds that note's \
            attachments. Front matter is YAML; keys CloudNotes does not use are kept and written back on export. A \
            file that cannot be read is reported and skipped, the rest is imported, and a summary is printed per \
            source and in all (exit 1 if any was skipped, or if a folder holds nothing to import).
            """)

    @OptionGroup var global: GlobalOptions
    @Argument(help: "Files or folders (.md, .markdown, .txt, .json, .jsonl).") var paths: [String]
    @Option(help: "Read every file as: \(ImportFormat.allCases.map(\.rawValue).joined(separator: ", ")).")
    var from: ImportFormat?
    @Flag(help: "Read and check everything and print the summary; write nothing.") var dryRun = false

    /// What one source (a path given on the command line) gave.
    struct Tally {
        var notes = 0
        var created = 0
        var updated = 0
        var unchanged = 0
        var skipped = 0

        mutating func add(_ other: Tally) {
            notes += other.notes
            created += other.created
            updated += other.updated
            unchanged += other.unchanged
            skipped += other.skipped
        }

        var line: String {
            "\(notes) note\(notes == 1 ? "" : "s") (\(created) new, \(updated) updated, \(unchanged) unchanged); skipped \(skipped) file\(skipped == 1 ? "" : "s")"
        }
    }

    func run() throws {
        let scan = try ImportScan(paths)
        let context = try Context(global)
        let store = try context.openStore()
        let now = Date()
        var perNotebook: [String: Int] = [:]
        // Zone → the display name the files give it (an export's `notebookName`, Markdown or
        // JSON), first file first.
        var notebookNames: [String: String] = [:]
        var total = Tally()
        var perSource: [(source: String, tally: Tally)] = []
        var unreadable = scan.unreadable
        // Note id → the file that gave it, over the whole import.
        var fileOfID: [UUID: String] = [:]
        // Notes whose file said nothing about attachments: they keep the ones they have.
        var keepingAttachments = Set<UUID>()
        let maxBytes = Int64(
            try ConfigLoader.load(explicitPath: global.configPath, environment: ProcessInfo.processInfo.environment)
                .config.maxNoteBytes)
        // Per folder given: the files its notes may embed (`ImportEmbeds`).
        var embedders: [String: ImportEmbeds] = [:]
        for source in Set(scan.files.filter(\.inFolder).map(\.source)) {
            embedders[source] = ImportEmbeds(
                root: ImportScan.root(of: source),
                otherFiles: scan.otherPaths.filter { $0.source == source }.map(\.path))
        }
        var embedded = ImportEmbeds.Tally()
        for source in paths {
            var tally = Tally()
            // Pass 1: every file read and checked, its notes kept in the plan's scratch file.
            var plan = try ImportPlan(directory: context.dataDirectory)
            defer { plan.close() }
            /// Takes one file's notes: checked against the other files' ids, attachments and
            /// embeds carried, kept in `plan`.
            func take(_ file: ImportScan.File, _ result: Result<ImportPlan.FileRead, CLIError>) throws {
                let fileRead: ImportPlan.FileRead
                switch result {
                case .success(let read): fileRead = read
                case .failure(let error):
                    unreadable.append((file.path, error.message, source))
                    tally.skipped += 1
                    return
                }
                let read = fileRead.read
                // An id that an earlier file gave: reported, not merged into that note.
                if let twice = fileRead.ids.first(where: { fileOfID[$0] != nil }), let earlier = fileOfID[twice] {
                    unreadable.append(
                        (
                            file.path,
                            "note id \(twice.lowercasedString) is also in \(earlier); give each note its own id",
                            source
                        ))
                    tally.skipped += 1
                    return
                }
                for id in fileRead.ids { fileOfID[id] = file.path }
                // A note's attachments come with it (not on a dry run: nothing is copied).
                var found: [Note]
                do {
                    let carried: (notes: [Note], unsaid: Set<UUID>) =
                        dryRun
                        ? (read.notes, Set(read.notes.map(\.id)))
                        : try ImportAttachments.carry(read, from: file.path, store, maxBytes: maxBytes)
                    found = carried.notes
                    var unsaid = carried.unsaid
                    // Files the notes embed come along as attachments (a vault's images).
                    if file.inFolder, let embeds = embedders[source],
                        ImportAttachments.markdownExtensions.contains(where: file.path.lowercased().hasSuffix)
                    {
                        let withEmbeds = try embeds.carry(
                            found, from: file.path, store, maxBytes: maxBytes, dryRun: dryRun, tally: &embedded)
                        found = withEmbeds.notes
                        unsaid.subtract(withEmbeds.said)
                    }
                    keepingAttachments.formUnion(unsaid)
                } catch let error as CLIError {
                    unreadable.append((file.path, error.message, source))
                    tally.skipped += 1
                    return
                }
                for note in found { try NoteStore.checkImportable(note) }
                for located in fileRead.located { keepingAttachments.insert(located.id) }
                var entries = [ImportPlan.Entry?](repeating: nil, count: fileRead.ids.count)
                for (position, note) in zip(fileRead.heldPositions, found) { entries[position] = try plan.keep(note) }
                for located in fileRead.located { entries[located.position] = located.entry }
                plan.append(entries.compactMap { $0 })
                for (zone, name) in fileRead.notebookNames where notebookNames[zone] == nil {
                    notebookNames[zone] = name
                }
                if let notebook = file.notebook {
                    perNotebook[notebook, default: 0] +=
                        found.filter { $0.zone == notebook }.count + fileRead.locatedInNotebook
                }
            }
            let files = scan.files.filter { $0.source == source }
            var start = 0
            while start < files.count {
                // A JSON Lines file is read as a stream; other files in groups, on all cores.
                if Self.streams(files[start], from: from) {
                    let read = ImportPlan.FileRead.lines(files[start], now: now, plan: &plan)
                    try take(files[start], read)
                    start += 1
                    continue
                }
                var end = start + 1
                while end < files.count, end - start < Self.filesPerGroup, !Self.streams(files[end], from: from) {
                    end += 1
                }
                let group = Array(files[start..<end])
                for (file, result) in zip(group, Self.readAll(group, from: from, now: now)) {
                    try take(file, result.map { ImportPlan.FileRead($0) })
                }
                start = end
            }
            tally.skipped += scan.unreadable.filter { $0.source == source }.count
            // Pass 2: the notes read again a chunk at a time, oldest first, as they are written.
            try plan.sort()
            let load = { @Sendable [plan] (range: Range<Int>) throws -> [Note] in try plan.notes(range) }
            let counts =
                dryRun
                ? try store.importPreview(count: plan.count, keepingAttachments: keepingAttachments, load: load)
                : try store.importNotes(count: plan.count, keepingAttachments: keepingAttachments, load: load)
            tally.notes = plan.count
            (tally.created, tally.updated, tally.unchanged) = counts
            total.add(tally)
            perSource.append((source, tally))
        }
        // A notebook a folder gives is named after the folder's path (`Work Stuff/Projects`)
        // unless its files name it (an export's `notebookName`).
        for (folder, notebook) in scan.notebooks where perNotebook[notebook, default: 0] > 0 {
            if notebookNames[notebook] == nil { notebookNames[notebook] = folder }
        }
        // The notebooks an import brings get their names where this device has none.
        if !dryRun { try store.nameNewNotebooks(notebookNames) }
        for (file, reason) in unreadable.map({ ($0.path, $0.reason) }) { Output.warn("skipped \(file): \(reason)") }
        for folder in scan.emptyFolders {
            Output.warn(
                "nothing to import in \(folder): no \(ImportScan.extensions.joined(separator: ", ")) file in it or its subfolders"
                    + (Self.ignoredSummary(scan, attached: 0).map { " (\($0))" } ?? ""))
        }
        for (folder, notebook) in scan.notebooks where perNotebook[notebook, default: 0] > 0 {
            let count = perNotebook[notebook, default: 0]
            Output.info("\(folder)/ → notebook \(notebook) (\(count) note\(count == 1 ? "" : "s"))")
        }
        if perSource.count > 1 {
            for (source, tally) in perSource { Output.info("\(Output.display(source)): \(tally.line)") }
        }
        if !embedded.missing.isEmpty {
            let named = embedded.missing.prefix(5).joined(separator: ", ")
            let more = embedded.missing.count > 5 ? ", \(embedded.missing.count - 5) more" : ""
            Output.warn(
                "\(embedded.missing.count) embed(s) name no file in the imported folder and stay as they are "
                    + "(\(named)\(more)); files outside it and symbolic links are never read")
        }
        let attached = embedded.attached.count
        let embeddedLine =
            attached == 0
            ? "" : "; \(dryRun ? "would attach" : "attached") \(attached) embedded file\(attached == 1 ? "" : "s")"
        Output.info(
            (dryRun ? "would import " : "imported ") + total.line + embeddedLine
                + (Self.ignoredSummary(scan, attached: attached).map { "; \($0)" } ?? "")
                + (dryRun ? "; nothing written (--dry-run)" : ""))
        if total.skipped > 0 || !scan.emptyFolders.isEmpty { throw ExitCode(1) }
    }

    /// "ignored 1 file of another type, 2 hidden files or folders and 1 symbolic link
    /// (shadow.md)", nil when nothing was left out ("another type": not a regular file with one
    /// of `ImportScan.extensions`). Links are named (the first 5), as they are never followed.
    static func ignoredSummary(_ scan: ImportScan, attached: Int) -> String? {
        func plural(_ n: Int, _ word: String) -> String { "\(n) \(word)\(n == 1 ? "" : "s")" }
        var parts: [String] = []
        // Files a note embeds were attached, not ignored.
        let other = scan.otherFiles - attached
        if other > 0 { parts.append(plural(other, "file") + " of another type") }
        if scan.hidden > 0 {
            parts.append("\(scan.hidden) hidden \(scan.hidden == 1 ? "file or folder" : "files or folders")")
        }
        if !scan.links.isEmpty {
            let named = scan.links.prefix(5).joined(separator: ", ")
            let more = scan.links.count > 5 ? ", \(scan.links.count - 5) more" : ""
            parts.append(plural(scan.links.count, "symbolic link") + " (\(named)\(more); links are not followed)")
        }
        guard let last = parts.popLast() else { return nil }
        return "ignored " + (parts.isEmpty ? last : parts.joined(separator: ", ") + " and " + last)
    }

    /// How many files (other than JSON Lines) are read at once, on all cores.
    static let filesPerGroup = 256

    /// Whether the file is read as a stream of lines (a JSON Lines file that can be read again).
    static func streams(_ file: ImportScan.File, from: ImportFormat?) -> Bool {
        guard file.path.lowercased().hasSuffix(".jsonl"), from == nil || from == .json else { return false }
        var info = stat()
        return stat(file.path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFREG
    }

    /// Every file read and checked, on all cores (YAML parsing dominates a vault's import), in
    /// the order of `files`.
    static func readAll(_ files: [ImportScan.File], from: ImportFormat?, now: Date) -> [Result<
        ImportReader.Read, CLIError
    >] {
        let workers = max(1, min(ProcessInfo.processInfo.activeProcessorCount, files.count))
        let results = Mutex(
            [Result<ImportReader.Read, CLIError>](repeating: .failure(CLIError("not read")), count: files.count))
        DispatchQueue.concurrentPerform(iterations: workers) { worker in
            var mine: [(Int, Result<ImportReader.Read, CLIError>)] = []
            for index in stride(from: worker, to: files.count, by: workers) {
                let file = files[index]
                do {
                    mine.append((index, .success(try ImportReader.read(file, from: from, now: now))))
                } catch let error as CLIError {
                    mine.append((index, .failure(error)))
                } catch {
                    mine.append((index, .failure(CLIError("\(error)"))))
                }
            }
            results.withLock { results in for (index, result) in mine { results[index] = result } }
        }
        return results.withLock { $0 }
    }
}
