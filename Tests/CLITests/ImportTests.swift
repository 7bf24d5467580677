import Foundation
import NotesTestSupport
import Testing

@Suite struct ImportTests {
    /// Writes the project's corpus (200 notes, seed 1) into the runner's home: JSON Lines for
    /// `--jsonl`, a folder of Markdown files for `--markdown`.
    func corpus(_ cli: CLIRunner, _ flag: String, _ name: String) throws -> URL {
        let target = cli.home.appendingPathComponent(name)
        if flag == "--jsonl" {
            try Corpus.writeJSONLines(count: 200, seed: 1, to: target)
        } else {
            try Corpus.writeMarkdown(count: 200, seed: 1, into: target)
        }
        return target
    }

    @Test(arguments: ["--jsonl", "--markdown"])
    func theBenchmarkCorpusImportsAsTwoHundredNotes(flag: String) throws {
        let cli = try CLIRunner()
        defer { cli.cleanUp() }
        let source = try corpus(cli, flag, flag == "--jsonl" ? "corpus.jsonl" : "corpus")
        let result = try cli.cn("import", source.path)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("imported 200 notes (200 new, 0 updated, 0 unchanged); skipped 0 files"))
        let all = try cli.ids()
        #expect(all.count == 200)
        #expect(Set(all).count == 200)
        let again = try cli.cn("import", source.path)
        #expect(again.status == 0)
        #expect(again.stderr.contains("(0 new, 0 updated, 200 unchanged)"), "importing twice changes nothing")
    }

    @Test func jsonlAndMarkdownOfTheSameCorpusGiveTheSameNotes() throws {
        let cli = try CLIRunner()
        defer { cli.cleanUp() }
        let jsonl = try corpus(cli, "--jsonl", "corpus.jsonl")
        let markdown = try corpus(cli, "--markdown", "corpus")
        let fromMarkdown = cli.device("from-markdown")
        #expect(try cli.cn("import", jsonl.path).status == 0)
        #expect(try cli.cn(at: fromMarkdown, "import", markdown.path).status == 0)
        let a = cli.home.appendingPathComponent("a.json")
        let b = cli.home.appendingPathComponent("b.json")
        #expect(try cli.cn("export", a.path, "--format", "json").status == 0)
        #expect(try cli.cn(at: fromMarkdown, "export", b.path, "--format", "json").status == 0)
        func notes(_ url: URL) throws -> [String: NSDictionary] {
            let all = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [[String: Any]])
            return Dictionary(
                uniqueKeysWithValues: all.map {
                    ($0["id"] as? String ?? "", $0.filter { $0.key != "headRev" } as NSDictionary)
                })
        }
        let left = try notes(a)
        let right = try notes(b)
        #expect(left.count == 200)
        for (id, note) in left where right[id] != note {
            Issue.record("\(id) differs:\n\(note)\n\(right[id] ?? [:])")
        }
    }

    @Test func aBrokenFileIsReportedAndSkippedAndTheRestImported() throws {
        let cli = try CLIRunner()
        defer { cli.cleanUp() }
        let folder = cli.home.appendingPathComponent("in")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try Data(
            "---\nid: 11111111-0000-4000-8000-000000000001\ntitle: \"Good\"\ntags: [\"a\"]\n---\n# Good\n\ngood body\n"
                .utf8
        )
        .write(to: folder.appendingPathComponent("good.md"))
        try Data("---\nid: 22222222-0000-4000-8000-000000000002\ntitle: \"Broken\"\nfavorite: maybe\n---\nbody\n".utf8)
            .write(to: folder.appendingPathComponent("broken.md"))
        try Data("---\ntitle: \"No end\"\nbody without a closing line\n".utf8).write(
            to: folder.appendingPathComponent("unclosed.md"))
        try Data("# Plain\n\nno front matter at all\n".utf8).write(to: folder.appendingPathComponent("plain.md"))
        try Data("ignored".utf8).write(to: folder.appendingPathComponent("picture.png"))
        let result = try cli.cn("import", folder.path)
        #expect(result.status == 1, "a skipped file makes the import exit 1")
        let lines = result.stderrLines
        #expect(lines.count == 3, "\(result.stderr)")
        #expect(lines.contains { $0.contains("broken.md") && $0.contains("line 4") && $0.contains("favorite") })
        #expect(lines.contains { $0.contains("unclosed.md") })
        #expect(
            lines.last
                == "imported 2 notes (2 new, 0 updated, 0 unchanged); skipped 2 files; ignored 1 file of another type")
        let good = try cli.note("11111111")
        #expect(good["title"] as? String == "Good")
        #expect(good["body"] as? String == "good body")
        #expect(good["tags"] as? [String] == ["a"])
        #expect(try cli.note("Plain")["body"] as? String == "no front matter at all")
        #expect(try cli.ids().count == 2)
    }

    @Test func aNoteWithAnInvalidNotebookSkipsItsFileNotTheWholeImport() throws {
        let cli = try CLIRunner()
        defer { cli.cleanUp() }
        let folder = cli.home.appendingPathComponent("in")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try Data("---\nid: 11111111-0000-4000-8000-000000000001\ntitle: \"Fine\"\n---\nok\n".utf8)
            .write(to: folder.appendingPathComponent("a.md"))
        try Data("---\nid: 22222222-0000-4000-8000-000000000002\ntitle: \"Bad\"\nnotebook: My Notes\n---\nx\n".utf8)
            .write(to: folder.appendingPathComponent("b.md"))
        let result = try cli.cn("import", folder.path)
        #expect(result.status == 1)
        #expect(result.stderr.contains("b.md"))
        #expect(result.stderr.contains("notebook"))
        #expect(try cli.ids() == ["11111111-0000-4000-8000-000000000001"])
    }

    /// A JSON Lines file is decoded on all cores: a large one written on Windows (CRLF, blank
    /// lines) imports whole, with its ids made in line order, and a bad line far into it is
    /// reported by its number and skips the file.
    @Test func aLargeJSONLinesFileWithCRLFImportsAndABadLineIsNamedByNumber() throws {
        let cli = try CLIRunner()
        defer { cli.cleanUp() }
        let count = 3000
        func line(_ index: Int) -> String {
            #"{"title":"Note \#(index)","body":"body \#(index)","createdAt":"2025-01-01T00:00:00Z"}"#
        }
        let good = cli.home.appendingPathComponent("windows.jsonl")
        try ((1...count).map(line).joined(separator: "\r\n\r\n") + "\r\n").write(
            to: good, atomically: true, encoding: .utf8)
        let result = try cli.cn("import", good.path)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("imported \(count) notes (\(count) new"), "\(result.stderr)")
        let again = try cli.cn("import", good.path)
        #expect(again.stderr.contains("(0 new, 0 updated, \(count) unchanged)"), "\(again.stderr)")

        var lines = (1...count).map(line)
        lines[2499] = #"{"title":"Broken","body":"b","createdAt":"not a date"}"#
        let bad = cli.home.appendingPathComponent("bad.jsonl")
        try lines.joined(separator: "\n").write(to: bad, atomically: true, encoding: .utf8)
        let refused = try cli.cn("import", bad.path)
        #expect(refused.status == 1)
        #expect(
            refused.stderrLines.contains {
                $0.contains("bad.jsonl") && $0.contains("line 2500: \"createdAt\" is not a date")
            },
            "\(refused.stderr)")
        #expect(try cli.ids().count == count, "nothing of the bad file is imported")
    }

    /// A JSON Lines file is read a few MB at a time (issue 27): one of more than one read
    /// imports whole, notes without an id (two of them equal) get the ids a second import finds
    /// again, a bad line past the first read is named by its number and skips the file, and the
    /// import's scratch file is gone from the data directory afterwards.
    @Test func aJSONLinesFileOfMoreThanOneReadImportsAndLeavesNoScratchFile() throws {
        let cli = try CLIRunner()
        defer { cli.cleanUp() }
        let count = 3100
        let padding = String(repeating: "word ", count: 280)
        var lines = (1...count).map { index in
            #"{"title":"Note \#(index % 3000)","body":"\#(padding)\#(index % 3000)","createdAt":"2025-01-01T00:00:00Z"}"#
        }
        let file = cli.home.appendingPathComponent("large.jsonl")
        try (lines.joined(separator: "\n") + "\n").write(to: file, atomically: true, encoding: .utf8)
        #expect(try FileManager.default.attributesOfItem(atPath: file.path)[.size] as? Int ?? 0 > 4 << 20)
        let result = try cli.cn("import", file.path)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("imported \(count) notes (\(count) new"), "\(result.stderr)")
        let again = try cli.cn("import", file.path)
        #expect(again.stderr.contains("(0 new, 0 updated, \(count) unchanged)"), "\(again.stderr)")
        let left = try FileManager.default.contentsOfDirectory(atPath: cli.dataDirectory.path)
        #expect(!left.contains { $0.hasPrefix(".import-") }, "\(left)")

        lines[3049] = #"{"title":"Broken","body":"b","createdAt":"not a date"}"#
        let bad = cli.home.appendingPathComponent("bad.jsonl")
        try lines.joined(separator: "\n").write(to: bad, atomically: true, encoding: .utf8)
        let refused = try cli.cn("import", bad.path)
        #expect(refused.status == 1)
        #expect(
            refused.stderrLines.contains {
                $0.contains("bad.jsonl") && $0.contains("line 3050: \"createdAt\" is not a date")
            },
            "\(refused.stderr)")
        #expect(try cli.ids().count == count, "nothing of the bad file is imported")
    }

    @Test func badJSONAndInvalidUTF8AreReportedByFile() throws {
        let cli = try CLIRunner()
        defer { cli.cleanUp() }
        let lines = cli.home.appendingPathComponent("notes.jsonl")
        try Data(
            #"{"id":"33333333-0000-4000-8000-000000000003","title":"T","body":"b","createdAt":"2025-01-01T00:00:00Z"}"#
                .utf8 + [0x0A]
                + #"{"id":"nope","title":"T","body":"b","createdAt":"2025-01-01T00:00:00Z"}"#.utf8
        ).write(to: lines)
        let nul = cli.home.appendingPathComponent("nul.json")
        try Data(
            #"{"id":"44444444-0000-4000-8000-000000000004","title":"T","body":"a\u0000b","createdAt":"2025-01-01T00:00:00Z"}"#
                .utf8
        ).write(to: nul)
        let array = cli.home.appendingPathComponent("array.json")
        try Data(
            #"[{"id":"55555555-0000-4000-8000-000000000005","title":"T","body":"b","createdAt":"2025-01-01T00:00:00Z"},{"id":"55555555-0000-4000-8000-000000000006","tags":["t"],"createdAt":"2025-01-01T00:00:00Z"}]"#
                .utf8
        ).write(to: array)
        let binary = cli.home.appendingPathComponent("binary.md")
        try Data([0x23, 0x20, 0xFF, 0x0A]).write(to: binary)
        let result = try cli.cn("import", lines.path, nul.path, array.path, binary.path)
        #expect(result.status == 1)
        #expect(result.stderrLines.contains { $0.contains("notes.jsonl") && $0.contains("line 2") })
        #expect(result.stderrLines.contains { $0.contains("binary.md") && $0.contains("UTF-8") })
        #expect(result.stderrLines.contains { $0.contains("nul.json") && $0.contains("NUL byte") })
        #expect(result.stderrLines.contains { $0.contains("array.json") && $0.contains("note 2: missing \"body\"") })
        #expect(try cli.ids().isEmpty, "a JSON Lines file with a bad line is skipped whole")
        let missing = try cli.cn("import", cli.home.appendingPathComponent("missing").path)
        #expect(missing.status == 1)
        #expect(missing.stderrLines.count == 1)
    }
}
