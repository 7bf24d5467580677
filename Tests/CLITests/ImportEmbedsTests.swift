import Foundation
import Testing

/// Issue 22 item 10: the images a vault embeds (Obsidian's `![[diagram.png]]`, Joplin's
/// `![name](../_resources/<id>.png)`) come along as the notes' attachments, the embeds
/// rewritten to `![[name]]`; nothing outside the folder or behind a link is read.
@Suite struct ImportEmbedsTests {
    func write(_ bytes: Data, _ path: String, in root: URL) throws {
        let url = root.appendingPathComponent(path)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try bytes.write(to: url)
    }

    /// A note's attachments, name → content (each written out by `attachment NOTE NAME --output -`).
    func attachments(_ cli: CLIRunner, _ title: String) throws -> [String: String] {
        let listed = try cli.cn("attachments", title, "--json")
        #expect(listed.status == 0, "\(listed.stderr)")
        let rows = try JSONSerialization.jsonObject(with: Data(listed.stdout.utf8)) as? [[String: Any]] ?? []
        var result: [String: String] = [:]
        for name in rows.compactMap({ $0["name"] as? String }) {
            result[name] = try cli.cn("attachment", title, name, "--output", "-").stdout
        }
        return result
    }

    @Test func obsidianEmbedsBecomeAttachmentsAndTheLinksNameThem() throws {
        let cli = try CLIRunner()
        defer { cli.cleanUp() }
        let vault = cli.home.appendingPathComponent("vault")
        let secret = Data("secret".utf8)
        try write(Data("diagram bytes".utf8), "assets/diagram.png", in: vault)
        try write(Data("photo bytes".utf8), "Trips/pics/photo.jpg", in: vault)
        try write(Data("unused".utf8), "assets/unused.gif", in: vault)
        try write(secret, "../outside.png", in: vault)
        try FileManager.default.createSymbolicLink(
            atPath: vault.appendingPathComponent("assets/linked.png").path,
            withDestinationPath: cli.home.appendingPathComponent("outside.png").path)
        let body = """
            # Kyoto

            Plan: ![[diagram.png]] and ![[pics/photo.jpg|300]] again ![[diagram.png]]
            Missing ![[nowhere.png]], linked ![[linked.png]], outside ![up](../../outside.png)
            A note link [[Plan]] and `![[in code.png]]` stay.
            """
        try write(Data(body.utf8), "Trips/Kyoto.md", in: vault)
        let result = try cli.cn("import", vault.path)
        #expect(result.status == 0, "\(result.stderr)")
        let summary = result.stderr.split(separator: "\n").last.map(String.init) ?? ""
        #expect(
            summary
                == "imported 1 note (1 new, 0 updated, 0 unchanged); skipped 0 files; attached 2 embedded files; ignored 1 file of another type and 1 symbolic link (assets/linked.png; links are not followed)",
            "\(result.stderr)")
        #expect(result.stderr.contains("3 embed(s) name no file in the imported folder"), "\(result.stderr)")
        #expect(try attachments(cli, "Kyoto") == ["diagram.png": "diagram bytes", "photo.jpg": "photo bytes"])
        let shown = try cli.cn("show", "Kyoto").stdout
        #expect(shown.contains("Plan: ![[diagram.png]] and ![[photo.jpg|300]] again ![[diagram.png]]"), "\(shown)")
        #expect(shown.contains("Missing ![[nowhere.png]], linked ![[linked.png]], outside ![up](../../outside.png)"))
        #expect(shown.contains("`![[in code.png]]`"))
        // The embeds are no note links: only [[Plan]] is a link (dangling, as no note has that title).
        let links = try cli.cn("links", "Kyoto")
        #expect(links.stdout.contains("Plan") && !links.stdout.contains("diagram.png"), "\(links.stdout)")
        // Imported again: one note, the same two attachments, nothing doubled.
        let again = try cli.cn("import", vault.path)
        #expect(again.status == 0, "\(again.stderr)")
        #expect(again.stderr.contains("(0 new, 0 updated, 1 unchanged)"), "\(again.stderr)")
        #expect(try attachments(cli, "Kyoto").count == 2)
        // Exported and imported into a fresh data directory: the embeds find their attachments.
        let out = cli.home.appendingPathComponent("out")
        #expect(try cli.cn("export", out.path).status == 0)
        let fresh = cli.home.appendingPathComponent("fresh")
        let back = try cli.cn(at: fresh, "import", out.path)
        #expect(back.status == 0, "\(back.stderr)")
        #expect(back.stderr.contains("(1 new, 0 updated, 0 unchanged)"), "\(back.stderr)")
        // Only the embeds that never named a file are said again.
        #expect(back.stderr.contains("3 embed(s) name no file"), "\(back.stderr)")
        let listed = try cli.cn(at: fresh, "attachments", "Kyoto").stdout
        #expect(listed.contains("diagram.png") && listed.contains("photo.jpg"), "\(listed)")
    }

    @Test func joplinResourcesBecomeAttachmentsNamedAsTheNoteShowsThem() throws {
        let cli = try CLIRunner()
        defer { cli.cleanUp() }
        let export = cli.home.appendingPathComponent("joplin")
        try write(Data("chart".utf8), "_resources/0123456789abcdef0123456789abcdef.png", in: export)
        let body = """
            ---
            title: Quarterly
            ---

            See ![sales chart.png](../_resources/0123456789abcdef0123456789abcdef.png) and
            ![](<../_resources/0123456789abcdef0123456789abcdef.png>) once more.
            """
        try write(Data(body.utf8), "Work/Quarterly.md", in: export)
        let result = try cli.cn("import", "--from", "joplin", export.path)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(
            result.stderr.contains("attached 1 embedded file;") || result.stderr.contains("attached 1 embedded file\n"))
        #expect(try attachments(cli, "Quarterly") == ["sales chart.png": "chart"])
        let shown = try cli.cn("show", "Quarterly").stdout
        #expect(shown.contains("See ![[sales chart.png]] and\n![[sales chart.png]] once more."), "\(shown)")
    }
}
