import Foundation
import Testing

/// Attachments through export and import (Markdown and JSON), as a backup and a restore onto a
/// fresh device would take them.
@Suite struct AttachmentRoundTripTests {
    /// A note with attachments made from `files` (name → content); returns its id.
    static func noteWithAttachments(_ cli: CLIRunner, _ title: String, _ files: [(String, String)]) throws -> String {
        let id = try cli.add(title, body: "see the files")
        let folder = cli.home.appendingPathComponent("to-attach-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let paths = try files.map { name, content in
            let url = folder.appendingPathComponent(name)
            try Data(content.utf8).write(to: url)
            return url.path
        }
        let attached = try cli.run(["attach", id] + paths + ["--data-dir", cli.dataDirectory.path])
        #expect(attached.status == 0, "\(attached.stderr)")
        return id
    }

    /// Name → content of each attachment of `note` on `device`.
    static func attachments(_ cli: CLIRunner, _ note: String, at device: URL) throws -> [String: String] {
        let listed = try cli.cn(at: device, "attachments", note, "--json")
        try #require(listed.status == 0, "\(listed.stderr)")
        let rows = try #require(try JSONSerialization.jsonObject(with: listed.stdoutData) as? [[String: Any]])
        var out: [String: String] = [:]
        for name in rows.compactMap({ $0["name"] as? String }) {
            let content = try cli.run(["attachment", note, name, "-o", "-", "--data-dir", device.path])
            out[name] = content.stdout
        }
        return out
    }

    /// `readme.md` among a note's attachments: its folder is still its attachment folder after
    /// export, not a notebook of notes, and every attachment comes back.
    @Test func anAttachmentNamedLikeAMarkdownFileSurvivesExportAndImport() throws {
        let cli = try CLIRunner()
        defer { cli.cleanUp() }
        let files = [("readme.md", "# Read me\n\nnot a note\n"), ("photo.png", "png bytes"), ("notes.txt", "text")]
        let id = try Self.noteWithAttachments(cli, "Trip", files)
        _ = try cli.add("Other", body: "plain")
        let folder = cli.home.appendingPathComponent("backup")
        let export = try cli.cn("export", folder.path)
        #expect(export.status == 0, "\(export.stderr)")
        let fresh = cli.device("fresh")
        let imported = try cli.cn(at: fresh, "import", folder.path)
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(
            imported.stderrLines.last == "imported 2 notes (2 new, 0 updated, 0 unchanged); skipped 0 files",
            "\(imported.stderr)")
        #expect(try Self.attachments(cli, id, at: fresh) == Dictionary(uniqueKeysWithValues: files))
        #expect(try cli.cn(at: fresh, "notebooks").stdout == (try cli.cn("notebooks").stdout))
    }

    /// A 255-byte name (which `attach` accepts) is shortened on export, so the export succeeds,
    /// and import gives the attachment its name back.
    @Test func aNameOf255BytesIsShortenedOnExportAndRestoredOnImport() throws {
        let cli = try CLIRunner()
        defer { cli.cleanUp() }
        let long = String(repeating: "é", count: 100) + String(repeating: "x", count: 51) + ".pdf"
        #expect(long.utf8.count == 255)
        let id = try Self.noteWithAttachments(cli, "Long", [(long, "pdf bytes"), ("short.txt", "s")])
        let folder = cli.home.appendingPathComponent("backup")
        let export = try cli.cn("export", folder.path)
        #expect(export.status == 0, "\(export.stderr)")
        let written = try FileManager.default.contentsOfDirectory(atPath: folder.path + "/notes/Long")
        #expect(written.count == 2 && written.allSatisfy { $0.utf8.count <= 200 }, "\(written)")
        #expect(written.contains { $0.hasSuffix(".pdf") }, "\(written)")
        let fresh = cli.device("fresh")
        let imported = try cli.cn(at: fresh, "import", folder.path)
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(try Self.attachments(cli, id, at: fresh) == [long: "pdf bytes", "short.txt": "s"])
    }

    /// An export that fails part-way (an attachment's content damaged on disk) leaves no folder
    /// that could pass for a backup, and says nothing was exported.
    @Test func anExportThatFailsPartWayLeavesNoFolder() throws {
        let cli = try CLIRunner()
        defer { cli.cleanUp() }
        for n in 0..<20 { _ = try cli.add("Note \(n)", body: "body \(n)") }
        _ = try Self.noteWithAttachments(cli, "Damaged", [("a.bin", "original content")])
        let store = cli.dataDirectory.appendingPathComponent("attachments")
        let content = try #require(
            try FileManager.default.subpathsOfDirectory(atPath: store.path).first {
                $0.split(separator: "/").last?.count == 64
            })
        try Data("damaged content!".utf8).write(to: store.appendingPathComponent(content))
        let target = cli.home.appendingPathComponent("exports/backup")
        let export = try cli.cn("export", target.path)
        #expect(export.status == 1)
        #expect(export.stderr.contains("nothing was exported"), "\(export.stderr)")
        #expect(!FileManager.default.fileExists(atPath: target.path))
        #expect(try FileManager.default.contentsOfDirectory(atPath: target.deletingLastPathComponent().path) == [])
    }

    /// `export --format json` carries attachments (files beside the JSON file), a fresh device
    /// gets them back, and a JSON import that says nothing about attachments leaves a note's
    /// attachments alone.
    @Test func jsonExportCarriesAttachmentsAndAnImportWithoutThemKeepsThem() throws {
        let cli = try CLIRunner()
        defer { cli.cleanUp() }
        let id = try Self.noteWithAttachments(cli, "Report", [("q3.csv", "a,b\n1,2\n"), ("readme.md", "# x\n")])
        let file = cli.home.appendingPathComponent("backup.json")
        let export = try cli.cn("export", file.path, "--format", "json")
        #expect(export.status == 0, "\(export.stderr)")
        let fresh = cli.device("fresh")
        let imported = try cli.cn(at: fresh, "import", file.path)
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(try Self.attachments(cli, id, at: fresh) == ["q3.csv": "a,b\n1,2\n", "readme.md": "# x\n"])
        // The same note, edited elsewhere, as JSON without attachments.
        let edited = cli.home.appendingPathComponent("edited.json")
        try Data(#"[{"id": "\#(id)", "title": "Report", "body": "new text"}]"#.utf8).write(to: edited)
        let again = try cli.cn("import", edited.path)
        #expect(again.status == 0, "\(again.stderr)")
        #expect(again.stderrLines.last?.contains("(0 new, 1 updated, 0 unchanged)") == true, "\(again.stderr)")
        #expect(try cli.note(id)["body"] as? String == "new text")
        #expect(try Self.attachments(cli, id, at: cli.dataDirectory) == ["q3.csv": "a,b\n1,2\n", "readme.md": "# x\n"])
    }
}
