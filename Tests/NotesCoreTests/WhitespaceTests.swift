import Foundation
import NotesTestSupport
import Testing

@testable import NotesCore

@Suite struct WhitespaceTests {
    /// `Whitespace.trimmed` is Foundation's `trimmingCharacters(in: .whitespaces)`, on random
    /// strings of spaces, tabs, other separators, marks, line ends and letters.
    @Test func trimsAsFoundationDoes() {
        let seed = SeededRandom.seed(default: 20)
        var rng = SeededRandom(seed: seed)
        let pieces = [
            " ", "\t", "\u{A0}", "\u{3000}", "\u{2009}", "\u{301}", "\n", "\r", "\r\n", "a", "-", "---", "é", "東",
            "🚀", "\u{FEFF}", "\u{200B}",
        ]
        var texts = ["", " ", "\t \t", "---", " --- ", "\u{A0}---", "--- \u{301}", " \u{301}x", "x\u{3000}"]
        for _ in 0..<5000 {
            texts.append(
                (0..<Int.random(in: 0...6, using: &rng)).map { _ in pieces.randomElement(using: &rng) ?? "" }.joined())
        }
        for text in texts {
            #expect(
                Whitespace.trimmed(text).utf8.elementsEqual(text.trimmingCharacters(in: .whitespaces).utf8),
                "seed \(seed): \(text.unicodeScalars.map { String($0.value, radix: 16) })")
        }
    }
}
