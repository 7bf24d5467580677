import Foundation
import NotesCore
import NotesStore

/// One corpus size: generate, import, reopen and list, search as you type, compare with rg.
struct StoreBenchmark {
    let count: Int
    let work: String
    var importRuns = 3

    var directory: String { "\(work)/\(count)" }
    var storeURL: URL { URL(fileURLWithPath: directory + "/store") }

    /// Queries as a user types them: every prefix is one search.
    static let typed: [(kind: String, text: String)] = [
        ("common word", "the"), ("common word", "meeting"), ("common word", "project"),
        ("rare word", "ångström"), ("rare word", "dvořák"), ("rare word", "jalapeño"),
        ("rare word", "zzyzx"),
        ("two words", "budget review"), ("two words", "kernel latency"),
        ("CJK", "東京"), ("CJK", "会議"),
        ("emoji", "🚀"),
    ]

    /// Generates the corpus if needed and imports it into a new store.
    func runImport() throws {
        try? FileManager.default.removeItem(atPath: directory + "/store")
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let jsonl = try BenchCorpus.jsonLines(count: count, work: work)
        let notes = try loadCorpus(jsonl)
        let bytes = notes.reduce(0) { $0 + $1.body.utf8.count + $1.title.utf8.count }
        print("\n== \(count) notes (\(BenchCorpus.label(count)): \(bytes / 1_000_000) MB of text) ==")
        var walls: [Double] = []
        var lines: [String] = []
        for _ in 0..<importRuns {
            try? FileManager.default.removeItem(atPath: directory + "/store")
            let cpuBefore = Stats.cpuMs()
            let importMs = try Stats.time {
                let store = try NoteStore(directory: storeURL)
                _ = try store.importNotes(notes)
            }
            let cpu = (Stats.cpuMs() - cpuBefore) / 1000
            walls.append(importMs / 1000)
            lines.append(
                "\(Stats.f(importMs / 1000, 2)) s (\(Int(Double(count) / (importMs / 1000)))/s, CPU \(Stats.f(cpu, 1)) s)"
            )
        }
        let size =
            (try? FileManager.default.attributesOfItem(atPath: storeURL.path + "/notes.sqlite")[.size] as? Int) ?? 0
        let median = Stats.median(walls)
        print(
            "import (NoteStore.importNotes), \(importRuns) runs: median \(Stats.f(median, 2)) s wall = \(Int(Double(count) / median)) notes/s; "
                + "runs: \(lines.joined(separator: ", ")); database \(size / 1_000_000) MB (target: 5,000 notes/s)")
    }

    /// Opens the imported store and measures listing and searching (a fresh process).
    func runQueries() throws {
        // Open + first 200 rows of the list (favorites then notes), fresh store each time.
        var openList: [Double] = []
        for _ in 0..<15 {
            openList.append(
                try Stats.time {
                    let store = try NoteStore(directory: storeURL)
                    let favorites = try store.list(ListRequest(section: .favorites, limit: 200))
                    let others = try store.list(ListRequest(section: .others, limit: 200 - favorites.count))
                    precondition(favorites.count + others.count == min(200, count))
                })
        }
        print(
            "open + first 200 list rows: median \(Stats.f(Stats.median(openList), 2)) ms, p99 \(Stats.f(Stats.percentile(openList, 99), 2)) ms (15 opens)"
        )

        // As-you-type search: first 50 ranked results for each prefix.
        let store = try NoteStore(directory: storeURL)
        try measureLookups(store)
        _ = try store.search("warm up")
        var all: [Double] = []
        var byKind: [String: [Double]] = [:]
        var worst: (Double, String) = (0, "")
        for round in 0..<3 {
            for (kind, text) in Self.typed {
                var prefix = ""
                for ch in text {
                    prefix.append(ch)
                    var hits = 0
                    let t = try Stats.time { hits = try store.search(prefix, limit: 50).hits.count }
                    if round > 0 {
                        all.append(t)
                        byKind[kind, default: []].append(t)
                        if t > worst.0 { worst = (t, prefix) }
                    }
                    _ = hits
                }
            }
        }
        print(
            "as-you-type search (first 50 results per keystroke, \(all.count) searches): median \(Stats.f(Stats.median(all), 2)) ms, p99 \(Stats.f(Stats.percentile(all, 99), 2)) ms, max \(Stats.f(worst.0, 1)) ms for \"\(worst.1)\""
        )
        for kind in byKind.keys.sorted() {
            let v = byKind[kind]!
            print(
                "  \(kind.padding(toLength: 12, withPad: " ", startingAt: 0)) median \(Stats.f(Stats.median(v), 2)) ms, p99 \(Stats.f(Stats.percentile(v, 99), 2)) ms"
            )
        }
        try measureViews(store)
        print("peak RSS of this query process (open, list, 450 searches, views): \(Stats.f(Machine.peakRSSMB(), 0)) MB")
        try compareWithRipgrep(dir: directory, store: store)
    }

    /// `show`/`fav`/`edit` name a note by full id or by id prefix (`NoteStore.resolve`): both
    /// must be index lookups (a prefix may be a title too, and titles once cost a scan).
    func measureLookups(_ store: NoteStore) throws {
        let ids = try store.list(ListRequest(section: .all, limit: 200)).map(\.id.lowercasedString)
        var full: [Double] = []
        var prefix: [Double] = []
        for _ in 0..<3 {
            for id in ids {
                full.append(try Stats.time { _ = try store.resolve(id) })
                // Eight hex digits: unique at 100k notes but for a rare collision (then ambiguous).
                prefix.append(Stats.time { _ = try? store.resolve(String(id.prefix(8))) })
            }
        }
        print(
            "lookup by id (resolve, \(full.count) each): full id median \(Stats.f(Stats.median(full), 3)) ms, p99 \(Stats.f(Stats.percentile(full, 99), 3)) ms; 8-digit prefix median \(Stats.f(Stats.median(prefix), 3)) ms, p99 \(Stats.f(Stats.percentile(prefix, 99), 3)) ms"
        )
    }

    struct CorpusNote: Decodable {
        var id: UUID
        var title: String
        var body: String
        var tags: [String]
        var isFavorite: Bool
        var createdAt: String
        var modifiedAt: String
    }

    func loadCorpus(_ path: String) throws -> [Note] {
        let text = try String(contentsOfFile: path, encoding: .utf8)
        let decoder = JSONDecoder()
        return try text.split(separator: "\n").map { line in
            let n = try decoder.decode(CorpusNote.self, from: Data(line.utf8))
            return Note(
                id: n.id, title: n.title, body: n.body, tags: n.tags, isFavorite: n.isFavorite,
                createdAt: ISODate.parse(n.createdAt)!, modifiedAt: ISODate.parse(n.modifiedAt)!)
        }
    }

    /// ripgrep over the same notes as Markdown files: what a user would otherwise run (grep -r
    /// where rg is not installed). Beside the first 50 results, every match as ids
    /// (`search --ids`), as `-l` lists every file, and every match as hits with their snippets
    /// (what `search --limit N` prints from, without the printing).
    func compareWithRipgrep(dir: String, store: NoteStore) throws {
        let peer: (name: String, path: String, flags: [String])
        if let rg = Machine.which("rg") {
            peer = ("rg -i -l", rg, ["-i", "-l", "-F"])
        } else if let grep = Machine.which("grep") {
            peer = ("grep -r -i -l (rg is not installed)", grep, ["-r", "-i", "-l", "-F"])
        } else {
            print("rg, grep: not installed, no side-by-side")
            return
        }
        let md = try BenchCorpus.markdown(count: count, work: work)
        for query in ["meeting", "project", "ångström", "東京", "zzyzx"] {
            var peerTimes: [Double] = []
            var ourTimes: [Double] = []
            var allTimes: [Double] = []
            var hitTimes: [Double] = []
            var matches = 0
            var hits = 0
            for _ in 0..<5 {
                var status: Int32 = 0
                peerTimes.append(try Stats.time { status = try Machine.run(peer.path, peer.flags + [query, md]) })
                // 0: matches, 1: none; anything else is an error, not a time worth printing.
                guard status <= 1 else { throw CocoaError(.executableLoad) }
                ourTimes.append(try Stats.time { _ = try store.search(query, limit: 50) })
                allTimes.append(
                    try Stats.time {
                        matches = 0
                        try store.searchEachID(SearchQuery(parsing: query), limit: Int.max / 2) { matches += $0.count }
                    })
                hitTimes.append(
                    try Stats.time {
                        hits = 0
                        try store.searchEach(SearchQuery(parsing: query), limit: Int.max / 2) { hits += $0.count }
                    })
            }
            let peerMedian = Stats.median(peerTimes)
            let ours = Stats.median(ourTimes)
            print(
                "side by side \"\(query)\": \(peer.name) over \(count) .md files median \(Stats.f(peerMedian, 1)) ms; cloudnotes search (first 50) median \(Stats.f(ours, 2)) ms, ratio \(Stats.f(peerMedian / max(ours, 0.001), 0))x; every match as ids (\(matches)) median \(Stats.f(Stats.median(allTimes), 1)) ms, ratio \(Stats.f(peerMedian / max(Stats.median(allTimes), 0.001), 2))x; every match as hits with snippets (\(hits)) median \(Stats.f(Stats.median(hitTimes), 1)) ms, ratio \(Stats.f(peerMedian / max(Stats.median(hitTimes), 0.001), 2))x"
            )
        }
    }
}
