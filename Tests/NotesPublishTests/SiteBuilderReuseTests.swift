import Foundation
import NotesCore
import Testing

@testable import NotesPublish

/// Publishing again renders only the pages whose inputs changed (issue 26): a page's
/// fingerprint covers its note, where its links lead, its backlinks, its notebook's name, the
/// site's title and the program's version.
struct SiteBuilderReuseTests {
    typealias Fixture = SiteBuilderTests

    static func site(_ notes: [Note], renderer: String = "1", unchanged: [String: String] = [:]) -> PublishedSite {
        var targets: [UUID: [UUID?]] = [:]
        for note in notes {
            targets[note.id] = LinkParser.links(in: note.body).map { link in
                notes.first { $0.title == link.target || $0.title + ".md" == link.target }?.id
            }
        }
        return SiteBuilder.site(
            notes, linkTargets: targets, notebookNames: ["notes": "Notes"], title: "My notes", renderer: renderer,
            unchanged: unchanged)
    }

    /// The pages rendered (not kept), by path.
    static func rendered(_ site: PublishedSite) -> [String] {
        site.files.filter { $0.path.hasPrefix("notes/") && $0.content != .kept }.map(\.path)
    }

    @Test func onlyThePagesWhoseInputsChangedAreRenderedAgainAndTheyAreWhatAFullRenderMakes() {
        let notes = [Fixture.alpha, Fixture.beta]
        let first = Self.site(notes)
        #expect(Self.rendered(first) == ["notes/alpha-aaaaaaaa.html", "notes/beta-bbbbbbbb.html"])
        #expect(Set(first.fingerprints.keys) == ["notes/alpha-aaaaaaaa.html", "notes/beta-bbbbbbbb.html"])

        let again = Self.site(notes, unchanged: first.fingerprints)
        #expect(Self.rendered(again).isEmpty)
        #expect(again.fingerprints == first.fingerprints)
        #expect(again.text("index.html") == first.text("index.html"))

        // Beta's text changes: its page only (Alpha's backlink names Beta by title and page).
        var beta = Fixture.beta
        beta.body = "Back to [Alpha](Alpha.md), edited."
        let edited = Self.site([Fixture.alpha, beta], unchanged: first.fingerprints)
        #expect(Self.rendered(edited) == ["notes/beta-bbbbbbbb.html"])
        let full = Self.site([Fixture.alpha, beta])
        #expect(edited.text("notes/beta-bbbbbbbb.html") == full.text("notes/beta-bbbbbbbb.html"))

        // Beta is retitled: its page moves, and Alpha, which links to it, is made again.
        beta.title = "Gamma"
        var alpha = Fixture.alpha
        alpha.body = "# Alpha\n\nSee [[Gamma]] and [[Secret plan|the plan]]."
        let retitled = Self.site([alpha, beta], unchanged: first.fingerprints)
        #expect(Self.rendered(retitled) == ["notes/alpha-aaaaaaaa.html", "notes/gamma-bbbbbbbb.html"])

        // A note gains a backlink: its page is made again, with the new "Linked from".
        let delta = SiteBuilderTests.note("Delta", "about [[Beta]]", id: "DDDDDDDD-0000-0000-0000-000000000004")
        let linked = Self.site([Fixture.alpha, Fixture.beta, delta], unchanged: first.fingerprints)
        #expect(Self.rendered(linked) == ["notes/beta-bbbbbbbb.html", "notes/delta-dddddddd.html"])
        #expect(linked.text("notes/beta-bbbbbbbb.html")?.contains("delta-dddddddd.html\">Delta</a>") == true)

        // Another version of the program renders every page again.
        #expect(Self.rendered(Self.site(notes, renderer: "2", unchanged: first.fingerprints)).count == 2)
    }
}
