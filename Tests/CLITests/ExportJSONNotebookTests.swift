import Foundation
import Testing

/// JSON export carries each note's notebook display name (`notebookName`, beside the zone id
/// in `notebook`), and importing that JSON, or the same notes as JSON Lines, into a fresh device
/// gives back the same notebooks: names, and which note is in which (as the Markdown round
/// trip of ExportNotebookTests does).
@Suite struct ExportJSONNotebookTests {
    func notebooks(_ cli: CLIRunner, _ directory: URL) throws -> [String] { try cli.notebookLines(at: directory) }

    /// title → "zone/notebookName" of every note of a JSON export file.
    func placement(_ file: URL) throws -> [String: String] {
        let notes = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: file)) as? [[String: Any]])
        var out: [String: String] = [:]
        for note in notes {
            out[note["title"] as? String ?? ""] = "\(note["notebook"] ?? "-")/\(note["notebookName"] ?? "-")"
        }
        return out
    }

    @Test func jsonExportCarriesNotebookNamesAndImportGivesTheNotebooksBack() throws {
        let cli = try CLIRunner()
        defer { cli.cleanUp() }
        #expect(try cli.cn("notebook", "create", "Work").status == 0)
        #expect(try cli.cn("notebook", "create", "Reise/Plän 日本").status == 0)
        #expect(try cli.cn("notebook", "create", "a-b").status == 0)
        try cli.add("Plan", body: "w", "--notebook", "Work")
        try cli.add("Trip", body: "t", "--notebook", "Reise/Plän 日本")
        try cli.add("Trip two", body: "t2", "--notebook", "Reise/Plän 日本")
        try cli.add("Dash", body: "d", "--notebook", "a-b")
        try cli.add("Loose", body: "n")
        let original = try notebooks(cli, cli.dataDirectory)
        let trip = try #require(original.first { $0.contains("=Reise/Plän 日本:") }, "\(original)")
        let tripZone = String(trip.prefix { $0 != "=" })

        let file = cli.home.appendingPathComponent("all.json")
        let export = try cli.cn("export", file.path, "--format", "json")
        #expect(export.status == 0, "\(export.stderr)")
        let exported = try placement(file)
        // A notebook whose name is its id (`notes`, and `a-b` named "a-b") writes no name.
        #expect(
            exported == [
                "Plan": "work/Work", "Trip": "\(tripZone)/Reise/Plän 日本", "Trip two": "\(tripZone)/Reise/Plän 日本",
                "Dash": "a-b/-", "Loose": "notes/-",
            ])

        let fresh = cli.device("fresh")
        let imported = try cli.cn(at: fresh, "import", file.path)
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(try notebooks(cli, fresh) == original)
        let again = cli.home.appendingPathComponent("again.json")
        #expect(try cli.cn(at: fresh, "export", again.path, "--format", "json").status == 0)
        #expect(try placement(again) == exported)

        // The same notes as JSON Lines, one object a line.
        let notes = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: file)) as? [[String: Any]])
        let lines = try notes.map {
            String(decoding: try JSONSerialization.data(withJSONObject: $0, options: [.sortedKeys]), as: UTF8.self)
        }
        let jsonl = cli.home.appendingPathComponent("all.jsonl")
        try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: jsonl)
        let third = cli.device("third")
        let fromLines = try cli.cn(at: third, "import", jsonl.path)
        #expect(fromLines.status == 0, "\(fromLines.stderr)")
        #expect(try notebooks(cli, third) == original)
    }

    /// A name in the JSON never renames a notebook this device already has.
    @Test func importedNamesDoNotRenameAnExistingNotebook() throws {
        let cli = try CLIRunner()
        defer { cli.cleanUp() }
        #expect(try cli.cn("notebook", "create", "Job").status == 0)
        let file = cli.home.appendingPathComponent("in.json")
        try Data(
            #"[{"title":"A","body":"a","notebook":"job","notebookName":"Work"},{"title":"B","body":"b","notebook":"home","notebookName":"Home"}]"#
                .utf8
        ).write(to: file)
        let imported = try cli.cn("import", file.path)
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(try notebooks(cli, cli.dataDirectory) == ["home=Home:1", "job=Job:1", "notes=notes:0"])
    }
}
