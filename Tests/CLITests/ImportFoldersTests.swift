import Foundation
import Testing

/// `import FOLDER` on a notes vault: notes sit in subfolders, beside hidden app folders and
/// attachments.
@Suite struct ImportFoldersTests {
    func write(_ text: String, _ path: String, in root: URL) throws {
        let url = root.appendingPathComponent(path)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: url)
    }

    @Test func notesInSubfoldersAreImportedEachSubfolderANotebook() throws {
        let cli = try CLIRunner()
        defer { cli.cleanUp() }
        let vault = cli.home.appendingPathComponent("vault")
        try write("# Top\n\nat the top\n", "Top.md", in: vault)
        try write("# Plan\n\nQ3 plan\n", "Work/Plan.md", in: vault)
        try write("# Old\n\nold plan\n", "Work/Archive 2024/Old.md", in: vault)
        try write("---\nnotebook: travel\n---\n# Kyoto\n\ntemples\n", "Work/Kyoto.md", in: vault)
        try write("plain text note\n", "Café/Recipes.txt", in: vault)
        try write("{}", ".obsidian/app.json", in: vault)
        try write("{}", ".obsidian/workspace.json", in: vault)
        try write("x", ".DS_Store", in: vault)
        try write("# Draft\n", "Work/.hidden-draft.md", in: vault)
        try write("png", "Work/diagram.png", in: vault)
        let result = try cli.cn("import", vault.path)
        #expect(result.status == 0, "\(result.stderr)")
        let summary = result.stderr.split(separator: "\n").last.map(String.init) ?? ""
        #expect(
            summary
                == "imported 5 notes (5 new, 0 updated, 0 unchanged); skipped 0 files; ignored 1 file of another type and 3 hidden files or folders",
            "\(result.stderr)")
        #expect(result.stderr.contains("Work/Archive 2024/ → notebook work-archive-2024 (1 note)"), "\(result.stderr)")
        #expect(result.stderr.contains("Work/ → notebook work (1 note)"), "\(result.stderr)")
        var notebooks: [String: String] = [:]
        // A file without a heading is titled by its name.
        for title in ["Top", "Plan", "Old", "Kyoto", "Recipes"] {
            notebooks[title] = try cli.note(title)["notebook"] as? String
        }
        #expect(
            notebooks == [
                "Top": "notes", "Plan": "work", "Old": "work-archive-2024", "Kyoto": "travel",
                "Recipes": "cafe",
            ])
    }

    @Test func aFolderWithNothingToImportSaysSoAndExits1() throws {
        let cli = try CLIRunner()
        defer { cli.cleanUp() }
        let folder = cli.home.appendingPathComponent("pictures")
        try write("png", "a.png", in: folder)
        try write("{}", ".config/x.json", in: folder)
        try write("png", "Sub/b.jpg", in: folder)
        let result = try cli.cn("import", folder.path)
        #expect(result.status == 1)
        #expect(
            result.stderr.contains(
                "nothing to import in \(folder.path): no .md, .markdown, .txt, .json, .jsonl file in it or its subfolders (ignored 2 files of another type and 1 hidden file or folder)"
            ), "\(result.stderr)")
        #expect(try cli.ids().isEmpty)
        let empty = cli.home.appendingPathComponent("empty")
        try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
        let none = try cli.cn("import", empty.path)
        #expect(none.status == 1)
        #expect(none.stderr.contains("nothing to import in \(empty.path)"), "\(none.stderr)")
    }

    @Test func reimportingAVaultFindsTheSameNotebooks() throws {
        let cli = try CLIRunner()
        defer { cli.cleanUp() }
        let vault = cli.home.appendingPathComponent("vault")
        try write("---\nid: 11111111-2222-4333-8444-555555555555\n---\n# A\n\nx\n", "Work/A.md", in: vault)
        try write("---\nid: 11111111-2222-4333-8444-666666666666\n---\n# B\n\ny\n", "work/B.md", in: vault)
        #expect(try cli.cn("import", vault.path).status == 0)
        let first = [try cli.note("A")["notebook"] as? String, try cli.note("B")["notebook"] as? String]
        #expect(first[0] != first[1], "Work and work are different folders")
        let again = try cli.cn("import", vault.path + "/")
        #expect(again.status == 0)
        #expect(again.stderr.contains("(0 new, 0 updated, 2 unchanged)"), "\(again.stderr)")
    }

    @Test func linksToFoldersAreNotFollowedSoALoopEnds() throws {
        let cli = try CLIRunner()
        defer { cli.cleanUp() }
        let vault = cli.home.appendingPathComponent("vault")
        try write("# A\n\nx\n", "Sub/A.md", in: vault)
        // A link back to the vault itself: following it would never end.
        try FileManager.default.createSymbolicLink(
            at: vault.appendingPathComponent("Sub/loop"), withDestinationURL: vault)
        let result = try cli.cn("import", vault.path)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(
            result.stderr.hasSuffix(
                "imported 1 note (1 new, 0 updated, 0 unchanged); skipped 0 files; ignored 1 symbolic link (Sub/loop; links are not followed)\n"
            ),
            "\(result.stderr)")
    }

    /// A vault someone else prepared: links out of it (a file, a folder) are not followed, so
    /// nothing outside the folder becomes a note; the summary names them.
    @Test func linksOutOfTheFolderAreNotFollowedAndAreNamed() throws {
        let cli = try CLIRunner()
        defer { cli.cleanUp() }
        let vault = cli.home.appendingPathComponent("vault")
        let outside = cli.home.appendingPathComponent("private")
        try write("# A\n\nx\n", "A.md", in: vault)
        try write("secret key material\n", "id_rsa", in: outside)
        try write("# Diary\n\nprivate diary\n", "diary/Diary.md", in: outside)
        let fm = FileManager.default
        try fm.createSymbolicLink(
            at: vault.appendingPathComponent("shadow.md"), withDestinationURL: outside.appendingPathComponent("id_rsa"))
        try fm.createSymbolicLink(
            at: vault.appendingPathComponent("Sub"), withDestinationURL: outside.appendingPathComponent("diary"))
        let result = try cli.cn("import", vault.path)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(
            result.stderrLines.last
                == "imported 1 note (1 new, 0 updated, 0 unchanged); skipped 0 files; ignored 2 symbolic links (Sub, shadow.md; links are not followed)",
            "\(result.stderr)")
        #expect(try cli.ids().count == 1)
        #expect(try cli.note("A")["body"] as? String == "x")
    }

    /// Folders name their notebooks (`Work Stuff/Projects`, not the id `work-stuff-projects`),
    /// and an export writes them back as the same nested folders, which a fresh device imports
    /// as the same notebooks.
    @Test func folderNamesAreNotebookNamesAndRoundTrip() throws {
        let cli = try CLIRunner()
        defer { cli.cleanUp() }
        let vault = cli.home.appendingPathComponent("vault")
        try write("# A\n\nx\n", "Work Stuff/Projects/a.md", in: vault)
        try write("# B\n\ny\n", "Work Stuff/b.md", in: vault)
        try write("# C\n\nz\n", "Café/c.md", in: vault)
        let result = try cli.cn("import", vault.path)
        #expect(result.status == 0, "\(result.stderr)")
        let lines = try cli.notebookLines(at: cli.dataDirectory)
        #expect(
            Set(lines) == [
                "work-stuff-projects=Work Stuff/Projects:1", "work-stuff=Work Stuff:1", "cafe=Café:1", "notes=notes:0",
            ],
            "\(lines)")
        let folder = cli.home.appendingPathComponent("export")
        #expect(try cli.cn("export", folder.path).status == 0)
        for path in ["Work Stuff/Projects/A.md", "Work Stuff/B.md", "Café/C.md"] {
            #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent(path).path), "\(path)")
        }
        let fresh = cli.device("fresh")
        #expect(try cli.cn(at: fresh, "import", folder.path).status == 0)
        #expect(try cli.notebookLines(at: fresh) == lines)
    }
}
