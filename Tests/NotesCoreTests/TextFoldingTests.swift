import Foundation
import NotesTestSupport
import Testing

@testable import NotesCore

@Suite struct TextFoldingTests {
    /// Compares scalar by scalar: `String ==` would hide a decomposed/composed difference.
    func scalars(_ s: String) -> [UInt32] { s.unicodeScalars.map(\.value) }

    /// The fold read from a string's bytes is the fold of its scalars: random strings of ASCII,
    /// accents (composed and combining), Greek, ß, ligatures, Hangul, CJK, emoji with ZWJ and
    /// skin tones, controls and a lone surrogate's replacement, whole and as slices (seeded).
    @Test func foldingTheBytesIsFoldingTheScalars() {
        let seed = SeededRandom.seed(default: 20_261_130)
        var random = SeededRandom(seed: seed)
        let pieces = [
            "A", "z", " ", "\n", "\r\n", "\t", "É", "e\u{301}", "ß", "ẞ", "ΣΑΣ", "ς", "ﬃ", "İ", "한글", "東京",
            "👩🏽‍💻", "🇫🇷", "\u{FE0F}", "\u{0}", "\u{FFFD}", "\u{10FFFF}", "ǅ", "Ⅻ", "देखें", "ﬆ",
        ]
        for round in 0..<2_000 {
            var text = ""
            for _ in 0..<random.below(30) { text += pieces[random.below(pieces.count)] }
            let expected = TextFolding.foldedUTF8(scalars: text.unicodeScalars, capacity: 0)
            #expect(TextFolding.foldedUTF8(text) == expected, "seed \(seed) round \(round): \(text.debugDescription)")
            let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
            for line in lines {
                #expect(
                    TextFolding.foldedUTF8(line) == TextFolding.foldedUTF8(scalars: line.unicodeScalars, capacity: 0),
                    "seed \(seed) round \(round): \(line.debugDescription)")
            }
        }
    }

    @Test(arguments: [
        ("Café", "cafe"), ("CAFÉ", "cafe"), ("cafe\u{301}", "cafe"), ("Zürich", "zurich"),
        ("Ångström", "angstrom"), ("ÅNGSTRÖM", "angstrom"), ("Straße", "strasse"), ("STRASSE", "strasse"),
        ("ΟΔΟΣ", "οδοσ"), ("οδός", "οδοσ"), ("Dvořák", "dvorak"), ("crème brûlée", "creme brulee"),
        ("naïve", "naive"), ("İstanbul", "istanbul"), ("ÇA", "ca"), ("Hello World", "hello world"),
        ("ﬁnance", "finance"), ("Eﬀort ﬂow ﬃ ﬄ", "effort flow ffi ffl"), ("ﬅ ﬆ ſ", "st st s"),
    ])
    func caseAndDiacriticsFold(_ input: String, _ expected: String) {
        #expect(scalars(TextFolding.fold(input)) == scalars(expected))
    }

    @Test func cjkAndEmojiAreUnchangedExceptTheEmojiVariationSelector() {
        for text in ["日本語", "会議", "東京", "中文", "笔记", "メモ", "🎉", "✅", "👍🏽", "🇯🇵", "👨‍👩‍👧"] {
            #expect(scalars(TextFolding.fold(text)) == scalars(text), "\(text)")
        }
        #expect(scalars(TextFolding.fold("❤️")) == [0x2764])
        #expect(scalars(TextFolding.fold("⚠️ ok")) == scalars("⚠ ok"))
    }

    @Test func hangulIsDecomposedTheSameWayWhetherTypedComposedOrNot() {
        let composed = "한국어"
        let decomposed = composed.decomposedStringWithCanonicalMapping
        #expect(scalars(TextFolding.fold(composed)) == scalars(decomposed))
        #expect(scalars(TextFolding.fold(decomposed)) == scalars(decomposed))
        // A syllable still being typed (하 before 한) is a prefix of the finished one.
        #expect(TextFolding.fold("한국").unicodeScalars.starts(with: TextFolding.fold("하").unicodeScalars))
    }

    static let alphabet: [Unicode.Scalar] = Array(
        "aZé\u{301}\u{308}ÅßẞΣσςİıǅﬁ日本한국\u{1100}\u{1161}🎉👍🏽\u{FE0F}\u{200D}❤🇯🇵 \n-\"".unicodeScalars)

    @Test func foldIsContextFreeSoConcatenationCommutesWithIt() {
        let seed = SeededRandom.seed(default: 4036)
        var rng = SeededRandom(seed: seed)
        for _ in 0..<500 {
            let a = rng.string(from: Self.alphabet, count: Int.random(in: 0...12, using: &rng))
            let b = rng.string(from: Self.alphabet, count: Int.random(in: 0...12, using: &rng))
            let whole = scalars(TextFolding.fold(a + b))
            #expect(
                whole == scalars(TextFolding.fold(a)) + scalars(TextFolding.fold(b)),
                "seed \(seed): \(a.debugDescription) + \(b.debugDescription)")
            #expect(
                scalars(TextFolding.fold(TextFolding.fold(a + b))) == whole,
                "seed \(seed): fold is not idempotent for \((a + b).debugDescription)")
            #expect(TextFolding.foldedCharacters(a + b).flatMap { $0.map(\.value) } == whole, "seed \(seed)")
        }
    }

    @Test func asciiFastPathAgreesWithTheGeneralPath() {
        let ascii = (0x00..<0x80).map { Character(Unicode.Scalar($0)!) }
        let text = String(ascii)
        // Forcing the general path: one non-ASCII scalar at the end.
        let general = TextFolding.fold(text + "é")
        #expect(scalars(TextFolding.fold(text)) + [0x65] == scalars(general))
        #expect(TextFolding.fold("ABCxyz[@`{") == "abcxyz[@`{")
    }
}
