import Foundation
import NotesCore
import NotesStore

/// Organising at scale (issue 15): backlinks of a note linked from 1,000 notes, `tags` and
/// `notebooks` with counts, over the corpus spread across 25 notebooks.
/// Usage: cloudnotes-bench --organise [--count N]...
struct OrganiseBenchmark {
    let count: Int
    let work: String
    static let linkers = 1000

    func run() throws {
        let corpus = StoreBenchmark(count: count, work: work, importRuns: 1)
        let directory = "\(work)/\(count)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let jsonl = try BenchCorpus.jsonLines(count: count, work: work)
        var notes = try corpus.loadCorpus(jsonl)
        for index in notes.indices { notes[index].zone = "notebook-\(index % 25)" }
        let when = Date(timeIntervalSince1970: 1_700_000_000)
        let target = Note(title: "Organise Target", body: "the hub", createdAt: when)
        notes.append(target)
        for index in 0..<Self.linkers {
            notes.append(
                Note(
                    zone: "notebook-\(index % 25)", title: "Linker \(index)",
                    body: "about the hub: [[Organise Target#Plan|hub]] and [[Linker \(index + 1)]]\n", createdAt: when))
        }
        let storeURL = URL(fileURLWithPath: "\(directory)/organise-store")
        try? FileManager.default.removeItem(at: storeURL)
        print(
            "\n== organise: \(notes.count) notes (\(BenchCorpus.label(count)) + 1 hub + \(Self.linkers) notes linking to it), 25 notebooks =="
        )
        let importMs = try Stats.time { _ = try NoteStore(directory: storeURL).importNotes(notes) }
        print("import with the link index: \(Stats.f(importMs / 1000, 2)) s")
        let store = try NoteStore(directory: storeURL)
        func measure(_ name: String, runs: Int = 21, _ body: () throws -> Int) rethrows {
            var times: [Double] = []
            var result = 0
            let first = try Stats.time { result = try body() }
            for _ in 0..<runs { times.append(try Stats.time { result = try body() }) }
            print(
                "\(name): median \(Stats.f(Stats.median(times), 2)) ms, p90 \(Stats.f(Stats.percentile(times, 90), 2)) ms, "
                    + "first \(Stats.f(first, 2)) ms (\(runs) runs; \(result) rows)")
        }
        try measure("backlinks of a note linked from \(Self.linkers) notes (target: under 20 ms)") {
            try store.backlinks(of: target.id).count
        }
        try measure("links of one note") { try store.links(of: notes[notes.count - 1].id).count }
        try measure("tags with counts") { try store.tagCounts().count }
        try measure("tags with counts, #hashtags in bodies too", runs: 5) {
            try store.tagCounts(bodyHashtags: true).count
        }
        try measure("notebooks with counts") { try store.notebooks().count }
    }
}
