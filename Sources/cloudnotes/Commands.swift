import ArgumentParser
import Foundation
import NotesCore
import NotesStore

struct Add: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Add a note.",
        discussion: "The body comes from --body, --file (- for stdin) or piped stdin. An empty title is taken from the first body line.")

    @OptionGroup var global: GlobalOptions
    @Argument(help: "The title.") var title: String = ""
    @Option(name: .shortAndLong, help: "The body text.") var body: String?
    @Option(name: .shortAndLong, help: "Read the body from a file (- for stdin).") var file: String?
    @Flag(help: "Mark as favorite.") var fav = false
    @Option(name: .shortAndLong, help: "A tag (repeatable).") var tag: [String] = []
    @Option(help: "The notebook (lowercase letters, digits, -).") var notebook: String = Note.defaultZone
    @Flag(help: "Print the note as JSON.") var json = false

    func run() throws {
        let context = try Context(global)
        let text = try Input.body(option: body, file: file) ?? ""
        guard !title.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty || !text.isEmpty else {
            throw CLIError("nothing to add: give a title or a body")
        }
        let store = try context.openStore()
        let note = try store.create(title: title, body: text, tags: tag, isFavorite: fav, zone: notebook)
        if json {
            try Output.json(NoteJSON(note))
        } else {
            Output.line(note.idString)
        }
    }
}

struct List: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "List notes: favorites first, then the others.")

    @OptionGroup var global: GlobalOptions
    @Flag(help: "Only favorites.") var favorites = false
    @Flag(help: "The notes in the trash.") var trash = false
    @Option(help: "At most this many notes.") var limit: Int = 200
    @Option(help: "Sort by modified (newest first) or title.") var sort: ListSort = .modified
    @Flag(help: "Print JSON.") var json = false

    func validate() throws {
        if favorites && trash { throw ValidationError("--favorites and --trash cannot be combined") }
        if limit < 0 { throw ValidationError("--limit must be 0 or more") }
    }

    func run() throws {
        let store = try Context(global).openStore()
        var sections: [(String, ListSection)] = []
        if trash {
            sections = [("TRASH", .trash)]
        } else if favorites {
            sections = [("FAVORITES", .favorites)]
        } else {
            sections = [("FAVORITES", .favorites), ("NOTES", .others)]
        }
        var remaining = limit
        var all: [NoteSummary] = []
        for (header, section) in sections where remaining > 0 {
            let rows = try store.list(ListRequest(section: section, sort: sort, limit: remaining))
            remaining -= rows.count
            all += rows
            if !json && !rows.isEmpty {
                if sections.count > 1 || Output.stdoutIsTerminal { Output.line(Output.style(header, "1")) }
                for row in rows { Output.line(Format.row(row)) }
            }
        }
        if json {
            try Output.json(all.map(NoteJSON.init))
        } else if all.isEmpty && Output.stdoutIsTerminal {
            Output.line(trash ? "The trash is empty." : "No notes yet. Add one with: cloudnotes add \"Title\" --body \"text\"")
        }
    }
}

extension ListSort: ExpressibleByArgument {}

struct Show: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Show a note.",
        discussion: "On a terminal, prints the title, details and body made safe for display. When piped, writes the stored body bytes unchanged.")

    @OptionGroup var global: GlobalOptions
    @Argument(help: "Id, id prefix or exact title.") var note: String
    @Flag(help: "Print JSON.") var json = false

    func run() throws {
        let store = try Context(global).openStore()
        let note = try store.resolve(self.note)
        if json { return try Output.json(NoteJSON(note)) }
        guard Output.stdoutIsTerminal else { return Output.raw(note.body) }
        Output.line(Output.style(TerminalSafeText.sanitize(note.title.isEmpty ? "(untitled)" : note.title), "1"))
        var details = ["id \(note.idString)", "notebook \(note.zone)", "\(Format.syncMark(note.syncState)) \(note.syncState.rawValue)"]
        if note.isFavorite { details.append("★ favorite") }
        if note.isTrashed { details.append("in trash") }
        Output.line(Output.style(TerminalSafeText.sanitize(details.joined(separator: "  ")), "2"))
        if !note.tags.isEmpty { Output.line(Output.style(TerminalSafeText.sanitize(note.tags.map { "#" + $0 }.joined(separator: " ")), "2")) }
        Output.line(Output.style("created \(Format.iso(note.createdAt))  modified \(Format.iso(note.modifiedAt))", "2"))
        Output.line()
        Output.line(TerminalSafeText.sanitize(note.body, mode: .block))
    }
}

struct Search: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Search notes.",
        discussion: """
            Case- and diacritic-insensitive substring search over titles, bodies and tags; all terms must match.
            Syntax: words, "exact phrase", -exclude, tag:work, -tag:work, is:fav, in:notebook.
            Ranked: notes with every term in the title first, then some, then the rest; newest first within each.
            """)

    @OptionGroup var global: GlobalOptions
    // Unrecognized options are query words: `-draft` excludes, it is not a flag.
    @Argument(parsing: .allUnrecognized, help: "The query.") var query: [String]
    @Option(help: "At most this many results.") var limit: Int = 50
    @Flag(help: "Print JSON.") var json = false

    func validate() throws {
        if query.isEmpty { throw ValidationError("give a query") }
        // A mistyped option must not turn silently into a search word.
        if let option = query.first(where: { $0.hasPrefix("--") }) { throw ValidationError("unknown option '\(option)'") }
    }

    func run() throws {
        let store = try Context(global).openStore()
        let parsed = SearchQuery(parsing: query.joined(separator: " "))
        let page = try store.search(parsed, limit: max(1, limit))
        if json {
            struct Hit: Encodable {
                var note: NoteJSON
                var tier: Int
                var snippet: String
                var titleMatches: [[Int]]
                var snippetMatches: [[Int]]
            }
            return try Output.json(page.hits.map {
                Hit(note: NoteJSON($0.note), tier: $0.tier, snippet: $0.snippet,
                    titleMatches: $0.titleMatches.map { [$0.lowerBound, $0.upperBound] },
                    snippetMatches: $0.snippetMatches.map { [$0.lowerBound, $0.upperBound] })
            })
        }
        if page.hits.isEmpty {
            if Output.stdoutIsTerminal { Output.line("No notes match.") }
            return
        }
        for hit in page.hits {
            Output.line(Format.row(hit.note, highlights: hit.titleMatches))
            if !hit.snippet.isEmpty {
                let safe = TerminalSafeText.sanitize(hit.snippet)
                Output.line("            " + Format.highlight(safe, safe == hit.snippet ? hit.snippetMatches : []))
            }
        }
    }
}

struct Fav: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Mark notes as favorites.")
    @OptionGroup var global: GlobalOptions
    @Argument(help: "Id, id prefix or exact title.") var notes: [String]

    func run() throws { try setFavorite(global, notes, true) }
}

struct Unfav: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Remove notes from the favorites.")
    @OptionGroup var global: GlobalOptions
    @Argument(help: "Id, id prefix or exact title.") var notes: [String]

    func run() throws { try setFavorite(global, notes, false) }
}

private func setFavorite(_ global: GlobalOptions, _ references: [String], _ value: Bool) throws {
    let store = try Context(global).openStore()
    for reference in references {
        let note = try store.resolve(reference)
        _ = try store.setFavorite(note.id, value)
        if Output.stdoutIsTerminal {
            Output.line("\(value ? "★" : "☆") \(TerminalSafeText.sanitize(note.title))")
        }
    }
}

struct Tag: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Show, add or remove a note's tags.",
        discussion: "cloudnotes tag NOTE work ideas    adds tags; --remove TAG removes one; with neither, prints the tags.")

    @OptionGroup var global: GlobalOptions
    @Argument(help: "Id, id prefix or exact title.") var note: String
    @Argument(help: "Tags to add.") var add: [String] = []
    @Option(name: .shortAndLong, help: "A tag to remove (repeatable).") var remove: [String] = []
    @Flag(help: "Print JSON.") var json = false

    func run() throws {
        let store = try Context(global).openStore()
        var note = try store.resolve(self.note)
        if !add.isEmpty || !remove.isEmpty {
            let removing = Set(remove)
            note = try store.update(note.id) { $0.tags = $0.tags.filter { !removing.contains($0) } + add }
        }
        if json { return try Output.json(note.tags) }
        for tag in note.tags { Output.line(Output.display(tag)) }
    }
}

struct Remove: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "rm", abstract: "Move notes to the trash (restore brings them back).")
    @OptionGroup var global: GlobalOptions
    @Argument(help: "Id, id prefix or exact title.") var notes: [String]

    func run() throws {
        let store = try Context(global).openStore()
        for reference in notes {
            let note = try store.resolve(reference)
            _ = try store.trash(note.id)
            if Output.stdoutIsTerminal { Output.line("moved to trash: \(Format.shortID(note.id)) \(TerminalSafeText.sanitize(note.title))") }
        }
    }
}

struct Restore: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Bring notes back from the trash.")
    @OptionGroup var global: GlobalOptions
    @Argument(help: "Id, id prefix or exact title.") var notes: [String]

    func run() throws {
        let store = try Context(global).openStore()
        for reference in notes {
            let note = try store.resolve(reference)
            guard note.isTrashed else { throw CLIError("\(Format.shortID(note.id)) is not in the trash") }
            _ = try store.restore(note.id)
            if Output.stdoutIsTerminal { Output.line("restored: \(Format.shortID(note.id)) \(TerminalSafeText.sanitize(note.title))") }
        }
    }
}

struct Purge: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Delete notes in the trash for good.",
        discussion: "Only notes in the trash can be purged (use rm first, or --force). --empty-trash purges the whole trash.")

    @OptionGroup var global: GlobalOptions
    @Argument(help: "Id, id prefix or exact title.") var notes: [String] = []
    @Flag(help: "Purge every note in the trash.") var emptyTrash = false
    @Flag(help: "Also purge notes that are not in the trash.") var force = false

    func validate() throws {
        if notes.isEmpty && !emptyTrash { throw ValidationError("name the notes to purge, or give --empty-trash") }
    }

    func run() throws {
        let store = try Context(global).openStore()
        var purged = 0
        for reference in notes {
            let note = try store.resolve(reference)
            guard note.isTrashed || force else {
                throw CLIError("\(Format.shortID(note.id)) is not in the trash; move it there with `cloudnotes rm` first, or use --force")
            }
            try store.purge(note.id)
            purged += 1
        }
        if emptyTrash { purged += try store.emptyTrash() }
        if Output.stdoutIsTerminal { Output.line("purged \(purged) note\(purged == 1 ? "" : "s")") }
    }
}
