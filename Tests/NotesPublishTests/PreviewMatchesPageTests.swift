import Foundation
import NotesCore
import Testing

@testable import NotesApp
@testable import NotesPublish

/// The app's preview (its own Markdown reader, D-165) shows what a published page shows (Ink,
/// D-158): for each construct both read, the same words in the same order, the same headings and
/// the same task boxes, ticked the same. What they are known to read differently is listed in
/// D-165 and left out of the samples.
@Suite("The terminal preview shows what the published page shows")
struct PreviewMatchesPageTests {
    static let samples = [
        "# Trip\n\nA **bold**, an *italic* and a __strong__ _word_.\n",
        "## Packing list\n\n- socks\n- hat\n  - a warm one\n- boots\n",
        "1. first\n2. second\n3. third\n",
        "- [ ] buy milk\n- [x] pack the bag\n- [ ] call Ana\n",
        "Before.\n\n```\nlet x = 1 < 2\n```\n\nAfter.\n",
        "| Day | Where |\n|---|:-:|\n| 1 | the coast |\n| 2 | the hills |\n",
        "> a quoted *line*\n",
        "Inline `code & more` here.\n",
        "### Three\n\nText with ~~struck~~ words.\n\n---\n\nLast.\n",
        "Escaped \\*stars\\* and <tags> & ampersands.\n",
    ]

    /// The words of a page's HTML: tags dropped, character references read back.
    static func pageWords(_ html: String) -> [String] {
        // A block's tags part words; inline ones (emphasis, code, links) do not.
        var text = html.replacingOccurrences(
            of: "</?(p|h[1-6]|li|ul|ol|blockquote|pre|table|thead|tbody|tr|td|th|hr|br)( [^>]*)?>", with: " ",
            options: .regularExpression)
        text = text.replacingOccurrences(of: "<[^>]+>", with: "", options: .regularExpression)
        for (reference, character) in [("&lt;", "<"), ("&gt;", ">"), ("&quot;", "\""), ("&#39;", "'"), ("&amp;", "&")] {
            text = text.replacingOccurrences(of: reference, with: character)
        }
        return text.split(whereSeparator: \.isWhitespace).map(String.init)
    }

    /// The words the preview shows of `body`: each line's text after its prefix (bullets, boxes,
    /// numbers, quote bars), without the cells' rules of a table.
    static func previewLines(_ body: String) -> [PreviewLine] {
        var reader = MarkdownPreview(body, theme: .standard, ascii: false, maxCharacters: 1 << 20)
        var lines: [PreviewLine] = []
        while let line = reader.next() { lines.append(line) }
        return lines
    }

    static func previewWords(_ lines: [PreviewLine]) -> [String] {
        lines.flatMap { $0.contentText.split(whereSeparator: \.isWhitespace).map(String.init) }
            .filter { word in !word.unicodeScalars.allSatisfy { "│─┼┬┴├┤|-:".unicodeScalars.contains($0) } }
    }

    static func html(_ body: String) -> String {
        NoteRenderer(pages: [:]).html(
            of: Note(title: "t", body: body),
            linkTargets: Array(repeating: nil, count: LinkParser.links(in: body).count), attachments: [:])
    }

    @Test("the same words in the same order", arguments: samples)
    func sameWords(_ body: String) {
        #expect(Self.previewWords(Self.previewLines(body)) == Self.pageWords(Self.html(body)), "\(Self.html(body))")
    }

    @Test("the same headings and the same task boxes, ticked the same", arguments: samples)
    func sameStructure(_ body: String) {
        let html = Self.html(body)
        let lines = Self.previewLines(body)
        let pageHeadings = html.ranges(of: /<h[1-6]>/).count
        let shownHeadings = lines.filter { line in line.content.contains { $0.style.isBold } && line.source > 0 }
            .filter { body.split(separator: "\n", omittingEmptySubsequences: false)[$0.source - 1].hasPrefix("#") }
        #expect(shownHeadings.count == pageHeadings)
        let pageBoxes = html.components(separatedBy: "type=\"checkbox\"").dropFirst().map { $0.hasPrefix(" checked") }
        let shownBoxes = lines.compactMap { line in
            line.box.map { line.prefix[$0].text.contains("☑") || line.prefix[$0].text.contains("[x]") }
        }
        #expect(shownBoxes == pageBoxes, "\(html)")
    }
}
