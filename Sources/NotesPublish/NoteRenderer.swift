import Foundation
import Ink
import NotesCore

/// Renders a note's Markdown as the HTML of its published page, with Ink, so that nothing in
/// the note can become markup of its own (DECISIONS D-159):
///
/// 1. Links to notes (`LinkParser`: `[[Title]]`, `[text](Other.md)`) become placeholders, filled
///    in at the end with a link to the published page, or the link's text when the note it leads
///    to is not published (no title, no id, no path of it reaches the page).
/// 2. `&`, `<` and `"` in the whole text become character references before Ink reads it: Ink
///    passes raw HTML through, and with no `<` left there is none; with no `"` no URL can close
///    its attribute. Ink keeps references in text as they are; in code it escapes `&` again,
///    which step 4 undoes.
/// 3. Ink's links and images are rebuilt by modifiers: `http`, `https` and `mailto` links stay
///    links, a path that names one of the note's attachments leads to its file, anything else
///    (`javascript:`, `data:`, another site's image) is shown as its text.
/// 4. Code is unescaped once; `[ ]` and `[x]` list items become check boxes.
struct NoteRenderer {
    /// Published note → its page's file name in the pages' folder.
    var pages: [UUID: String]

    /// Private-use characters that mark a placeholder; a note's own are replaced first.
    static let open: Unicode.Scalar = "\u{E000}"
    static let close: Unicode.Scalar = "\u{E001}"
    static let guardMark: Unicode.Scalar = "\u{E002}"

    /// The HTML of `note`'s body. `linkTargets`: where each of its links (`LinkParser` order)
    /// leads, nil for none; `attachments`: attachment name → its file's path from the page.
    func html(of note: Note, linkTargets: [UUID?], attachments: [String: String]) -> String {
        let body = String(
            String.UnicodeScalarView(
                note.body.unicodeScalars.map {
                    $0 == Self.open || $0 == Self.close || $0 == Self.guardMark ? "\u{FFFD}" : $0
                }))
        var fills: [String] = []
        var markdown = withPlaceholders(body, linkTargets: linkTargets, fills: &fills)
        // Ink reads `---` lines at the very start as metadata and drops them: a marker paragraph
        // in front keeps them text, and is taken out after.
        let startsWithDash = markdown.drop { $0.isWhitespace }.first == "-"
        if startsWithDash { markdown = String(Character(Self.guardMark)) + "\n\n" + markdown }
        let parser = MarkdownParser(modifiers: [
            Modifier(target: .links) { input in Self.link(input.html, attachments: attachments) },
            Modifier(target: .images) { input in Self.image(input.html, attachments: attachments) },
        ])
        var html = parser.html(from: Self.escapeForInk(markdown))
        html = Self.unescapingCode(html)
        html = Self.checkBoxes(html)
        if startsWithDash {
            html = html.replacingOccurrences(of: "<p>" + String(Character(Self.guardMark)) + "</p>", with: "")
        }
        return Self.filling(html, fills)
    }

    /// `body` with each note link replaced by a placeholder (`\u{E000}N\u{E001}`); `fills[N]`
    /// is its HTML.
    func withPlaceholders(_ body: String, linkTargets: [UUID?], fills: inout [String]) -> String {
        let links = LinkParser.links(in: body)
        guard !links.isEmpty else { return body }
        let bytes = Array(body.utf8)
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var position = 0
        for (index, link) in links.enumerated() where link.range.lowerBound >= position {
            out += bytes[position..<link.range.lowerBound]
            let text = HTMLText.escape(link.shown ?? link.target)
            let target = index < linkTargets.count ? linkTargets[index] : nil
            if let target, let page = pages[target] {
                fills.append("<a class=\"note-link\" href=\"\(HTMLText.escape(page))\">\(text)</a>")
            } else {
                fills.append("<span class=\"unpublished\">\(text)</span>")
            }
            out += Array((String(Character(Self.open)) + String(fills.count - 1) + String(Character(Self.close))).utf8)
            position = link.range.upperBound
        }
        out += bytes[position...]
        return String(decoding: out, as: UTF8.self)
    }

    /// Step 2: `&`, `<` and `"` as references.
    static func escapeForInk(_ markdown: String) -> String {
        var out = ""
        out.reserveCapacity(markdown.utf8.count + markdown.utf8.count / 8)
        for scalar in markdown.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case "\"": out += "&quot;"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// Ink's `<a href="URL">TEXT</a>` rebuilt: see the type's step 3.
    static func link(_ html: String, attachments: [String: String]) -> String {
        let prefix = "<a href=\""
        guard html.hasPrefix(prefix), html.hasSuffix("</a>"),
            let end = html.range(of: "\">", range: html.index(html.startIndex, offsetBy: prefix.count)..<html.endIndex)
        else { return "" }
        let url = HTMLText.unescape(String(html[html.index(html.startIndex, offsetBy: prefix.count)..<end.lowerBound]))
        let text = String(html[end.upperBound..<html.index(html.endIndex, offsetBy: -4)])
        switch LinkTarget(url) {
        case .external(let url):
            return "<a href=\"\(HTMLText.escape(url))\" rel=\"noopener noreferrer\">\(text)</a>"
        case .relative(let path):
            if let file = attachments[path.removingPercentEncoding ?? path] ?? attachments[path] {
                return "<a href=\"\(HTMLText.escape(file))\">\(text)</a>"
            }
            if path.hasPrefix("#") { return "<a href=\"\(HTMLText.escape(path))\">\(text)</a>" }
            return "<span class=\"unpublished\">\(text)</span>"
        case .refused:
            return "<span class=\"refused\">\(text)</span>"
        }
    }

    /// Ink's `<img src="URL" alt="TEXT"/>` rebuilt: an attachment of the note is shown; any other
    /// image (another site's would be loaded from outside the site) is its text. Ink writes the
    /// alt text as HTML (a link in it has quotes), so it is reduced to text and escaped again.
    static func image(_ html: String, attachments: [String: String]) -> String {
        let prefix = "<img src=\""
        guard html.hasPrefix(prefix), let srcEnd = html.dropFirst(prefix.count).firstIndex(of: "\"") else {
            return ""
        }
        let url = HTMLText.unescape(String(html[html.index(html.startIndex, offsetBy: prefix.count)..<srcEnd]))
        var alt = ""
        if let altStart = html.range(of: " alt=\"", range: srcEnd..<html.endIndex), html.hasSuffix("\"/>") {
            let raw = html[altStart.upperBound..<html.index(html.endIndex, offsetBy: -3)]
            alt = HTMLText.escape(HTMLText.unescape(withoutTags(String(raw))))
        }
        if case .relative(let path) = LinkTarget(url),
            let file = attachments[path.removingPercentEncoding ?? path] ?? attachments[path]
        {
            return "<img src=\"\(HTMLText.escape(file))\" alt=\"\(alt)\">"
        }
        return "<span class=\"image-text\">\(alt)</span>"
    }

    /// `html` without its tags (`<…>`).
    static func withoutTags(_ html: String) -> String {
        var out = ""
        var inTag = false
        for character in html {
            if character == "<" {
                inTag = true
            } else if character == ">" && inTag {
                inTag = false
            } else if !inTag {
                out.append(character)
            }
        }
        return out
    }

    /// Step 4: in `<code>` elements Ink escaped the `&` of step 2's references again
    /// (`&amp;lt;`); once is right. Only Ink writes `<code` (no `<` of the note is left).
    static func unescapingCode(_ html: String) -> String {
        guard html.contains("<code") else { return html }
        var out = ""
        var rest = Substring(html)
        while let start = rest.range(of: "<code") {
            guard let tagEnd = rest.range(of: ">", range: start.upperBound..<rest.endIndex) else { break }
            // A language class may hold `>`; it cannot hold `"`, so the tag ends at `">` then.
            var contentStart = tagEnd.upperBound
            if rest[start.upperBound...].hasPrefix(" class=\""),
                let classEnd = rest.range(of: "\">", range: start.upperBound..<rest.endIndex)
            {
                contentStart = classEnd.upperBound
            }
            guard let end = rest.range(of: "</code>", range: contentStart..<rest.endIndex) else { break }
            out += rest[..<contentStart]
            out += rest[contentStart..<end.lowerBound].replacingOccurrences(of: "&amp;", with: "&")
            out += "</code>"
            rest = rest[end.upperBound...]
        }
        return out + rest
    }

    /// Task list items as check boxes that cannot be changed (the page is a copy).
    static func checkBoxes(_ html: String) -> String {
        guard html.contains("<li>[") else { return html }
        return
            html
            .replacingOccurrences(of: "<li>[ ] ", with: "<li class=\"task\"><input type=\"checkbox\" disabled> ")
            .replacingOccurrences(
                of: "<li>[x] ", with: "<li class=\"task\"><input type=\"checkbox\" checked disabled> "
            )
            .replacingOccurrences(
                of: "<li>[X] ", with: "<li class=\"task\"><input type=\"checkbox\" checked disabled> ")
    }

    /// The placeholders of step 1 replaced by their HTML.
    static func filling(_ html: String, _ fills: [String]) -> String {
        guard !fills.isEmpty else { return html }
        var out = ""
        var scalars = html.unicodeScalars[...]
        while let start = scalars.firstIndex(of: open) {
            out.unicodeScalars.append(contentsOf: scalars[..<start])
            let afterOpen = scalars.index(after: start)
            guard let end = scalars[afterOpen...].firstIndex(of: close),
                let index = Int(String(String.UnicodeScalarView(scalars[afterOpen..<end]))),
                fills.indices.contains(index)
            else {
                scalars = scalars[afterOpen...]
                continue
            }
            out += fills[index]
            scalars = scalars[scalars.index(after: end)...]
        }
        out.unicodeScalars.append(contentsOf: scalars)
        return out
    }
}
