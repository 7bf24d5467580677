import Foundation
import NotesCore

/// The HTML pages of the site. Every string from a note goes through `HTMLText.escape` (or
/// `NoteRenderer` for a body); the rest is fixed text.
extension SiteBuilder {
    /// The policy every page carries in a meta tag: only the site's own files (scripts, styles,
    /// images); no inline script, no plugin, no `<base>`. A second wall behind the escaping.
    public static let contentSecurityPolicy =
        "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self'; object-src 'none'; base-uri 'none'"

    static func head(title: String, root: String, scripts: [String] = []) -> String {
        var html = """
            <!DOCTYPE html>
            <html lang="en">
            <head>
            <meta charset="utf-8">
            <meta http-equiv="Content-Security-Policy" content="\(contentSecurityPolicy)">
            <meta name="referrer" content="no-referrer">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <title>\(HTMLText.escape(title))</title>
            <link rel="stylesheet" href="\(root)style.css">
            <link rel="icon" href="\(root)icon.png">

            """
        for script in scripts { html += "<script src=\"\(root)\(script)\" defer></script>\n" }
        return html + "</head>\n"
    }

    static func indexPage(_ notes: [Note], _ pages: [UUID: String], _ notebooks: [String: String], _ title: String)
        -> String
    {
        var html = head(title: title, root: "", scripts: ["search-index.js", "search.js"])
        html += """
            <body>
            <header><h1>\(HTMLText.escape(title))</h1>
            <form role="search" action="index.html" method="get"><input id="q" type="search" name="q" placeholder="Search" aria-label="Search the notes"></form>
            </header>
            <main>
            <p id="search-status"></p>
            <ul id="results"></ul>

            """
        let byNotebook = Dictionary(grouping: notes) { notebooks[$0.zone] ?? $0.zone }
        for notebook in byNotebook.keys.sorted(by: { $0.lowercased() < $1.lowercased() }) {
            html += "<section class=\"notebook\"><h2>\(HTMLText.escape(notebook))</h2>\n<ul>\n"
            for note in byNotebook[notebook] ?? [] {
                guard let page = pages[note.id] else { continue }
                html += "<li><a href=\"\(pagesFolder)/\(page)\">\(HTMLText.escape(note.title))</a></li>\n"
            }
            html += "</ul></section>\n"
        }
        return html + "</main>\n</body>\n</html>\n"
    }

    static func notePage(
        _ note: Note, body: String, notebook: String, attachments: [(name: String, path: String)],
        backlinks: [(title: String, page: String)], siteTitle: String
    ) -> String {
        var html = head(title: note.title + " · " + siteTitle, root: "../")
        let date = note.modifiedAt.formatted(.iso8601.year().month().day())
        let tags = note.tags.map { "<span class=\"tag\">#\(HTMLText.escape($0))</span>" }.joined(separator: " ")
        html += """
            <body>
            <header><a href="../index.html">\(HTMLText.escape(siteTitle))</a>
            <form role="search" action="../index.html" method="get"><input type="search" name="q" placeholder="Search" aria-label="Search the notes"></form>
            </header>
            <main>
            <article>
            <h1 class="title">\(HTMLText.escape(note.title))</h1>
            <p class="meta">\(HTMLText.escape(notebook)) · \(date)\(tags.isEmpty ? "" : " · " + tags)</p>
            \(body)
            </article>

            """
        if !attachments.isEmpty {
            html += "<section class=\"attachments\"><h2>Attachments</h2>\n<ul>\n"
            for attachment in attachments {
                html +=
                    "<li><a href=\"\(HTMLText.escape(attachment.path))\">\(HTMLText.escape(attachment.name))</a></li>\n"
            }
            html += "</ul></section>\n"
        }
        if !backlinks.isEmpty {
            html += "<section class=\"backlinks\"><h2>Linked from</h2>\n<ul>\n"
            for link in backlinks.sorted(by: { $0.title.lowercased() < $1.title.lowercased() }) {
                html += "<li><a href=\"\(HTMLText.escape(link.page))\">\(HTMLText.escape(link.title))</a></li>\n"
            }
            html += "</ul></section>\n"
        }
        return html + "</main>\n</body>\n</html>\n"
    }

    /// One entry of the search index: title, page, notebook, tags and the body's words.
    struct SearchEntry: Encodable {
        var t: String
        var u: String
        var b: String
        var g: [String]
        var w: String
    }

    /// At most this many distinct words of a body go into the search index.
    static let maxIndexedWords = 400

    /// `search-index.js`: a script that sets `window.CLOUDNOTES_INDEX` (a script, not JSON, so a
    /// site opened from files reads it: browsers refuse `fetch` on file:// pages).
    static func searchIndex(_ notes: [Note], _ pages: [UUID: String], _ notebooks: [String: String]) -> String {
        let entries = notes.compactMap { note -> SearchEntry? in
            guard let page = pages[note.id] else { return nil }
            return SearchEntry(
                t: note.title, u: pagesFolder + "/" + page, b: notebooks[note.zone] ?? note.zone, g: note.tags,
                w: words(note.body).joined(separator: " "))
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        // Strings and arrays of strings always encode.
        let json = (try? encoder.encode(entries)).map { String(decoding: $0, as: UTF8.self) } ?? "[]"
        return "window.CLOUDNOTES_INDEX = " + json + ";\n"
    }

    /// The distinct lowercased words of `text`, in order, at most `maxIndexedWords`.
    static func words(_ text: String) -> [String] {
        var seen: Set<String> = []
        var out: [String] = []
        for word in text.lowercased().split(whereSeparator: { !$0.isLetter && !$0.isNumber }) {
            let word = String(word)
            if seen.insert(word).inserted {
                out.append(word)
                if out.count == maxIndexedWords { break }
            }
        }
        return out
    }
}
