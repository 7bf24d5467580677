import Foundation
import NotesCore
import NotesStore

/// Saved views (issue 25): queries with dates, OR and groups, beside plain word searches, first
/// 50 results each, as a view shows them.
extension StoreBenchmark {
    /// Views as a user saves them, and plain searches to compare with. The corpus's dates are
    /// in 2023-2025 (`Corpus`), so these dates select a part of it.
    static let views: [(kind: String, text: String)] = [
        ("plain", "meeting"), ("plain", "budget review"), ("plain", "kernel"),
        ("one filter", "tag:work"), ("one filter", "modified:2024"),
        ("dates + OR", "(budget OR roadmap) modified:2024-01..2024-06"),
        ("dates + OR", "tag:work (meeting OR review) created:>2024-06"),
        ("dates + OR", "created:2025-01 OR modified:2023-03"),
        ("dates + OR", "(kernel OR latency) -tag:home modified:2024"),
        ("sorted", "tag:work modified:2024 sort:modified"),
    ]

    /// Median and p99 per kind over 20 runs of each query (after one to warm up).
    func measureViews(_ store: NoteStore) throws {
        var byKind: [String: [Double]] = [:]
        var lines: [String] = []
        for (kind, text) in Self.views {
            var hits = 0
            _ = try store.search(text, limit: 50)
            var times: [Double] = []
            for _ in 0..<20 {
                times.append(try Stats.time { hits = try store.search(text, limit: 50).hits.count })
            }
            byKind[kind, default: []] += times
            lines.append(
                "    \(text.debugDescription): \(hits) hits, median \(Stats.f(Stats.median(times), 2)) ms, p99 \(Stats.f(Stats.percentile(times, 99), 2)) ms"
            )
        }
        print("saved views (first 50 results, 20 runs each):")
        for kind in ["plain", "one filter", "dates + OR", "sorted"] {
            let v = byKind[kind] ?? []
            print(
                "  \(kind.padding(toLength: 12, withPad: " ", startingAt: 0)) median \(Stats.f(Stats.median(v), 2)) ms, p99 \(Stats.f(Stats.percentile(v, 99), 2)) ms"
            )
        }
        for line in lines { print(line) }
    }
}
