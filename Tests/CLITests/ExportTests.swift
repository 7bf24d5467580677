import Foundation
import Testing

@Suite struct ExportTests {
    /// Notes that stress every field: unicode, trailing and leading newlines, CRLF, tabs, a body
    /// that repeats the title as a heading or holds a `---` line, an empty body, the trash.
    static var notes: [[String: Any]] {
        [
            CLIRunner.fixture(
                id: "0a000000-0000-4000-8000-000000000001", title: "Ünïcode 日本 🇯🇵 \"quoted\"",
                body: "first\n\nlast line\n\n",
                tags: ["café", "work"], isFavorite: true, notebook: "work-2025",
                createdAt: "2024-02-29T23:59:59.999Z", modifiedAt: "2025-01-02T03:04:05.678Z"),
            CLIRunner.fixture(
                id: "0b000000-0000-4000-8000-000000000002", title: "Trashed",
                body: "\n leading blank\r\nCRLF line\ttab",
                tags: ["old"], createdAt: "2023-03-03T03:03:03.003Z", modifiedAt: "2023-04-04T04:04:04.004Z",
                deletedAt: "2025-06-01T00:00:00.001Z"),
            CLIRunner.fixture(id: "0c000000-0000-4000-8000-000000000003", title: "Only a title", body: ""),
            CLIRunner.fixture(
                id: "0d000000-0000-4000-8000-000000000004", title: "Heading",
                body: "# Heading\n---\nnot: front matter\n---\n",
                createdAt: "2025-07-07T07:07:07.070Z"),
            CLIRunner.fixture(
                id: "0e000000-0000-4000-8000-000000000005", title: "Cafe\u{301} ends in CR\r",
                body: "decomposed cafe\u{301}\r",
                createdAt: "2025-08-08T08:08:08.808Z"),
        ]
    }

    static let comparedFields = [
        "id", "title", "body", "tags", "isFavorite", "notebook", "createdAt", "modifiedAt", "deletedAt",
    ]

    /// Every exported field of every note in `directory`, by id (as `show --json` prints them).
    func snapshot(_ cli: CLIRunner, _ directory: URL) throws -> [String: NSDictionary] {
        var all: [String: NSDictionary] = [:]
        for id in Self.notes.compactMap({ $0["id"] as? String }) {
            let result = try cli.cn(at: directory, "show", id, "--json")
            #expect(result.status == 0, "\(id) missing in \(directory.lastPathComponent): \(result.stderr)")
            guard result.status == 0 else { continue }
            let note = try #require(try JSONSerialization.jsonObject(with: result.stdoutData) as? [String: Any])
            all[id] = note.filter { Self.comparedFields.contains($0.key) } as NSDictionary
        }
        return all
    }

    @Test(arguments: ["markdown", "json"])
    func exportThenImportIntoAnotherDeviceKeepsEveryField(format: String) throws {
        let cli = try CLIRunner()
        defer { cli.cleanUp() }
        try cli.seed(Self.notes)
        let original = try snapshot(cli, cli.dataDirectory)
        // The seeded store holds exactly the fixtures, so the comparison below is against known values.
        for fixture in Self.notes {
            let id = try #require(fixture["id"] as? String)
            #expect(original[id] == (fixture.filter { Self.comparedFields.contains($0.key) } as NSDictionary), "\(id)")
        }
        let target = cli.home.appendingPathComponent(format == "json" ? "export.json" : "export")
        let export = try cli.cn("export", target.path, "--format", format, "--include-trash")
        #expect(export.status == 0, "\(export.stderr)")
        #expect(export.stderr.contains("exported 5 notes"))

        let other = cli.device("other")
        let imported = try cli.cn(at: other, "import", target.path)
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(imported.stderr.contains("imported 5 notes (5 new"))
        #expect(try snapshot(cli, other) == original)
        let show = try cli.cn(at: other, "show", "0a000000")
        #expect(show.stdoutData == Data("first\n\nlast line\n\n".utf8))
        // Byte for byte, not up to canonical equivalence: NFD stays NFD, a final CR stays a CR.
        #expect(try cli.cn(at: other, "show", "0e000000").stdoutData == Data("decomposed cafe\u{301}\r".utf8))
        let title =
            try #require(
                try JSONSerialization.jsonObject(with: cli.cn(at: other, "show", "0e000000", "--json").stdoutData)
                    as? [String: Any])["title"] as? String
        #expect(title.map { Array($0.utf8) } == Array("Cafe\u{301} ends in CR\r".utf8))
    }

    @Test func withoutIncludeTrashTheTrashStaysBehind() throws {
        let cli = try CLIRunner()
        defer { cli.cleanUp() }
        try cli.seed(Self.notes)
        let target = cli.home.appendingPathComponent("md")
        #expect(try cli.cn("export", target.path).status == 0)
        // A folder per notebook, a file per note named by its title made safe.
        let files = try FileManager.default.subpathsOfDirectory(atPath: target.path).filter { $0.hasSuffix(".md") }
            .sorted()
        #expect(
            files == [
                "notes/Cafe\u{301} ends in CR.md", "notes/Heading.md", "notes/Only a title.md",
                "work-2025/Ünïcode 日本 🇯🇵 -quoted-.md",
            ])
        let text = try String(contentsOf: target.appendingPathComponent(files[3]), encoding: .utf8)
        #expect(
            text.hasPrefix("---\nid: 0a000000-0000-4000-8000-000000000001\ntitle: \"Ünïcode 日本 🇯🇵 \\\"quoted\\\"\"\n"))
        #expect(text.contains("\nfavorite: true\n"))
        #expect(text.contains("\nnotebook: work-2025\n"))
        #expect(text.contains("\ncreated: 2024-02-29T23:59:59.999Z\n"))
    }

    @Test func anExistingTargetIsNotOverwrittenWithoutForce() throws {
        let cli = try CLIRunner()
        defer { cli.cleanUp() }
        try cli.seed(Self.notes)
        let file = cli.home.appendingPathComponent("mine.json")
        try Data("precious".utf8).write(to: file)
        let refused = try cli.cn("export", file.path, "--format", "json")
        #expect(refused.status == 1)
        #expect(refused.stderrLines.count == 1)
        #expect(refused.stderr.contains("--force"))
        #expect(try Data(contentsOf: file) == Data("precious".utf8))

        let folder = cli.home.appendingPathComponent("folder")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try Data("mine".utf8).write(to: folder.appendingPathComponent("note.md"))
        let refusedFolder = try cli.cn("export", folder.path)
        #expect(refusedFolder.status == 1)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["note.md"])

        let forced = try cli.cn("export", file.path, "--format", "json", "--force")
        #expect(forced.status == 0)
        let exported = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: file)) as? [[String: Any]])
        #expect(exported.count == 4)
    }
}
