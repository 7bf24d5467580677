import ArgumentParser
import Foundation
import NotesCore
import NotesStore

struct Search: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Search notes.",
        discussion: """
            Case- and diacritic-insensitive substring search over titles, bodies and tags; all terms must match.
            Syntax: words, "exact phrase", -exclude, tag:work, -tag:work, is:fav, -is:fav, has:todo (an open - [ ] task), -has:todo, in:notebook, -in:notebook.
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
        if let option = query.first(where: { $0.hasPrefix("--") }) {
            throw ValidationError("unknown option '\(option)'")
        }
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
            return try Output.json(
                page.hits.map {
                    Hit(
                        note: NoteJSON($0.note), tier: $0.tier, snippet: $0.snippet,
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
