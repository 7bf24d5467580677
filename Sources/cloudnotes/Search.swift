import ArgumentParser
import Foundation
import NotesCore
import NotesStore

struct Search: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "search",
        abstract: "Search notes.",
        discussion: """
            Case- and diacritic-insensitive substring search over titles, bodies and tags; all terms must match.
            Ranked: notes with every term in the title first, then some, then the rest; newest first within each \
            (words inside OR or a group do not rank).

            Words and operators (each can be negated with a leading -):
              budget "road map"          words and exact phrases; -draft excludes
              tag:work                   a tag, whole
              is:fav                     favorites
              in:work  in:"Work stuff"   a notebook, by id or by name in any case
              title:plan                 a word in the title
              has:todo                   an open task (- [ ]); has:attachment; has:conflict
              created:2025-01-03         created that day (2025-01: the month; 2025: year)
              modified:>2025-01          after January; also >=, < (before it) and <=
              created:2025-01..2025-03   January through March (an end may be left out)
              modified:<7d               in the last 7 days (>7d: before); h d w m(onths) y
              created:today              today; also yesterday
              a b OR c                   OR between terms; AND binds tighter: (a b) OR c
              tag:work (budget OR plan)  groups in parentheses; -(a OR b) excludes both
              sort:created               newest created first; sort:modified; sort:title
            Dates are read in the local time zone (TZ); relative ones count from now.
            A word that looks like an operator but is not one (crated:2024) is searched as words and a \
            one-line hint naming the nearest operator goes to stderr; the search still runs (exit 0). \
            A notebook that does not exist is an error (exit 1).
            """)

    @OptionGroup var global: GlobalOptions
    // Unrecognized options are query words: `-draft` excludes, it is not a flag.
    @Argument(parsing: .allUnrecognized, help: "The query.") var query: [String]
    @Option(help: "At most this many results.") var limit: Int = 50
    @Flag(help: "Print JSON.") var json = false
    @Flag(help: "Print only the ids of the matching notes, one per line, in the same order (as `rg -l` lists files).")
    var ids = false

    func validate() throws {
        if query.isEmpty { throw ValidationError("give a query") }
        if ids && json { throw ValidationError("--ids and --json cannot be combined") }
        // A mistyped option must not turn silently into a search word.
        if let option = query.first(where: { $0.hasPrefix("--") }) {
            throw ValidationError("unknown option '\(option)'")
        }
    }

    func run() throws {
        try Self.run(Self.queryText(query), store: Context(global).openStore(.read), limit: limit, json: json, ids: ids)
    }

    /// Searches `text` and prints the hits (`view NAME` runs a saved query through this too).
    static func run(_ text: String, store: NoteStore, limit: Int, json: Bool, ids: Bool = false) throws {
        let parsed = SearchQuery(parsing: text)
        for hint in parsed.hints { Output.error("cloudnotes: hint: " + TerminalSafeText.sanitize(hint.line)) }
        if ids {
            // Ids only: no row or snippet is built; an id is plain ASCII, safe on any terminal.
            try store.searchEachID(parsed, limit: max(1, limit)) { ids in
                Output.raw(ids.map { $0 + "\n" }.joined())
            }
            return
        }
        // Hits are printed as the index yields them, a chunk at a time (issue 27).
        if json {
            var array = JSONArrayStream { data in
                Output.raw(
                    Output.stdoutIsTerminal
                        ? Output.terminalSafeJSON(String(decoding: data, as: UTF8.self))
                        : String(decoding: data, as: UTF8.self))
            }
            try store.searchEach(parsed, limit: max(1, limit)) { hits in
                for hit in hits {
                    let note = NoteJSON(hit.note)
                    // Written as `Hit` encodes (D-238); `JSONEncoder` was two fifths of printing.
                    if try !array.append(writing: { Self.write(hit, note, to: &$0) }) {
                        try array.append(
                            Hit(
                                note: note, tier: hit.tier, snippet: hit.snippet,
                                titleMatches: hit.titleMatches.map { [$0.lowerBound, $0.upperBound] },
                                snippetMatches: hit.snippetMatches.map { [$0.lowerBound, $0.upperBound] }))
                    }
                }
            }
            try array.finish()
            Output.raw("\n")
            return
        }
        var printed = 0
        // Without colour nothing is highlighted: the titles' matches are not looked for.
        // Rows show no preview: only a hit without a snippet of its body has it made.
        try store.searchEach(parsed, limit: max(1, limit), highlightingTitles: Output.useColor, previews: false) {
            hits in
            var text = ""
            for hit in hits {
                Format.appendRow(hit.note, highlights: hit.titleMatches, to: &text)
                text += "\n"
                if !hit.snippet.isEmpty {
                    let safe = TerminalSafeText.sanitize(hit.snippet)
                    text += "            "
                    text += Format.highlight(safe, safe == hit.snippet ? hit.snippetMatches : [])
                    text += "\n"
                }
            }
            printed += hits.count
            Output.raw(text)
        }
        if printed == 0, Output.stdoutIsTerminal { Output.line("No notes match.") }
    }

    /// What `Hit`'s encoding writes (pretty, sorted keys); false when the note's encoding is
    /// left to the encoder (the stream then takes back what was written).
    private static func write(_ hit: SearchHit, _ note: NoteJSON, to json: inout PrettyJSONWriter) -> Bool {
        func ranges(_ list: [Range<Int>]) {
            json.openArray()
            for range in list {
                json.element()
                json.openArray()
                json.element()
                json.int(range.lowerBound)
                json.element()
                json.int(range.upperBound)
                json.closeArray()
            }
            json.closeArray()
        }
        json.openObject()
        json.key("note")
        guard note.write(to: &json) else { return false }
        json.key("snippet")
        json.string(hit.snippet)
        json.key("snippetMatches")
        ranges(hit.snippetMatches)
        json.key("tier")
        json.int(hit.tier)
        json.key("titleMatches")
        ranges(hit.titleMatches)
        json.closeObject()
        return true
    }

    /// One hit as `--json` prints it.
    private struct Hit: Encodable {
        var note: NoteJSON
        var tier: Int
        var snippet: String
        var titleMatches: [[Int]]
        var snippetMatches: [[Int]]
    }

    /// The query the arguments make: joined by spaces, with the value of an `in:"Work stuff"`
    /// the shell unquoted quoted again, so it stays one value.
    static func queryText(_ arguments: [String]) -> String {
        arguments.map { argument in
            guard let colon = argument.firstIndex(of: ":"), argument.contains(where: \.isWhitespace),
                !argument.contains("\""), argument[..<colon].drop(while: { $0 == "-" }).allSatisfy(\.isLetter)
            else { return argument }
            return argument[...colon] + "\"" + argument[argument.index(after: colon)...] + "\""
        }.joined(separator: " ")
    }
}
