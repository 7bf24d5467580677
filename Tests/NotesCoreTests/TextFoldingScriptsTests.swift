import Foundation
import Testing

@testable import NotesCore

/// The fold keeps what is not a diacritic: Indic and Thai vowel signs are letters of the word,
/// not accents (ARCHITECTURE §5).
@Suite struct TextFoldingScriptsTests {
    func scalars(_ s: String) -> [UInt32] { s.unicodeScalars.map(\.value) }

    @Test(arguments: [
        "देखें", "हिन्दी", "किताब", "বাংলা", "ভালো", "কি", "เรียน", "ดี", "ที่", "สวัสดี",
    ])
    func vowelSignsOfIndicAndThaiScriptsSurviveTheFold(_ word: String) {
        let vowelSigns: Set<UInt32> = [
            0x0947, 0x093F, 0x0940, 0x0902,  // Devanagari e, i, ii, anusvara
            0x09BE, 0x09CB, 0x09BF,  // Bengali aa, o, i
            0x0E35, 0x0E34, 0x0E31, 0x0E38,  // Thai ii, i, mai han-akat, u
        ]
        // The virama (U+094D) and Thai tone marks (U+0E48-U+0E4B) are diacritics: they go.
        let diacritics: Set<UInt32> = [0x094D, 0x0E48, 0x0E49, 0x0E4A, 0x0E4B]
        let expected = scalars(word.decomposedStringWithCanonicalMapping).filter { !diacritics.contains($0) }
        let kept = scalars(TextFolding.fold(word))
        #expect(kept.contains(where: vowelSigns.contains), "\(word): \(kept)")
        #expect(kept == expected, "\(word): \(kept) != \(expected)")
    }

    @Test func searchTermsWithVowelSignsAreNotFoundInTheBareConsonants() {
        #expect(TextFolding.fold("देखें") != TextFolding.fold("दख"))
        #expect(!TextFolding.fold("दख").contains(TextFolding.fold("देखें")))
        #expect(!TextFolding.fold("เร").contains(TextFolding.fold("เรี")))
        #expect(TextFolding.fold("เรียน").contains(TextFolding.fold("เรี")))
        #expect(!TextFolding.fold("বল").contains(TextFolding.fold("বাল")))
    }

    @Test func accentsDakutenAndVariationSelectorsStillFoldAway() {
        #expect(TextFolding.fold("Café") == "cafe")
        #expect(TextFolding.fold("Zürich") == "zurich")
        // Japanese: the dakuten and handakuten are diacritics, as before.
        #expect(scalars(TextFolding.fold("ガパ")) == scalars("カハ"))
        #expect(scalars(TextFolding.fold("❤️")) == [0x2764])
        // The Devanagari nukta is a diacritic: क़ (U+0958) folds to क.
        #expect(scalars(TextFolding.fold("\u{0958}")) == [0x0915])
        // Korean stays in jamo: a syllable being typed matches.
        #expect(TextFolding.fold("한국").unicodeScalars.starts(with: TextFolding.fold("하").unicodeScalars))
    }

    @Test func onlyNonspacingDiacriticsAndVariationSelectorsAreDropped() {
        // Over every scalar of the BMP: whatever the fold drops is a diacritic nonspacing mark or
        // a variation selector, and every such mark is dropped.
        for value in 0x80...0xFFFF {
            guard let scalar = Unicode.Scalar(value) else { continue }
            let p = scalar.properties
            let isDiacriticMark = p.generalCategory == .nonspacingMark && p.isDiacritic
            if isDiacriticMark || p.isVariationSelector {
                #expect(TextFolding.isDropped(scalar), "U+\(String(value, radix: 16))")
            } else {
                #expect(!TextFolding.isDropped(scalar), "U+\(String(value, radix: 16))")
            }
        }
    }

    @Test func highlighterMapsMatchesWithVowelSignsBackToWholeCharacters() {
        // "देखें दख": characters दे, खें, space, द, ख.
        let text = "देखें दख"
        #expect(Array(text).count == 5)
        #expect(SearchHighlighter.ranges(of: [TextFolding.fold("देखें")], in: text) == [0..<2])
        #expect(SearchHighlighter.ranges(of: [TextFolding.fold("दख")], in: text) == [3..<5])
        // A bare consonant is part of the character it starts.
        #expect(SearchHighlighter.ranges(of: [TextFolding.fold("ख")], in: text) == [1..<2, 4..<5])
        // "เรียน เร": characters เ, รี, ย, น, space, เ, ร.
        let thai = "เรียน เร"
        #expect(SearchHighlighter.ranges(of: [TextFolding.fold("เรี")], in: thai) == [0..<2])
        let snippet = SearchHighlighter.snippet(of: "intro\nเร\nเรียน", terms: [TextFolding.fold("เรี")])
        #expect(snippet?.text == "เรียน")
        #expect(snippet?.matches == [0..<2])
    }
}
