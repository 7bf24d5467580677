import Foundation
import NotesCore
import NotesTestSupport
import Testing

@testable import NotesStore

@Suite struct NoteSummarySnippetTests {
    /// The list row's snippet is the first non-empty line of the preview, trimmed as Foundation
    /// trims `.whitespaces`, that is not the title: the same as splitting the whole preview into
    /// lines and trimming each (what it was before it stopped at the first line that qualifies),
    /// on random previews of line ends of every kind, separators, marks and the title's own line.
    @Test func isTheFirstTrimmedLineThatIsNotTheTitle() {
        let seed = SeededRandom.seed(default: 27)
        var rng = SeededRandom(seed: seed)
        for _ in 0..<3000 {
            let summary = Self.summary(
                preview: Self.preview(&rng), title: ["Title", "a", ""].randomElement(using: &rng))
            let expected = summary.preview.split(whereSeparator: \.isNewline)
                .map { $0.trimmingCharacters(in: .whitespaces) }
                .first { !$0.isEmpty && $0 != summary.title }
            #expect(
                summary.snippet.utf8.elementsEqual((expected ?? "").utf8),
                "seed \(seed): \(summary.preview.unicodeScalars.map { String($0.value, radix: 16) }), \(summary.title)")
        }
    }

    static let pieces = [
        " ", "\t", "\u{A0}", "\u{3000}", "\u{301}", "\n", "\r", "\r\n", "\u{2028}", "\u{85}", "\u{B}", "a", "é", "東",
        "🚀", "Title", " Title ",
    ]

    static func preview(_ rng: inout SeededRandom) -> String {
        var text = ""
        for _ in 0..<Int.random(in: 0...8, using: &rng) { text += pieces.randomElement(using: &rng) ?? "" }
        return text
    }

    static func summary(preview: String, title: String?) -> NoteSummary {
        NoteSummary(
            id: UUID(), zone: Note.defaultZone, title: title ?? "", preview: preview, tags: [], isFavorite: false,
            createdAt: Date(timeIntervalSince1970: 0), modifiedAt: Date(timeIntervalSince1970: 0), deletedAt: nil,
            syncState: .synced, bodyLength: preview.utf8.count)
    }
}
