import Foundation
import NotesCore
import Testing

@testable import NotesPublish

/// Hostile notes: nothing a note holds becomes markup, an attribute or a script URL.
struct NoteRendererEscapingTests {
    /// The tags and attributes the site's own HTML (and Ink) use; anything else on a page came
    /// from a note.
    static let allowedTags: Set<String> = [
        "!doctype", "html", "head", "meta", "title", "link", "script", "body", "header", "main", "article", "section",
        "form", "input", "h1", "h2", "h3", "h4", "h5", "h6", "p", "ul", "ol", "li", "a", "span", "code", "pre",
        "em", "strong", "del", "blockquote", "hr", "br", "img", "table", "thead", "tbody", "tr", "th", "td",
    ]
    static let allowedAttributes: Set<String> = [
        "lang", "charset", "http-equiv", "content", "name", "rel", "href", "src", "defer", "role", "action",
        "method", "id", "type", "placeholder", "aria-label", "class", "alt", "disabled", "checked", "start", "align",
    ]

    /// Every tag of `html` with its attributes, parsed as a browser tokenizes start tags.
    static func tags(_ html: String) -> [(name: String, attributes: [(String, String)])] {
        var result: [(String, [(String, String)])] = []
        let chars = Array(html)
        var i = 0
        func skipSpace() { while i < chars.count, chars[i].isWhitespace { i += 1 } }
        while i < chars.count {
            guard chars[i] == "<" else {
                i += 1
                continue
            }
            i += 1
            if i < chars.count, chars[i] == "/" {
                while i < chars.count, chars[i] != ">" { i += 1 }
                continue
            }
            var name = ""
            while i < chars.count, !chars[i].isWhitespace, chars[i] != ">", chars[i] != "/" {
                name.append(chars[i])
                i += 1
            }
            var attributes: [(String, String)] = []
            while i < chars.count, chars[i] != ">" {
                skipSpace()
                if i < chars.count, chars[i] == "/" {
                    i += 1
                    continue
                }
                var attribute = ""
                while i < chars.count, !chars[i].isWhitespace, chars[i] != "=", chars[i] != ">", chars[i] != "/" {
                    attribute.append(chars[i])
                    i += 1
                }
                var value = ""
                skipSpace()
                if i < chars.count, chars[i] == "=" {
                    i += 1
                    skipSpace()
                    if i < chars.count, chars[i] == "\"" || chars[i] == "'" {
                        let quote = chars[i]
                        i += 1
                        while i < chars.count, chars[i] != quote {
                            value.append(chars[i])
                            i += 1
                        }
                        i += 1
                    } else {
                        while i < chars.count, !chars[i].isWhitespace, chars[i] != ">" {
                            value.append(chars[i])
                            i += 1
                        }
                    }
                }
                if !attribute.isEmpty { attributes.append((attribute.lowercased(), value)) }
            }
            result.append((name.lowercased(), attributes))
        }
        return result
    }

    static let hostile = [
        "<script>document.title='pwned'</script>",
        "<img src=x onerror=\"document.body.appendChild(document.createElement('blink'))\">",
        "[click](javascript:alert(1))",
        "[click2]( JaVaScRiPt:alert(1))",
        "[tab](java\tscript:alert(1))",
        "[data](data:text/html,<script>alert(1)</script>)",
        "[quote](x\" onmouseover=\"alert(1))",
        "![pic](x\" onerror=\"alert(1))",
        "![[a](y onerror=alert(1) z)](pic.png)",
        "![remote](https://tracker.example/pixel.png)",
        "<a href=\"javascript:alert(1)\">x</a>",
        "`<script>alert(1)</script>`",
        "```html\n<script>alert(1)</script>\n```",
        "```\"><script>alert(1)</script>\n```",
        "&lt;script&gt;alert(1)&lt;/script&gt;",
        "&#60;script&#62;",
        "<!-- comment --><style>body{display:none}</style>",
        "[[<script>alert(1)</script>]]",
        "<svg onload=alert(1)>",
        "\\<script>alert(1)\\</script>",
        "<<script>script>alert(1)<</script>/script>",
        "[x](//evil.example/a)",
        "---\nkey: <script>\n---",
    ]

    static func page(_ body: String, title: String = "T", tags: [String] = []) -> String {
        let note = Note(
            id: UUID(uuidString: "AAAAAAAA-0000-0000-0000-000000000001") ?? UUID(), zone: "z", title: title, body: body,
            tags: tags)
        let site = SiteBuilder.site([note], linkTargets: [:], notebookNames: ["z": title], title: title)
        return site.files.first { $0.path.hasPrefix("notes/") && $0.path.hasSuffix(".html") }.flatMap {
            site.text($0.path)
        } ?? ""
    }

    @Test(arguments: hostile)
    func aHostileNoteAddsNoTagNoAttributeAndNoScriptURL(_ body: String) {
        let html = Self.page(body)
        #expect(!html.isEmpty)
        for tag in Self.tags(html) {
            #expect(Self.allowedTags.contains(tag.name), "unexpected tag <\(tag.name)> from \(body): \(html)")
            for (name, value) in tag.attributes where tag.name != "!doctype" {
                #expect(Self.allowedAttributes.contains(name), "unexpected attribute \(name) from \(body)")
                if name == "href" || name == "src" {
                    let decoded = HTMLText.unescape(value).lowercased().filter { !$0.isWhitespace }
                    #expect(!decoded.hasPrefix("javascript:") && !decoded.hasPrefix("data:"), "\(value)")
                    #expect(!decoded.hasPrefix("//"), "another site in \(value)")
                }
            }
            if tag.name == "script" {
                #expect(tag.attributes.map(\.0) == ["src", "defer"], "a script of the note's own: \(html)")
            }
            if tag.name == "img" {
                #expect(!(tag.attributes.first { $0.0 == "src" }?.1.contains(":") ?? false), "a remote image")
            }
        }
    }

    @Test func hostileTextIsShownAsText() {
        #expect(Self.page("<script>alert(1)</script>").contains("<p>&lt;script&gt;alert(1)&lt;/script&gt;</p>"))
        #expect(Self.page("[click](javascript:alert(1))").contains("<span class=\"refused\">click</span>"))
        #expect(Self.page("`<b>`").contains("<code>&lt;b&gt;</code>"))
        #expect(Self.page("&amp; &#60;").contains("&amp;amp; &amp;#60;"))
    }

    @Test func htmlInTitlesTagsAndNotebookNamesIsText() {
        let evil = "<img src=x onerror=alert(1)>\"'"
        let html = Self.page("body", title: evil, tags: [evil])
        #expect(!html.contains("<img"))
        #expect(html.contains("&lt;img src=x onerror=alert(1)&gt;&quot;&#39;"))
        for tag in Self.tags(html) { #expect(Self.allowedTags.contains(tag.name)) }
    }

    @Test func everyPageCarriesTheContentSecurityPolicy() {
        let note = Note(title: "T", body: "x")
        let site = SiteBuilder.site([note], linkTargets: [:], notebookNames: [:], title: "S")
        for file in site.files where file.path.hasSuffix(".html") {
            #expect(
                site.text(file.path)?.contains(
                    "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'self'; script-src 'self';")
                    == true)
        }
    }

    @Test func urlsAreClassifiedAsABrowserReadsThem() {
        #expect(LinkTarget("https://a.example/x") == .external("https://a.example/x"))
        #expect(LinkTarget("mailto:a@b.example") == .external("mailto:a@b.example"))
        #expect(LinkTarget(" javascript:alert(1)") == .refused)
        #expect(LinkTarget("java\nscript:alert(1)") == .refused)
        #expect(LinkTarget("\u{1}javascript:x") == .refused)
        #expect(LinkTarget("vbscript:x") == .refused)
        #expect(LinkTarget("//evil.example") == .refused)
        #expect(LinkTarget("a/b:c") == .relative("a/b:c"))
        #expect(LinkTarget("map.png") == .relative("map.png"))
    }
}
