import ArgumentParser
import Foundation
import NotesCore
import NotesStore

struct List: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
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
        let store = try Context(global).openStore(.read)
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
        if json { try Output.json(all.map(NoteJSON.init)) }
        if remaining == 0 {
            // Stopped at the limit: say how many were left out (on stderr when stdout is data).
            let total = try sections.reduce(0) { $0 + (try store.count($1.1)) }
            if total > all.count {
                let notice = "… and \(Format.grouped(total - all.count)) more: --limit \(total) shows them all"
                if json || !Output.stdoutIsTerminal { Output.info(notice) } else { Output.line(notice) }
            }
        }
        if !json && all.isEmpty && Output.stdoutIsTerminal {
            Output.line(
                trash ? "The trash is empty." : "No notes yet. Add one with: cloudnotes add \"Title\" --body \"text\"")
        }
    }
}

extension ListSort: ExpressibleByArgument {}
