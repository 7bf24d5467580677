import ArgumentParser
import Foundation
import NotesCore
import NotesStore

/// A linked note as `links --json` and `backlinks --json` print it.
struct LinkedNoteJSON: Encodable {
    var id: String
    var title: String
    var notebook: String

    init(_ note: NoteSummary) {
        id = note.idString
        title = note.title
        notebook = note.zone
    }

    init(_ note: LinkedNote) {
        id = note.idString
        title = note.title
        notebook = note.zone
    }
}

/// `links NOTE [--json]`: the links of a note's body and where each leads.
struct Links: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "links",
        abstract:
            "List a note's links ([[Title]], [[Title#heading|shown]], [text](Other%20Note.md)) and where they lead.")
    @OptionGroup var global: GlobalOptions
    @Argument(help: "Id, id prefix or exact title.") var note: String
    @Flag(help: "Print JSON.") var json = false

    struct Row: Encodable {
        var kind: String
        var target: String
        var heading: String?
        var shown: String?
        var note: LinkedNoteJSON?
    }

    func run() throws {
        let store = try Context(global).openStore(.read)
        let links = try store.links(of: store.resolve(note).id)
        if json {
            return try Output.json(
                links.map {
                    Row(
                        kind: $0.kind.rawValue, target: $0.target, heading: $0.heading, shown: $0.shown,
                        note: $0.note.map { LinkedNoteJSON($0) })
                })
        }
        for link in links {
            let heading = link.heading.map { "#" + $0 } ?? ""
            let destination =
                link.note.map { "\(Format.shortID($0.id))  \(Output.display($0.title))" } ?? "(no such note)"
            Output.line("\(Output.display(link.target + heading))  →  \(destination)")
        }
    }
}

/// `backlinks NOTE [--json]`: the notes whose links lead to this one.
struct Backlinks: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "backlinks", abstract: "List the notes that link to a note.")
    @OptionGroup var global: GlobalOptions
    @Argument(help: "Id, id prefix or exact title.") var note: String
    @Flag(help: "Print JSON.") var json = false

    func run() throws {
        let store = try Context(global).openStore(.read)
        let notes = try store.backlinks(of: store.resolve(note).id)
        if json { return try Output.json(notes.map { LinkedNoteJSON($0) }) }
        for note in notes { Output.line("\(Format.shortID(note.id))  \(Output.display(note.title))") }
    }
}

/// `rename NOTE TITLE [--update-links | --keep-links]`: with neither, a terminal is asked
/// whether to rewrite the links that lead to the note; a script keeps them as they are.
struct Rename: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rename",
        abstract: "Retitle a note, and offer to rewrite the links that lead to it (each linking note an edit).")
    @OptionGroup var global: GlobalOptions
    @Argument(help: "Id, id prefix or exact title.") var note: String
    @Argument(help: "The new title.") var title: String
    @Flag(help: "Rewrite [[links]] and Markdown links to the note to its new title.") var updateLinks = false
    @Flag(help: "Leave links to the old title as they are, without asking.") var keepLinks = false

    func validate() throws {
        if updateLinks && keepLinks { throw ValidationError("--update-links and --keep-links exclude each other") }
        if title.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty {
            throw ValidationError("a title needs at least one character")
        }
    }

    func run() throws {
        let store = try Context(global).openStore()
        let current = try store.resolve(note)
        let linking = try store.backlinks(of: current.id).count
        var update = updateLinks
        if linking > 0, !updateLinks, !keepLinks, Output.stdinIsTerminal, Output.stdoutIsTerminal {
            Output.raw("\(linking) note(s) link to \"\(Output.display(current.title))\". Update their links? [y/N] ")
            update = (readLine() ?? "").trimmingCharacters(in: .whitespaces).lowercased().hasPrefix("y")
        }
        let (renamed, changed) = try store.rename(current.id, to: title, updateLinks: update)
        Output.line("renamed to \(Output.display(renamed.title))")
        if update {
            Output.line("updated links in \(changed) note(s)")
        } else if linking > 0 {
            Output.line("\(linking) note(s) still link to the old title (--update-links rewrites them)")
        }
    }
}
