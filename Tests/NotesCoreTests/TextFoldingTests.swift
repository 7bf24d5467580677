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

    /// The scalars a folder copies without a look-up fold to themselves, each of them, and only
    /// they are copied so.
    @Test func theScalarsAFolderCopiesFoldToThemselves() {
        var changed: [String] = []
        for range in TextFolding.Folder.identity {
            for value in range {
                guard let scalar = Unicode.Scalar(value) else { continue }
                if TextFolding.foldScalar(scalar) != [scalar] { changed.append(String(value, radix: 16)) }
            }
        }
        #expect(changed.isEmpty, "\(changed.prefix(20))")
        let differ = (UInt32(0)...0x20000).filter { value in
            TextFolding.Folder.foldsToItself(value) != TextFolding.Folder.identity.contains { $0.contains(value) }
        }
        #expect(differ.isEmpty, "\(differ.prefix(10).map { String($0, radix: 16) })")
    }

    /// One `Folder` folding text after text (as a search checks candidates) gives each text's
    /// fold scalar by scalar: ASCII runs longer than a word with every letter and the bytes
    /// around them, random scalars of every plane (enough of them that the folder's table is
    /// made and then used), scalars that fold longer than they are, and `append` after `fold`.
    @Test func aFolderReusedAcrossTextsFoldsEachAsTheScalarsDo() {
        let seed = SeededRandom.seed(default: 20_261_201)
        var random = SeededRandom(seed: seed)
        let pieces = [
            "ABCDEFGHIJKLMNOPQRSTUVWXYZ", "abcdefghijklmnopqrstuvwxyz", "@[`{ 0123456789\u{7F}\n", "ß", "ẞ", "ﬃ",
            "İ", "한글", "ΣΑΣ", "e\u{301}", "👩🏽‍💻", "ǅ", "ΐ", "\u{1F0}", "\u{FB2C}",
        ]
        var folder = TextFolding.Folder(tableAfter: 16)
        for round in 0..<3_000 {
            var text = ""
            for _ in 0..<random.below(40) {
                if random.below(3) == 0 {
                    let planes: [ClosedRange<UInt32>] = [0x80...0x7FF, 0x800...0xFFFF, 0x10000...0x10FFFF]
                    let range = planes[random.below(planes.count)]
                    if let scalar = Unicode.Scalar(range.lowerBound + UInt32(random.below(Int(range.count)))) {
                        text.unicodeScalars.append(scalar)
                    }
                } else {
                    text += pieces[random.below(pieces.count)]
                }
            }
            let cut = text.utf8.index(text.utf8.startIndex, offsetBy: random.below(text.utf8.count + 1))
            let (head, tail) = (String(text[..<cut]), String(text[cut...]))
            let expected = TextFolding.foldedUTF8(scalars: text.unicodeScalars, capacity: 0)
            var whole = folder
            #expect(text.utf8.withContiguousStorageIfAvailable { whole.fold($0) } == true)
            #expect(whole.bytes == expected, "seed \(seed) round \(round): \(text.debugDescription)")
            // In two parts, cut between scalars (a String's index always is).
            var ok = head.utf8.withContiguousStorageIfAvailable { folder.fold($0) } == true
            ok = ok && tail.utf8.withContiguousStorageIfAvailable { folder.append($0) } == true
            #expect(ok)
            #expect(folder.bytes == expected, "seed \(seed) round \(round) in two: \(text.debugDescription)")
            #expect(folder.withFolded { Array($0) } == expected)
        }
        // Bytes that are not whole UTF-8 sequences: false, and the folded text as it was.
        #expect(Array("Ab".utf8).withUnsafeBufferPointer { folder.fold($0) })
        for bad: [UInt8] in [
            [0x80], [0xC3], [0xE6, 0x9D], [0xF8, 0x80, 0x80, 0x80], [0xED, 0xA0, 0x80], [0x41, 0xFF],
        ] {
            #expect(!bad.withUnsafeBufferPointer { folder.append($0) }, "\(bad)")
            #expect(folder.bytes == Array("ab".utf8))
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
            #expect((a + b).flatMap { scalars(TextFolding.fold(String($0))) } == whole, "seed \(seed)")
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
