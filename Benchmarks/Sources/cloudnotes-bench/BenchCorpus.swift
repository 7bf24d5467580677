import Foundation
import NotesTestSupport

/// The notes every benchmark imports: the project's seeded corpus (`NotesTestSupport.Corpus`,
/// seed 1), written once per size under the work folder and reused by later runs.
enum BenchCorpus {
    static let seed: UInt64 = 1

    /// How the output names the corpus.
    static func label(_ count: Int) -> String { "Corpus count \(count), seed \(seed)" }

    /// The path of the corpus's JSON Lines for `count` notes, written if absent.
    static func jsonLines(count: Int, work: String) throws -> String {
        let path = "\(work)/\(count)/corpus-seed\(seed).jsonl"
        try writeOnce(path) { try Corpus.writeJSONLines(count: count, seed: seed, to: $0) }
        return path
    }

    /// The folder of the corpus as Markdown files (one per note) for `count` notes, written if absent.
    static func markdown(count: Int, work: String) throws -> String {
        let path = "\(work)/\(count)/corpus-seed\(seed)-markdown"
        try writeOnce(path) { try Corpus.writeMarkdown(count: count, seed: seed, into: $0) }
        return path
    }

    /// Writes under a temporary name and renames, so an interrupted run never leaves half a corpus.
    private static func writeOnce(_ path: String, _ write: (URL) throws -> Void) throws {
        guard !FileManager.default.fileExists(atPath: path) else { return }
        let target = URL(fileURLWithPath: path)
        try FileManager.default.createDirectory(
            at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
        let partial = URL(fileURLWithPath: path + ".partial")
        try? FileManager.default.removeItem(at: partial)
        try write(partial)
        try FileManager.default.moveItem(at: partial, to: target)
    }
}
