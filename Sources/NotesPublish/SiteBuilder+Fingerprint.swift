import Foundation
import NotesCore

extension SiteBuilder {
    /// What a note's page is made from, as one SHA-256 (hex): the note's title, body, tags, date
    /// and attachments, its notebook's name, where each of its links leads (the page, or none),
    /// the notes linking to it (title and page), the site's title and `renderer` (the version of
    /// the program, so a new renderer makes every page again). Two equal fingerprints make the
    /// same page; publish records them in its manifest and does not render a page again while
    /// its fingerprint stays (`site(…, unchanged:)`).
    static func fingerprint(
        _ note: Note, page: String, linkPages: [String?], backlinks: [(title: String, page: String)],
        notebook: String, siteTitle: String, renderer: String
    ) -> String {
        var parts: [String] = [
            "page", renderer, page, note.title, note.body, notebook, siteTitle,
            note.modifiedAt.formatted(.iso8601.year().month().day()),
        ]
        parts += ["tags"] + note.tags
        parts += ["attachments"] + note.attachments.flatMap { [$0.name, $0.sha256, String($0.size)] }
        parts += ["links"] + linkPages.map { $0 ?? "" }
        parts += ["backlinks"] + backlinks.flatMap { [$0.title, $0.page] }
        var hash = ContentHasher()
        for part in parts {
            // Each part with its length first, so no two lists of parts hash alike.
            hash.update(Data("\(part.utf8.count):".utf8))
            hash.update(Data(part.utf8))
        }
        return hash.finalize()
    }
}
