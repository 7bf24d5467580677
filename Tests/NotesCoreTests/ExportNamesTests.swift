import NotesTestSupport
import Testing

@testable import NotesCore

/// A note's title as a file name: kept as it is when it can be, else made safe.
@Suite struct ExportNamesTests {
    @Test(arguments: [
        ("Plan", "Plan"),
        ("東京 メモ 🚀", "東京 メモ 🚀"),
        ("a/b: c?", "a-b- c-"),
        ("  .hidden. ", "hidden"),
        ("line\u{2028}break\ttab", "line break tab"),
        ("\u{00A0}spaced\u{3000}", "spaced"),
        ("...", "Untitled"),
        ("", "Untitled"),
        ("e\u{301}tude", "e\u{301}tude"),
    ])
    func aTitleIsMadeSafeOnlyWhereItMustBe(title: String, stem: String) {
        #expect(ExportNames.safe(title) == stem)
    }

    @Test func aLongTitleIsCutOnACharacterWithinTheByteLimit() {
        let title = String(repeating: "é", count: 70)  // 140 bytes
        let stem = ExportNames.safe(title)
        #expect(stem == String(repeating: "é", count: 60) && stem.utf8.count <= ExportNames.maxStemBytes)
        let plain = String(repeating: "a", count: ExportNames.maxStemBytes)
        #expect(ExportNames.safe(plain) == plain)
    }

    /// A title kept as it is is what the character-by-character rule gives: random titles of
    /// the characters that are replaced, trimmed or cut, combining marks among them (seeded).
    @Test func keepingATitleAsItIsAgreesWithTheRule() {
        let seed = SeededRandom.seed(default: UInt64.random(in: 1...UInt64.max))
        print(
            "ExportNamesTests.keepingATitleAsItIsAgreesWithTheRule seed: \(seed) (CLOUDNOTES_SEED=\(seed) replays it)")
        var random = SeededRandom(seed: seed)
        let pieces = [
            "a", "Z", " ", ".", "/", ":", "?", "|", "\u{301}", "\u{A0}", "\u{3000}", "\t", "\u{2028}", "\u{FEFF}", "東",
            "🚀", "é",
        ]
        for _ in 0..<3_000 {
            let count = Int.random(in: 0...12, using: &random) == 0 ? 130 : Int.random(in: 0...8, using: &random)
            let title = (0..<count).map { _ in pieces.randomElement(using: &random) ?? "a" }.joined()
            #expect(ExportNames.safe(title) == ExportNames.madeSafe(title), "seed \(seed): \(title.debugDescription)")
        }
    }
}
