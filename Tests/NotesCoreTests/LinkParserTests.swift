import NotesCore
import NotesTestSupport
import Testing

@Suite struct LinkParserTests {
    func targets(_ body: String) -> [String] { LinkParser.links(in: body).map(\.target) }

    @Test func wikiLinksWithHeadingsShownTextAndFolders() throws {
        let body = "See [[Trip to Zürich]], [[Plan#Day 2|the plan]] and [[Work/Projects/Roadmap]]."
        let links = LinkParser.links(in: body)
        #expect(links.map(\.target) == ["Trip to Zürich", "Plan", "Roadmap"])
        #expect(links.map(\.heading) == [nil, "Day 2", nil])
        #expect(links.map(\.shown) == [nil, "the plan", nil])
        #expect(links.map(\.folder) == [nil, nil, "Work/Projects"])
        #expect(links.allSatisfy { $0.kind == .wiki })
        // The target range is where a rename writes the new title.
        let bytes = Array(body.utf8)
        for link in links {
            #expect(String(decoding: bytes[link.targetRange], as: UTF8.self) == link.target)
        }
    }

    @Test func markdownLinksToNoteFilesOnly() throws {
        let body = """
            [x](Other%20Note.md) [y](<Work/My Note.md#Intro>) [web](https://e.com/a.md)
            [img](pic.png) [mail](mailto:a@b.md) [up](../Notes/Caf%C3%A9.MD) [bad](%zz.md)
            """
        let links = LinkParser.links(in: body)
        #expect(links.map(\.target) == ["Other Note", "My Note", "Café", "%zz"])
        #expect(links.map(\.folder) == [nil, "Work", "Notes", nil])
        #expect(links.map(\.heading) == [nil, "Intro", nil, nil])
        #expect(links.map(\.shown) == ["x", "y", "up", "bad"])
        #expect(links.allSatisfy { $0.kind == .markdown })
        let bytes = Array(body.utf8)
        #expect(String(decoding: bytes[links[0].targetRange], as: UTF8.self) == "Other%20Note")
    }

    @Test func codeAndBrokenSyntaxAreNotLinks() throws {
        let body = """
            `[[in code]]` [[real]]
            ```
            [[fenced]]
            ```
            [[unclosed
            [[]] [[#only heading]] [[a
            b]] [[ spaced ]]
            """
        #expect(targets(body) == ["real", "spaced"])
    }

    @Test func anyBytesParseWithoutTrapping() throws {
        let seed = SeededRandom.seed(default: 20_261_124)
        var random = SeededRandom(seed: seed)
        let pieces = [
            "[[", "]]", "[", "]", "(", ")", "#", "|", "/", "%", ".md", "`", "```", "\n", "é", "a", " ", "<", ">",
        ]
        for _ in 0..<2000 {
            let text = (0..<random.below(40)).map { _ in pieces[random.below(pieces.count)] }.joined()
            let bytes = Array(text.utf8)
            for link in LinkParser.links(in: text) {
                #expect(link.targetRange.upperBound <= bytes.count, "seed \(seed): \(text)")
                #expect(!link.target.isEmpty, "seed \(seed): \(text)")
            }
        }
    }

    @Test func fileStemsArePercentEncodedForMarkdownLinks() {
        #expect(LinkParser.encodedFileStem("My (new) Note #2") == "My%20%28new%29%20Note%20%232")
        #expect(LinkParser.decoded(LinkParser.encodedFileStem("a b/c%d")) == "a b/c%d")
    }
}
