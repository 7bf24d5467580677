import Foundation
import NotesTestSupport
import Testing

/// A JSON Lines file's lines are read by the strict JSON parser where it gives the note the
/// decoder gives (`ImportedNote.parsed`, D-227), by the decoder otherwise. The oracle: the same
/// lines as one JSON array, which the decoder reads whole, give the same notes, or fail too.
@Suite struct ImportJSONLinesTests {
    /// One random note as a JSON object's text: every key `ImportedNote` reads, each with a value
    /// of the type it wants, null, another type or text that is no date; unknown keys holding
    /// what the strict parser refuses (a float, a key twice); escapes; attachments.
    static func line(_ n: Int, round: Int, _ rng: inout SeededRandom) -> String {
        func pick(_ options: [String]) -> String { options[rng.below(options.count)] }
        // Most lines are notes both read: a line that fails fails its whole file either way.
        let valid = rng.below(6) > 0
        var members = [#""id": "\#(String(format: "00000000-0000-4000-8000-%06d%06d", round, n))""#]
        if !valid, rng.below(4) == 0 { members[0] = #""id": "not a uuid""# }
        // Per key: values both read, then values that fail.
        let keys: [(String, [String], [String])] = [
            ("title", [#""Trip \"é\" \u00e9 \ud83c\udf89""#, "null", #""Plain""#, #""""#], ["5"]),
            (pick(["body", "content"]), [#""line one\nline two\t\u0007""#, #""b""#], ["null", "[1]"]),
            ("tags", [#"["work", "home"]"#, "[]", "null"], [#"["a", 1]"#, #""x""#]),
            (pick(["isFavorite", "favorite", "pinned", "starred"]), ["true", "false", "null"], ["1", #""yes""#]),
            ("notebook", [#""work""#, "null"], ["5", #""Bad Zone!""#]),
            ("notebookName", [#""Work""#, "null"], []),
            (
                pick(["createdAt", "created", "creationDate", "date"]),
                [#""2024-01-15T10:30:00Z""#, #""2024-01-15 10:30""#, "1700000000", "1700000000000", "null", "1.5"],
                [#""nope""#, "99999999999999999"]
            ),
            (
                pick(["modifiedAt", "modified", "updatedAt", "updated", "lastModified"]),
                [#""2024-02-01T08:00:00.250Z""#, "1700000500", "1700000000123", "null"], ["true"]
            ),
            (pick(["deletedAt", "deleted"]), [#""2024-03-01""#, "null"], []),
            ("frontMatter", [#""{\"aliases\":[\"x\"]}""#, "null"], []),
            ("extra", ["2.5", #"{"nested": [1, {"a": null}]}"#, #""\u00e9""#], []),
            ("attachments", ["[]", "null"], []),
        ]
        for (key, good, bad) in keys where rng.below(3) > 0 {
            let values = valid ? good : good + bad
            members.append("\"\(key)\": \(values[rng.below(values.count)])")
        }
        // A note has text: a valid line gives its body (under one of its names) whatever else.
        if valid, !members.contains(where: { $0.hasPrefix("\"body\"") || $0.hasPrefix("\"content\"") }) {
            members.append(#""text": "the text""#)
        }
        if !valid, rng.below(4) == 0 { members.append(#""title": "twice""#) }
        return "{" + members.shuffled(using: &rng).joined(separator: ", ") + "}"
    }

    @Test func randomLinesGiveTheNotesTheirArrayGives() throws {
        let seed = SeededRandom.seed(default: 2270)
        var rng = SeededRandom(seed: seed)
        let cli = try CLIRunner()
        defer { cli.cleanUp() }
        var imported = 0
        for round in 0..<24 {
            let lines = (0..<(1 + rng.below(6))).map { Self.line($0, round: round, &rng) }
            let jsonl = cli.home.appendingPathComponent("r\(round).jsonl")
            let array = cli.home.appendingPathComponent("r\(round).json")
            try Data(lines.joined(separator: "\n").utf8).write(to: jsonl)
            try Data(("[" + lines.joined(separator: ",\n") + "]").utf8).write(to: array)
            // A note without dates takes its file's: the same for both.
            for url in [jsonl, array] {
                try FileManager.default.setAttributes(
                    [.modificationDate: Date(timeIntervalSince1970: 1_700_000_000)], ofItemAtPath: url.path)
            }
            let (left, right) = (cli.device("lines-\(round)"), cli.device("array-\(round)"))
            let fromLines = try cli.cn(at: left, "import", jsonl.path)
            let fromArray = try cli.cn(at: right, "import", array.path)
            let context =
                "seed \(seed), round \(round): \(fromLines.stderr) | \(fromArray.stderr)\n\(lines.joined(separator: "\n"))"
            #expect(fromLines.status == fromArray.status, "\(context)")
            guard fromLines.status == 0, fromArray.status == 0 else { continue }
            imported += 1
            let (a, b) = (
                cli.home.appendingPathComponent("a\(round).json"), cli.home.appendingPathComponent("b\(round).json")
            )
            #expect(try cli.cn(at: left, "export", a.path, "--format", "json").status == 0)
            #expect(try cli.cn(at: right, "export", b.path, "--format", "json").status == 0)
            func notes(_ url: URL) throws -> [NSDictionary] {
                let all = try #require(
                    try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [[String: Any]])
                return all.map { $0.filter { $0.key != "headRev" } as NSDictionary }
                    .sorted { ($0["id"] as? String ?? "") < ($1["id"] as? String ?? "") }
            }
            #expect(try notes(a) == notes(b), "\(context)")
        }
        #expect(imported >= 3, "seed \(seed): only \(imported) rounds imported")
    }
}
