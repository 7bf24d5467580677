import Foundation
import Testing

/// `import` of what other notes apps write, each fixture laid out as that app writes it.
@Suite struct ImportAppsTests {
    func write(_ text: String, _ path: String, in root: URL) throws {
        let url = root.appendingPathComponent(path)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: url)
    }

    /// Every note as `list --json` prints it, by title.
    func notesByTitle(_ cli: CLIRunner, trash: Bool = false) throws -> [String: [String: Any]] {
        let rows = try #require(
            try cli.json(["list", "--limit", "1000", "--json"] + (trash ? ["--trash"] : [])) as? [[String: Any]])
        return Dictionary(rows.map { ($0["title"] as? String ?? "", $0) }, uniquingKeysWith: { a, _ in a })
    }

    /// An Obsidian 1.5 vault: `.obsidian/` settings, folders of folders, notes with "Properties"
    /// (YAML lists for tags and aliases, dates without a zone), wiki links, an attachments
    /// folder, and folder and file names in several scripts.
    @Test func anObsidianVaultImportsWhole() throws {
        let cli = try CLIRunner()
        defer { cli.cleanUp() }
        let vault = cli.home.appendingPathComponent("My Vault")
        try write(#"{"alwaysUpdateLinks":true}"#, ".obsidian/app.json", in: vault)
        try write("{}", ".obsidian/workspace.json", in: vault)
        try write(
            """
            ---
            aliases:
              - Start
              - ホーム
            tags:
              - index
              - "#pinned"
            created: 2024-03-01T09:30
            ---
            # Home

            Daily: [[2024-03-01]], trip: [[Kraków trip#Budget|the trip]].
            ![[photo.png]]

            """, "Home.md", in: vault)
        try write("Went to the [[Home]] page.\n", "日記/2024-03-01.md", in: vault)
        try write(
            """
            ---
            tags: "#travel #poland"
            cssclasses:
              - wide
            ---
            ## Budget

            - train 50 zł

            """, "Projects/Kraków trip.md", in: vault)
        try write("Link to [[Home|home page]]\n", "Projects/Archive/Старый план.md", in: vault)
        try write(
            "---\ntitle: Σημειώσεις\nupdated: 2024-05-02 08:00\n---\nκείμενο\n", "Projects/Ελληνικά.md", in: vault)
        try write("png", "attachments/photo.png", in: vault)
        let result = try cli.cn("import", vault.path, "--from", "obsidian")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(
            result.stderrLines.last
                == "imported 5 notes (5 new, 0 updated, 0 unchanged); skipped 0 files; attached 1 embedded file; ignored 1 hidden file or folder",
            "\(result.stderr)")
        let notes = try notesByTitle(cli)
        #expect(Set(notes.keys) == ["Home", "2024-03-01", "Kraków trip", "Старый план", "Σημειώσεις"])
        #expect(notes["Home"]?["notebook"] as? String == "notes")
        #expect(notes["Home"]?["tags"] as? [String] == ["index", "pinned"])
        #expect(notes["Kraków trip"]?["notebook"] as? String == "projects")
        #expect(notes["Kraków trip"]?["tags"] as? [String] == ["poland", "travel"])
        #expect(notes["Старый план"]?["notebook"] as? String == "projects-archive")
        #expect(notes["Σημειώσεις"]?["modifiedAt"] as? String == "2024-05-02T08:00:00.000Z")
        let daily = try #require(notes["2024-03-01"]?["notebook"] as? String)
        #expect(daily.hasPrefix("folder-"), "日記 has no a-z letter: a hashed slug")
        let home = try cli.note("Home")
        #expect(
            home["body"] as? String == "Daily: [[2024-03-01]], trip: [[Kraków trip#Budget|the trip]].\n![[photo.png]]")
        #expect(home["createdAt"] as? String == "2024-03-01T09:30:00.000Z")
        // The keys CloudNotes does not use come back on export.
        let out = cli.home.appendingPathComponent("out")
        #expect(try cli.cn("export", out.path).status == 0)
        let files = try FileManager.default.subpathsOfDirectory(atPath: out.path).filter { $0.hasSuffix(".md") }
        let texts = try files.map { try String(contentsOf: out.appendingPathComponent($0), encoding: .utf8) }
        #expect(texts.contains { $0.contains("\naliases: [\"Start\", \"ホーム\"]\n") }, "\(texts)")
        #expect(texts.contains { $0.contains("\ncssclasses: [\"wide\"]\n") })
    }

    /// Joplin 2.x/3.x, File > Export all > "MD - Markdown + Front Matter": a folder per
    /// notebook (nested), `_resources/` for attachments, each note with `title`, `updated`,
    /// `created` (`YYYY-MM-DD HH:mm:ssZ`), location keys and `tags` as a list, then a blank line
    /// and the title again as a heading.
    @Test func aJoplinExportImports() throws {
        let cli = try CLIRunner()
        defer { cli.cleanUp() }
        let export = cli.home.appendingPathComponent("joplin")
        try write(
            """
            ---
            title: Weekly sync
            updated: 2023-05-03 09:07:52Z
            created: 2023-05-03 09:07:27Z
            latitude: 48.85660000
            longitude: 2.35220000
            altitude: 0.0000
            tags:
              - meetings
            ---

            # Weekly sync

            ![chart](../_resources/chart.png)

            """, "Work/Weekly sync.md", in: export)
        try write(
            "---\ntitle: Groceries\nupdated: 2023-06-01 10:00:00Z\ncreated: 2023-06-01 10:00:00Z\n---\n\n# Groceries\n\n- milk\n",
            "Personal/Groceries.md", in: export)
        try write("png", "_resources/chart.png", in: export)
        let result = try cli.cn("import", export.path)
        #expect(result.status == 0, "\(result.stderr)")
        let notes = try notesByTitle(cli)
        #expect(Set(notes.keys) == ["Weekly sync", "Groceries"])
        #expect(notes["Weekly sync"]?["notebook"] as? String == "work")
        #expect(notes["Weekly sync"]?["tags"] as? [String] == ["meetings"])
        #expect(notes["Weekly sync"]?["createdAt"] as? String == "2023-05-03T09:07:27.000Z")
        // The embedded resource is the note's attachment, the embed naming it (issue 22 item 10).
        #expect(try cli.note("Weekly sync")["body"] as? String == "![[chart.png]]")
        #expect(try cli.cn("attachment", "Weekly sync", "chart.png", "--output", "-").stdout == "png")
        #expect(try cli.note("Groceries")["body"] as? String == "- milk")
    }

    /// nb 7: a notebook is a folder (`~/.nb/home`) of `.md` files named by timestamp, each
    /// starting with a `# Title` heading, beside nb's `.index` file and a `.git` folder.
    @Test func nbNotebooksImportWithoutTheirIndexFiles() throws {
        let cli = try CLIRunner()
        defer { cli.cleanUp() }
        let nb = cli.home.appendingPathComponent("nb")
        try write("20240101120000.md\n20240102090000.md\n", "home/.index", in: nb)
        try write("ref: refs/heads/master\n", "home/.git/HEAD", in: nb)
        try write("# Ideas\n\n- one\n", "home/20240101120000.md", in: nb)
        try write("# Reading list\n\n#books #todo\n", "home/20240102090000.md", in: nb)
        try write("20240301080000.md\n", "work/.index", in: nb)
        try write("# Standup\n\nnotes\n", "work/20240301080000.md", in: nb)
        let result = try cli.cn("import", nb.path, "--from", "nb")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderrLines.last?.hasSuffix("ignored 3 hidden files or folders") == true, "\(result.stderr)")
        let notes = try notesByTitle(cli)
        #expect(Set(notes.keys) == ["Ideas", "Reading list", "Standup"])
        #expect(notes["Standup"]?["notebook"] as? String == "work")
        #expect(notes["Ideas"]?["notebook"] as? String == "home")
    }

    /// jrnl 4.x, `jrnl --export json > journal.json`.
    @Test func aJrnlExportImportsAndASecondImportChangesNothing() throws {
        let cli = try CLIRunner()
        defer { cli.cleanUp() }
        let file = cli.home.appendingPathComponent("journal.json")
        try write(
            """
            {"tags": {"@work": 1}, "entries": [
              {"title": "Started the project.", "body": " Long day at @work.\\n", "date": "2024-01-15", "time": "09:30",
               "tags": ["@work"], "starred": true},
              {"title": "Quiet evening.", "body": "", "date": "2024-01-16", "time": "21:05", "tags": [], "starred": false}
            ]}
            """, "journal.json", in: cli.home)
        let result = try cli.cn("import", file.path)
        #expect(result.status == 0, "\(result.stderr)")
        let notes = try notesByTitle(cli)
        #expect(notes["Started the project."]?["tags"] as? [String] == ["work"])
        #expect(notes["Started the project."]?["isFavorite"] as? Bool == true)
        #expect(notes["Started the project."]?["createdAt"] as? String == "2024-01-15T09:30:00.000Z")
        #expect(notes["Quiet evening."]?["modifiedAt"] as? String == "2024-01-16T21:05:00.000Z")
        #expect(try cli.note("Started the project.")["body"] as? String == " Long day at @work.\n")
        let again = try cli.cn("import", file.path, "--from", "jrnl")
        #expect(again.stderrLines.last?.contains("(0 new, 0 updated, 2 unchanged)") == true, "\(again.stderr)")
    }

    /// Simplenote's web export (Settings > Tools > Export notes: `source/notes.json`), which
    /// sncli also reads: one `content` text per note, CRLF line ends, trashed notes apart.
    @Test func aSimplenoteExportImportsWithItsTrash() throws {
        let cli = try CLIRunner()
        defer { cli.cleanUp() }
        let file = cli.home.appendingPathComponent("notes.json")
        try write(
            """
            {"activeNotes": [
              {"id": "d2b5a1f0c9e84a7b9a1f0c9e84a7b9a1", "content": "# Packing\\r\\n\\r\\n- socks\\r\\n- charger",
               "creationDate": "2023-02-01T08:00:00.000Z", "lastModified": "2023-02-03T18:30:00.000Z",
               "tags": ["travel"], "pinned": true, "markdown": true, "collaboratorEmails": []},
              {"id": "0aa1", "content": "one line", "creationDate": "2023-03-01T00:00:00.000Z",
               "lastModified": "2023-03-01T00:00:00.000Z"}],
             "trashedNotes": [
              {"id": "ff01", "content": "Old\\nstuff", "creationDate": "2022-01-01T00:00:00.000Z",
               "lastModified": "2022-06-01T00:00:00.000Z", "tags": []}]}
            """, "notes.json", in: cli.home)
        let result = try cli.cn("import", file.path, "--from", "simplenote")
        #expect(result.status == 0, "\(result.stderr)")
        let notes = try notesByTitle(cli)
        #expect(Set(notes.keys) == ["Packing", "one line"])
        #expect(
            notes["Packing"]?["isFavorite"] as? Bool == true && notes["Packing"]?["tags"] as? [String] == ["travel"])
        #expect(try cli.note("Packing")["body"] as? String == "\r\n- socks\r\n- charger")
        #expect(Set(try notesByTitle(cli, trash: true).keys) == ["Old"])
    }

    /// JSON and JSON Lines from other tools: no `id`, dates under other names or none.
    @Test func jsonWithoutIdsOrDatesGetsNewIdsAndTheDatesItHas() throws {
        let cli = try CLIRunner()
        defer { cli.cleanUp() }
        try write(
            #"[{"title": "A", "body": "a", "created": "2024-02-02"}, {"content": "B body\nmore", "pinned": true}]"#,
            "many.json", in: cli.home)
        try write(
            #"{"title": "C", "text": "c", "updated": 1700000000}"# + "\n"
                + #"{"body": "d", "modifiedAt": 1700000000123}"#,
            "lines.jsonl", in: cli.home)
        let before = Date()
        let result = try cli.cn(
            "import", cli.home.appendingPathComponent("many.json").path,
            cli.home.appendingPathComponent("lines.jsonl").path)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(
            result.stderrLines.contains {
                $0.hasSuffix("many.json: 2 notes (2 new, 0 updated, 0 unchanged); skipped 0 files")
            },
            "a line per source: \(result.stderr)")
        let notes = try notesByTitle(cli)
        #expect(Set(notes.keys) == ["A", "B body", "C", "d"])
        #expect(notes["A"]?["createdAt"] as? String == "2024-02-02T00:00:00.000Z")
        #expect(notes["C"]?["modifiedAt"] as? String == "2023-11-14T22:13:20.000Z")
        #expect(notes["d"]?["modifiedAt"] as? String == "2023-11-14T22:13:20.123Z")
        #expect(notes["B body"]?["isFavorite"] as? Bool == true)
        let created = try #require(
            ISO8601DateFormatter.withFraction.date(from: notes["B body"]?["createdAt"] as? String ?? ""))
        #expect(created >= before.addingTimeInterval(-1), "no date: the file's, written just before")
        let wrong = try cli.cn("import", cli.home.appendingPathComponent("many.json").path, "--from", "markdown")
        #expect(wrong.status == 1 && wrong.stderr.contains("--from markdown does not read .json files"))
    }

    /// Every row of the runner's database as SQL (python3's sqlite3 `iterdump`).
    func dump(_ cli: CLIRunner) throws -> String {
        let result = try cli.runProgram(
            "/usr/bin/env",
            [
                "python3", "-c", "import sqlite3,sys; print('\\n'.join(sqlite3.connect(sys.argv[1]).iterdump()))",
                cli.dataDirectory.appendingPathComponent("notes.sqlite").path,
            ])
        try #require(result.status == 0, "\(result.stderr)")
        return result.stdout
    }

    /// `--dry-run` prints what an import would do and leaves every row of the store as it was
    /// (not the bytes: any open of the database, `list` too, rewrites its header on close).
    @Test func aDryRunWritesNothing() throws {
        let cli = try CLIRunner()
        defer { cli.cleanUp() }
        try cli.seed([CLIRunner.fixture(id: "11111111-0000-4000-8000-000000000001", title: "Kept", body: "x")])
        try write("---\nid: 11111111-0000-4000-8000-000000000001\ntitle: Kept\n---\nchanged\n", "in/a.md", in: cli.home)
        try write("# New\n\nnew\n", "in/b.md", in: cli.home)
        try write("---\ntitle: [broken\n---\n", "in/c.md", in: cli.home)
        let files = try FileManager.default.contentsOfDirectory(atPath: cli.dataDirectory.path).sorted()
        let before = try dump(cli)
        #expect(before.contains("Kept"))
        let result = try cli.cn("import", cli.home.appendingPathComponent("in").path, "--dry-run")
        #expect(result.status == 1, "a skipped file still exits 1")
        #expect(
            result.stderrLines.last
                == "would import 2 notes (1 new, 1 updated, 0 unchanged); skipped 1 file; nothing written (--dry-run)",
            "\(result.stderr)")
        #expect(result.stderr.contains("c.md: broken front matter, line 3: not YAML"))
        #expect(try dump(cli) == before)
        #expect(try FileManager.default.contentsOfDirectory(atPath: cli.dataDirectory.path).sorted() == files)
        #expect(try cli.ids() == ["11111111-0000-4000-8000-000000000001"])
        #expect(try cli.note("Kept")["body"] as? String == "x")
    }
}

extension ISO8601DateFormatter {
    nonisolated(unsafe) static let withFraction: ISO8601DateFormatter = {
        let f = ISO8601DateFormatter()
        f.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return f
    }()
}

extension ImportAppsTests {
    /// A folder named like a note beside it holds that note's attachments (as export writes
    /// them), not a notebook; one that holds notes (Obsidian's folder notes) stays a notebook.
    @Test func aFolderNamedLikeANoteIsItsAttachmentFolder() throws {
        let cli = try CLIRunner()
        defer { cli.cleanUp() }
        let vault = cli.home.appendingPathComponent("vault")
        try write("# Trip\n\nsee photo\n", "Trip.md", in: vault)
        try write("png", "Trip/photo.png", in: vault)
        try write("# Projects\n\nindex\n", "Projects.md", in: vault)
        try write("# Plan\n\nQ3\n", "Projects/Plan.md", in: vault)
        let result = try cli.cn("import", vault.path)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(
            result.stderrLines.last
                == "imported 3 notes (3 new, 0 updated, 0 unchanged); skipped 0 files",
            "\(result.stderr)")
        let notes = try notesByTitle(cli)
        #expect(Set(notes.keys) == ["Trip", "Projects", "Plan"])
        #expect(notes["Plan"]?["notebook"] as? String == "projects")
        // The attachment folder came with its note.
        let attached = try cli.cn("attachments", "Trip")
        #expect(attached.stdout.contains("photo.png"), "\(attached.stdout) \(attached.stderr)")
    }
}

extension ImportAppsTests {
    /// A JSON Lines line with a title and no body is a note with an empty body; the file's other
    /// lines import with it.
    @Test func aJSONLinesLineWithATitleAndNoBodyImports() throws {
        let cli = try CLIRunner()
        defer { cli.cleanUp() }
        try write(
            #"{"title": "Heading only"}"# + "\n" + #"{"title": "Full", "body": "text"}"# + "\n", "notes.jsonl",
            in: cli.home)
        let result = try cli.cn("import", cli.home.appendingPathComponent("notes.jsonl").path)
        #expect(result.status == 0, "\(result.stderr)")
        let notes = try notesByTitle(cli)
        #expect(Set(notes.keys) == ["Heading only", "Full"])
        #expect(try cli.note("Heading only")["body"] as? String == "")
    }

    /// `--from simplenote` on a file that is not a Simplenote export says so, naming the file,
    /// and exits 1 (it used to import "0 notes" and exit 0).
    @Test func anExportOfAnotherKindIsAnErrorNamingTheFile() throws {
        let cli = try CLIRunner()
        defer { cli.cleanUp() }
        try write(
            #"{"tags": {}, "entries": [{"title": "Day", "body": "x", "date": "2024-01-15", "time": "09:30"}]}"#,
            "journal.json", in: cli.home)
        let result = try cli.cn("import", "--from", "simplenote", cli.home.appendingPathComponent("journal.json").path)
        #expect(result.status == 1, "\(result.stderr)")
        #expect(
            result.stderrLines.contains { $0.contains("journal.json") && $0.contains("not a Simplenote export") },
            "\(result.stderr)")
        #expect(try cli.ids().isEmpty)
    }

    /// One id given to two notes, in one JSON list or in two files: an error naming the id, not
    /// "2 new" for what becomes one note.
    @Test func twoNotesWithOneIdAreAnErrorNamingTheId() throws {
        let cli = try CLIRunner()
        defer { cli.cleanUp() }
        let id = "66666666-0000-4000-8000-000000000006"
        let list = cli.home.appendingPathComponent("in/list.json")
        try write(
            "[{\"id\": \"\(id)\", \"title\": \"One\", \"body\": \"a\"}, {\"id\": \"\(id)\", \"title\": \"Two\", \"body\": \"b\"}]",
            "in/list.json", in: cli.home)
        let result = try cli.cn("import", list.path)
        #expect(result.status == 1, "\(result.stderr)")
        #expect(
            result.stderrLines.contains { $0.contains("list.json") && $0.contains(id) }, "\(result.stderr)")
        #expect(try cli.ids().isEmpty)
        // In two files of one folder: the first is imported, the second named.
        try FileManager.default.removeItem(at: list)
        try write("{\"id\": \"\(id)\", \"title\": \"One\", \"body\": \"a\"}", "in/a.json", in: cli.home)
        try write("{\"id\": \"\(id)\", \"title\": \"Two\", \"body\": \"b\"}", "in/b.json", in: cli.home)
        let folder = try cli.cn("import", cli.home.appendingPathComponent("in").path)
        #expect(folder.status == 1, "\(folder.stderr)")
        #expect(folder.stderrLines.contains { $0.contains("b.json") && $0.contains(id) && $0.contains("a.json") })
        #expect(folder.stderrLines.last == "imported 1 note (1 new, 0 updated, 0 unchanged); skipped 1 file")
        #expect(try cli.ids() == [id])
    }
}
