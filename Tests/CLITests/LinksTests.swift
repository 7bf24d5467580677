import Foundation
import Testing

@Suite struct LinksTests {
    struct Linked: Decodable, Equatable {
        var id: String
        var title: String
        var notebook: String
    }

    struct LinkRow: Decodable, Equatable {
        var kind: String
        var target: String
        var heading: String?
        var shown: String?
        var note: Linked?
    }

    @Test func linksBacklinksAndRenameWithUpdateLinks() throws {
        let cli = try CLIRunner()
        defer { cli.cleanUp() }
        let target = try cli.add("Reading List", body: "books")
        let source = try cli.add("Today", body: "see [[Reading List#Fiction|books]] and [x](Missing%20Note.md)")
        let links = try JSONDecoder().decode([LinkRow].self, from: cli.cn("links", source, "--json").stdoutData)
        #expect(
            links == [
                LinkRow(
                    kind: "wiki", target: "Reading List", heading: "Fiction", shown: "books",
                    note: Linked(id: target, title: "Reading List", notebook: "notes")),
                LinkRow(kind: "markdown", target: "Missing Note", heading: nil, shown: "x", note: nil),
            ])
        let plain = try cli.cn("links", source)
        #expect(
            plain.stdout
                == "Reading List#Fiction  →  \(target.prefix(8))  Reading List\nMissing Note  →  (no such note)\n")
        let back = try JSONDecoder().decode(
            [Linked].self, from: cli.cn("backlinks", "Reading List", "--json").stdoutData)
        #expect(back == [Linked(id: source, title: "Today", notebook: "notes")])
        // Piped (no terminal to ask), rename keeps links unless told.
        let kept = try cli.cn("rename", target, "Books")
        #expect(kept.status == 0, "\(kept.stderr)")
        #expect(
            kept.stdout == "renamed to Books\n1 note(s) still link to the old title (--update-links rewrites them)\n")
        #expect(try cli.cn("backlinks", target).stdout == "")
        #expect(try cli.cn("rename", target, "Reading List", "--keep-links").status == 0)
        let updated = try cli.cn("rename", target, "To Read", "--update-links")
        #expect(updated.stdout == "renamed to To Read\nupdated links in 1 note(s)\n")
        #expect(try cli.note(source)["body"] as? String == "see [[To Read#Fiction|books]] and [x](Missing%20Note.md)")
        #expect(try cli.cn("backlinks", target).stdout == "\(source.prefix(8))  Today\n")
        let both = try cli.cn("rename", target, "x", "--update-links", "--keep-links")
        #expect(both.status == 1)
    }

    /// Obsidian and Markdown links by a file name that is not the note's title (`zk-001.md`
    /// holding `# My idea`) resolve after import: the file name is kept as an alias.
    @Test func linksByAnImportedFileNameResolve() throws {
        let cli = try CLIRunner()
        defer { cli.cleanUp() }
        let vault = cli.home.appendingPathComponent("vault")
        try FileManager.default.createDirectory(
            at: vault.appendingPathComponent("Ideas"), withIntermediateDirectories: true)
        try Data("# My idea\n\nthe idea\n".utf8).write(to: vault.appendingPathComponent("Ideas/zk-001.md"))
        try Data("---\ntitle: Other name\n---\nsee [[zk-001]] and [it](Ideas/zk-001.md)\n".utf8).write(
            to: vault.appendingPathComponent("index page.md"))
        let imported = try cli.cn("import", vault.path)
        #expect(imported.status == 0, "\(imported.stderr)")
        let links = try JSONDecoder().decode(
            [LinkRow].self, from: cli.cn("links", "Other name", "--json").stdoutData)
        #expect(links.map(\.note?.title) == ["My idea", "My idea"], "\(links)")
        let back = try JSONDecoder().decode([Linked].self, from: cli.cn("backlinks", "My idea", "--json").stdoutData)
        #expect(back.map(\.title) == ["Other name"])
        // Linked by its own file name too ("index page"), which is not its title.
        let byName = try cli.add("Later", body: "[[index page]]")
        let later = try JSONDecoder().decode([LinkRow].self, from: cli.cn("links", byName, "--json").stdoutData)
        #expect(later.first?.note?.title == "Other name")
    }
}
