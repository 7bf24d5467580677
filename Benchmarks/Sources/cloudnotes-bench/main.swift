import Foundation
import NotesCore
import NotesStore

// Store benchmarks (issue: foundation): import throughput, open + first 200 list rows,
// as-you-type search latency, peak RSS, and ripgrep over the same notes as Markdown files.
// Usage: cloudnotes-bench [--count N]... [--work DIR] [--corpus PY] [--reuse]
// --reuse keeps a store imported by an earlier run (for profiling search).

var counts: [Int] = []
var work = "/tmp/cloudnotes-bench"
nonisolated(unsafe) var reuseStore = false
nonisolated(unsafe) var importOnly = false
var corpusScript = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .appendingPathComponent("../../../../shared/bench/corpus.py").standardized.path
var args = CommandLine.arguments.dropFirst()
while let arg = args.popFirst() {
    switch arg {
    case "--count": counts.append(Int(args.popFirst() ?? "") ?? 10000)
    case "--work": work = args.popFirst() ?? work
    case "--reuse": reuseStore = true
    case "--import-only": importOnly = true
    case "--corpus": corpusScript = args.popFirst() ?? corpusScript
    default:
        FileHandle.standardError.write(Data("unknown argument \(arg)\n".utf8))
        exit(1)
    }
}
if counts.isEmpty { counts = [10_000, 100_000] }

Machine.printHeader()
for count in counts {
    try StoreBenchmark(count: count, work: work, corpusScript: corpusScript, reuse: reuseStore, importOnly: importOnly).run()
}
