import Foundation
import Testing

/// `cloudnotes publish`: what it writes, what it rewrites, what it removes and what it refuses.
@Suite struct PublishTests {
    static func inode(_ path: String) -> UInt64? {
        var info = stat()
        return stat(path, &info) == 0 ? UInt64(info.st_ino) : nil
    }

    static func pages(_ site: URL) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: site.appendingPathComponent("notes").path)) ?? [])
            .filter { $0.hasSuffix(".html") }.sorted()
    }

    @Test func publishingAgainRewritesOnlyWhatChangedAndRemovesWhatIsNoLongerPublished() throws {
        let cli = try CLIRunner()
        defer { cli.cleanUp() }
        try cli.cn("notebook", "create", "Public")
        let alpha = try cli.add("Alpha", body: "alpha text", "--notebook", "Public")
        try cli.add("Beta", body: "links to [[Alpha]]", "--notebook", "Public")
        try cli.add("Gamma", body: "gamma", "--notebook", "Public")
        let site = cli.home.appendingPathComponent("site")
        let first = try cli.cn("publish", "Public", site.path)
        #expect(first.status == 0, "\(first.stderr)")
        #expect(first.stderr.contains("published 3 notes"))
        let pages = Self.pages(site)
        #expect(pages.count == 3)
        #expect(pages.contains { $0.hasPrefix("alpha-") } && pages.contains { $0.hasPrefix("gamma-") })
        let inodes = Dictionary(
            uniqueKeysWithValues: pages.map { ($0, Self.inode(site.path + "/notes/" + $0)) })
        let indexInode = Self.inode(site.path + "/index.html")

        // Nothing changed: nothing is written.
        let same = try cli.cn("publish", "Public", site.path)
        #expect(same.stderr.contains("0 file(s) written"), "\(same.stderr)")

        // One edit: its page and the search index change; every other file keeps its inode.
        try cli.cn("edit", alpha, "--body", "alpha text, edited")
        let edited = try cli.cn("publish", "Public", site.path)
        #expect(edited.stderr.contains("2 file(s) written"), "\(edited.stderr)")
        for page in pages {
            let changed = Self.inode(site.path + "/notes/" + page) != inodes[page] ?? nil
            #expect(changed == page.hasPrefix("alpha-"), "\(page)")
        }
        #expect(Self.inode(site.path + "/index.html") == indexInode)
        let alphaPage = try String(
            contentsOfFile: site.path + "/notes/" + (pages.first { $0.hasPrefix("alpha-") } ?? ""), encoding: .utf8)
        #expect(alphaPage.contains("alpha text, edited"))

        // A file of the person's own in the folder is left alone; Gamma is no longer published.
        try Data("mine".utf8).write(to: site.appendingPathComponent("notes/mine.txt"))
        let fewer = try cli.cn("publish", "Alpha", "Beta", site.path)
        #expect(fewer.status == 0, "\(fewer.stderr)")
        #expect(fewer.stderr.contains("1 removed"), "\(fewer.stderr)")
        #expect(!Self.pages(site).contains { $0.hasPrefix("gamma-") })
        #expect(Self.pages(site).count == 2)
        #expect(FileManager.default.fileExists(atPath: site.path + "/notes/mine.txt"))
        let index = try String(contentsOfFile: site.path + "/index.html", encoding: .utf8)
        #expect(!index.contains("Gamma"))
    }

    @Test func aFolderWithOtherFilesIsRefusedAndKeptAsItIs() throws {
        let cli = try CLIRunner()
        defer { cli.cleanUp() }
        try cli.add("Alpha", body: "a")
        let folder = cli.home.appendingPathComponent("docs")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try Data("keep".utf8).write(to: folder.appendingPathComponent("index.html"))
        let refused = try cli.cn("publish", "Alpha", folder.path)
        #expect(refused.status == 1)
        #expect(
            refused.stderr
                == "cloudnotes: \(folder.path) holds files that publish did not write; give an empty or new folder\n")
        #expect(try String(contentsOf: folder.appendingPathComponent("index.html"), encoding: .utf8) == "keep")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["index.html"])
    }

    @Test func aFileInTheWayThatPublishDidNotWriteIsNotReplaced() throws {
        let cli = try CLIRunner()
        defer { cli.cleanUp() }
        try cli.add("Alpha", body: "a")
        let site = cli.home.appendingPathComponent("site")
        #expect(try cli.cn("publish", "Alpha", site.path).status == 0)
        // The person drops a file where the next publish wants to write Beta's page.
        let beta = try cli.add("Beta", body: "b")
        let page = site.path + "/notes/beta-" + beta.prefix(8) + ".html"
        try Data("mine".utf8).write(to: URL(fileURLWithPath: page))
        let again = try cli.cn("publish", "Alpha", "Beta", site.path)
        #expect(again.status == 1)
        #expect(again.stderr == "cloudnotes: \(page) exists and publish did not write it; move it away first\n")
        #expect(try String(contentsOfFile: page, encoding: .utf8) == "mine")
    }

    @Test func sourcesAreNotebooksViewsAndNotes() throws {
        let cli = try CLIRunner()
        defer { cli.cleanUp() }
        try cli.cn("notebook", "create", "Work")
        try cli.add("In work", body: "w", "--notebook", "Work")
        try cli.add("Tagged", body: "t", "--tag", "pub")
        try cli.add("Single", body: "s")
        try cli.add("Other", body: "o")
        try cli.cn("view", "save", "public", "tag:pub")
        let site = cli.home.appendingPathComponent("site")
        let result = try cli.cn("publish", "notebook:Work", "view:public", "Single", site.path)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(Self.pages(site).map { String($0.prefix { $0 != "-" }) }.sorted() == ["in", "single", "tagged"])
        let missing = try cli.cn("publish", "view:nope", cli.home.appendingPathComponent("x").path)
        #expect(missing.stderr == "cloudnotes: no view named \"nope\"; `cloudnotes views` lists them\n")
    }
}
