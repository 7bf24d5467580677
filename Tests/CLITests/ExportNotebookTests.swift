import Foundation
import Testing

/// Markdown export names each notebook's folder by its display name (safe for file names and
/// unique), and an import of that export into a fresh device gives back the same notebooks:
/// zone ids from the front matter (not the folder), display names from `notebookName`.
@Suite struct ExportNotebookTests {
    func notebooks(_ cli: CLIRunner, _ directory: URL) throws -> [String] { try cli.notebookLines(at: directory) }

    @Test func foldersAreNamedByNotebookNamesAndImportGivesTheNotebooksBack() throws {
        let cli = try CLIRunner()
        defer { cli.cleanUp() }
        let a = cli.dataDirectory
        #expect(try cli.cn("notebook", "create", "Work").status == 0)
        #expect(try cli.cn("notebook", "create", "a/b").status == 0)
        #expect(try cli.cn("notebook", "create", "a-b").status == 0)
        try cli.add("Plan", body: "w", "--notebook", "Work")
        try cli.add("Slash", body: "s", "--notebook", "a/b")
        try cli.add("Dash", body: "d", "--notebook", "a-b")
        try cli.add("Loose", body: "n")
        // A second notebook named "Work" (as two devices can make): a file that names zone
        // `home` "Work" names it so on import; one naming the existing zone `work` otherwise
        // does not rename it.
        let incoming = cli.home.appendingPathComponent("incoming")
        try FileManager.default.createDirectory(at: incoming, withIntermediateDirectories: true)
        try Data(
            "---\nid: 0a000000-0000-4000-8000-000000000001\ntitle: \"Home plan\"\nnotebook: home\nnotebookName: \"Work\"\n---\nh\n"
                .utf8
        ).write(to: incoming.appendingPathComponent("one.md"))
        try Data(
            "---\nid: 0b000000-0000-4000-8000-000000000002\ntitle: \"Other\"\nnotebook: work\nnotebookName: \"Job\"\n---\no\n"
                .utf8
        ).write(to: incoming.appendingPathComponent("two.md"))
        let seeded = try cli.cn("import", incoming.path)
        #expect(seeded.status == 0, "\(seeded.stderr)")
        let original = try notebooks(cli, a)
        let dash = try #require(original.first { $0.hasSuffix("=a-b:1") }, "\(original)")
        let dashZone = String(dash.prefix { $0 != "=" })
        #expect(dashZone != "a-b")
        #expect(
            Set(original) == ["home=Work:1", "work=Work:2", "a-b=a/b:1", "\(dashZone)=a-b:1", "notes=notes:1"])

        let folder = cli.home.appendingPathComponent("md")
        let export = try cli.cn("export", folder.path)
        #expect(export.status == 0, "\(export.stderr)")
        // Zones in id order: `home` takes "Work", `work` gets its id; "a/b" is the folder `b`
        // in `a`, beside "a-b".
        let folders = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
        #expect(folders == ["Work", "Work (work)", "a", "a-b", "notes"].sorted())
        #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent("a/b/Slash.md").path))
        let plan = try String(contentsOf: folder.appendingPathComponent("Work (work)/Plan.md"), encoding: .utf8)
        #expect(plan.contains("\nnotebook: work\nnotebookName: \"Work\"\n"))
        let loose = try String(contentsOf: folder.appendingPathComponent("notes/Loose.md"), encoding: .utf8)
        #expect(!loose.contains("notebookName"), "a notebook without a name of its own writes none")

        let fresh = cli.device("fresh")
        let imported = try cli.cn(at: fresh, "import", folder.path)
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(try notebooks(cli, fresh) == original)
        // The same folders again from the fresh device.
        let again = cli.home.appendingPathComponent("md2")
        #expect(try cli.cn(at: fresh, "export", again.path).status == 0)
        #expect(
            Set(try FileManager.default.subpathsOfDirectory(atPath: again.path))
                == Set(try FileManager.default.subpathsOfDirectory(atPath: folder.path)))
    }
}

extension CLIRunner {
    /// `notebooks --json` of the device at `directory` as `id=name:count` lines, in its order.
    func notebookLines(at directory: URL) throws -> [String] {
        let result = try cn(at: directory, "notebooks", "--json")
        try #require(result.status == 0, "\(result.stderr)")
        let rows = try #require(try JSONSerialization.jsonObject(with: result.stdoutData) as? [[String: Any]])
        return rows.map { "\($0["id"] ?? "")=\($0["name"] ?? ""):\($0["count"] ?? "")" }
    }
}
