import Foundation
import NotesTestSupport
import Testing

/// Markdown export, then import into a fresh device: the same notes come back (ids, titles and
/// bodies byte for byte, tags, favorites, notebooks, dates, the trash, kept front matter keys),
/// for random notes whose titles collide, hold path separators, dots, line breaks and several
/// scripts, in notebooks whose names are not file names. Replay with CLOUDNOTES_SEED.
@Suite struct ExportRoundTripTests {
    static let alphabet = Array("ab /\\.:?*\"<>|#-\n\r\té日Жλ🎉\u{301}\u{2028}\u{85}\u{FEFF}".unicodeScalars)

    static let nameAlphabet = Array("aB /\\.:?*\"<>|#-é日Жλ🎉\u{301}".unicodeScalars)

    static func randomNotes(_ rng: inout SeededRandom, count: Int) -> [[String: Any]] {
        let sharedTitles = ["Meeting", "meeting", ".hidden", "a/b", "", "..."]
        return (0..<count).map { index in
            var bytes = (0..<16).map { _ in UInt8.random(in: 0...255, using: &rng) }
            bytes[6] = bytes[6] & 0x0F | 0x40
            bytes[8] = bytes[8] & 0x3F | 0x80
            let hex = bytes.map { String(format: "%02x", $0) }.joined()
            let id = [
                hex.prefix(8), hex.dropFirst(8).prefix(4), hex.dropFirst(12).prefix(4), hex.dropFirst(16).prefix(4),
                hex.dropFirst(20),
            ].map(String.init).joined(separator: "-")
            let title =
                Bool.random(using: &rng)
                ? sharedTitles.randomElement(using: &rng)!
                : rng.string(from: alphabet, count: Int.random(in: 0...14, using: &rng))
            let created = Int64.random(in: 0...4_102_444_800_000, using: &rng)
            func iso(_ ms: Int64) -> String {
                let date = Date(timeIntervalSince1970: TimeInterval(ms / 1000))
                let f = ISO8601DateFormatter()
                return String(f.string(from: date).dropLast()) + String(format: ".%03dZ", Int(ms % 1000))
            }
            var note = CLIRunner.fixture(
                id: id, title: title,
                body: rng.string(from: alphabet, count: Int.random(in: 0...60, using: &rng)) + "\n\(index)",
                tags: (0..<Int.random(in: 0...3, using: &rng)).map { _ in rng.string(from: alphabet, count: 4) },
                isFavorite: Bool.random(using: &rng),
                notebook: ["notes", "work", "a-b-c"].randomElement(using: &rng)!, createdAt: iso(created),
                modifiedAt: iso(created + Int64.random(in: 0...1_000_000, using: &rng)),
                deletedAt: rng.below(5) == 0 ? iso(created + 2_000_000) : nil)
            if rng.below(3) == 0 {
                note["frontMatter"] = #"{"aliases":["x \#(index)"],"rating":\#(rng.below(5)),"src":"ü\n"}"#
            }
            return note
        }
    }

    /// Every note of `export --format json --include-trash`, by id, as canonical bytes.
    func exported(_ cli: CLIRunner, _ directory: URL, _ name: String) throws -> [String: Data] {
        let file = cli.home.appendingPathComponent(name + ".json")
        let result = try cli.cn(at: directory, "export", file.path, "--format", "json", "--include-trash")
        try #require(result.status == 0, "\(result.stderr)")
        let notes = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: file)) as? [[String: Any]])
        var out: [String: Data] = [:]
        for var note in notes {
            for key in ["syncState", "headRev", "snippet"] { note[key] = nil }
            out[note["id"] as? String ?? ""] = try JSONSerialization.data(withJSONObject: note, options: [.sortedKeys])
        }
        return out
    }

    @Test func exportThenImportIntoAFreshDeviceGivesTheSameNotes() throws {
        let seed = SeededRandom.seed(default: 1515)
        var rng = SeededRandom(seed: seed)
        let cli = try CLIRunner()
        defer { cli.cleanUp() }
        let notes = Self.randomNotes(&rng, count: 80)
        try cli.seed(notes)
        // Notebook names that are not file names (separators, dots, a name shared once folded).
        for zone in ["work", "a-b-c"] where rng.below(4) != 0 {
            let name = rng.string(from: Self.nameAlphabet, count: Int.random(in: 1...10, using: &rng))
            _ = try cli.cn("notebook", "rename", zone, name)
        }
        let notebooks = try cli.cn("notebooks", "--json").stdout
        let original = try exported(cli, cli.dataDirectory, "a")
        #expect(original.count == notes.count, "seed \(seed)")
        let folder = cli.home.appendingPathComponent("md")
        let export = try cli.cn("export", folder.path, "--include-trash")
        #expect(export.status == 0, "seed \(seed): \(export.stderr)")
        let files = try FileManager.default.subpathsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".md") }
        #expect(files.count == notes.count, "seed \(seed): one file per note")
        #expect(files.allSatisfy { !$0.split(separator: "/").last!.hasPrefix(".") }, "seed \(seed): \(files)")
        // Stable names: a second export writes the same files.
        let again = cli.home.appendingPathComponent("md2")
        #expect(try cli.cn("export", again.path, "--include-trash").status == 0)
        #expect(
            Set(try FileManager.default.subpathsOfDirectory(atPath: again.path))
                == Set(
                    try FileManager.default.subpathsOfDirectory(atPath: folder.path)), "seed \(seed)")
        let fresh = cli.device("fresh")
        let imported = try cli.cn(at: fresh, "import", folder.path)
        #expect(imported.status == 0, "seed \(seed): \(imported.stderr)")
        let back = try exported(cli, fresh, "b")
        #expect(try cli.cn(at: fresh, "notebooks", "--json").stdout == notebooks, "seed \(seed): notebooks")
        #expect(Set(back.keys) == Set(original.keys), "seed \(seed)")
        for (id, bytes) in original where back[id] != bytes {
            Issue.record(
                "seed \(seed): \(id) differs:\n\(String(decoding: bytes, as: UTF8.self))\n\(String(decoding: back[id] ?? Data(), as: UTF8.self))"
            )
        }
    }
}
