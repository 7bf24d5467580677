import Foundation
import NotesCore
import Testing

@testable import NotesPublish

/// The site as values: pages, links, backlinks, attachments and the search index.
struct SiteBuilderTests {
    static let day = Date(timeIntervalSince1970: 1_790_000_000)

    static func note(_ title: String, _ body: String, id: String, zone: String = "notes", tags: [String] = [])
        -> Note
    {
        Note(
            id: UUID(uuidString: id) ?? UUID(), zone: zone, title: title, body: body, tags: tags, createdAt: day)
    }

    static let alpha = note(
        "Alpha", "# Alpha\n\nSee [[Beta]] and [[Secret plan|the plan]].", id: "AAAAAAAA-0000-0000-0000-000000000001")
    static let beta = note(
        "Beta", "Back to [Alpha](Alpha.md).", id: "BBBBBBBB-0000-0000-0000-000000000002", tags: ["work"])
    static let secretID = UUID(uuidString: "CCCCCCCC-0000-0000-0000-000000000003") ?? UUID()

    static func site() -> PublishedSite {
        SiteBuilder.site(
            [alpha, beta], linkTargets: [alpha.id: [beta.id, secretID], beta.id: [alpha.id]],
            notebookNames: ["notes": "Notes"], title: "My notes")
    }

    @Test func theSiteHasAnIndexAPagePerNoteAStyleSheetAndASearchIndex() {
        #expect(
            Self.site().files.map(\.path) == [
                "icon.png", "index.html", "notes/alpha-aaaaaaaa.html", "notes/beta-bbbbbbbb.html", "search-index.js",
                "search.js",
                "style.css",
            ])
        let index = Self.site().text("index.html") ?? ""
        #expect(index.contains("<a href=\"notes/alpha-aaaaaaaa.html\">Alpha</a>"))
        #expect(index.contains("<script src=\"search.js\" defer></script>"))
    }

    @Test func linksBetweenPublishedNotesAreHyperlinksAndAnUnpublishedOneIsItsTextOnly() {
        let alpha = Self.site().text("notes/alpha-aaaaaaaa.html") ?? ""
        #expect(alpha.contains("<a class=\"note-link\" href=\"beta-bbbbbbbb.html\">Beta</a>"))
        #expect(alpha.contains("<span class=\"unpublished\">the plan</span>"))
        #expect(!alpha.contains("Secret"))
        #expect(!alpha.lowercased().contains("cccccccc"))
        let beta = Self.site().text("notes/beta-bbbbbbbb.html") ?? ""
        #expect(beta.contains("<a class=\"note-link\" href=\"alpha-aaaaaaaa.html\">Alpha</a>"))
    }

    @Test func backlinksListOnlyPublishedNotes() {
        let beta = Self.site().text("notes/beta-bbbbbbbb.html") ?? ""
        #expect(beta.contains("<h2>Linked from</h2>\n<ul>\n<li><a href=\"alpha-aaaaaaaa.html\">Alpha</a></li>"))
        // Alpha is linked from Beta; nothing else (the unpublished note links to nothing here).
        let alpha = Self.site().text("notes/alpha-aaaaaaaa.html") ?? ""
        #expect(alpha.contains("<li><a href=\"beta-bbbbbbbb.html\">Beta</a></li>"))
    }

    @Test func markdownIsRenderedHeadingsListsTaskBoxesCodeAndTables() {
        let body = """
            ## Plan

            - [ ] buy milk
            - [x] call Bob
            - plain

            1. one
            2. two

            `a < b && c`

            ```swift
            if a < b { print("&amp;") }
            ```

            | a | b |
            |---|---|
            | 1 | 2 |

            [site](https://example.org/x?a=1&b=2)
            """
        let note = Self.note("Plan", body, id: "DDDDDDDD-0000-0000-0000-000000000004")
        let html =
            SiteBuilder.site([note], linkTargets: [:], notebookNames: [:], title: "N").text(
                "notes/plan-dddddddd.html") ?? ""
        #expect(html.contains("<h2>Plan</h2>"))
        #expect(html.contains("<li class=\"task\"><input type=\"checkbox\" disabled> buy milk</li>"))
        #expect(html.contains("<li class=\"task\"><input type=\"checkbox\" checked disabled> call Bob</li>"))
        #expect(html.contains("<li>plain</li>"))
        #expect(html.contains("<ol><li>one</li><li>two</li></ol>"))
        #expect(html.contains("<code>a &lt; b &amp;&amp; c</code>"))
        #expect(html.contains("<pre><code class=\"language-swift\">if a &lt; b { print(&quot;&amp;amp;&quot;) }"))
        #expect(html.contains("<table>"))
        #expect(html.contains("<td>1</td>"))
        #expect(
            html.contains("<a href=\"https://example.org/x?a=1&amp;b=2\" rel=\"noopener noreferrer\">site</a>"))
    }

    @Test func attachmentsGoBesideThePageAndAnImageOfTheNoteIsShown() {
        var note = Self.note(
            "Trip", "![map](map%20v2.png) and [the ticket](ticket.pdf)", id: "EEEEEEEE-0000-0000-0000-000000000005")
        note.attachments = [
            Attachment(name: "map v2.png", size: 3, sha256: String(repeating: "a", count: 64)),
            Attachment(name: "ticket.pdf", size: 4, sha256: String(repeating: "b", count: 64)),
        ]
        let site = SiteBuilder.site([note], linkTargets: [:], notebookNames: [:], title: "N")
        #expect(
            site.file("notes/trip-eeeeeeee/map-v2.png")?.content
                == .attachment(sha256: String(repeating: "a", count: 64), size: 3))
        let html = site.text("notes/trip-eeeeeeee.html") ?? ""
        #expect(html.contains("<img src=\"trip-eeeeeeee/map-v2.png\" alt=\"map\">"))
        #expect(html.contains("<a href=\"trip-eeeeeeee/ticket.pdf\">the ticket</a>"))
    }

    @Test func theSearchIndexHasTitlesPagesTagsAndWords() {
        let index = Self.site().text("search-index.js") ?? ""
        #expect(index.hasPrefix("window.CLOUDNOTES_INDEX = [{"))
        #expect(index.contains("\"g\":[\"work\"],\"t\":\"Beta\",\"u\":\"notes\\/beta-bbbbbbbb.html\""))
        #expect(index.contains("\"w\":\"back to alpha md\""))
    }

    @Test func theSameNotesGiveTheSameBytes() {
        #expect(Self.site() == Self.site())
    }
}
