import NotesTestSupport
import TerminalUI
import Testing

@Suite struct TextWidthClippingTests {
    /// Text whose scalars are each a Character (accents precomposed, CJK, kana, Hangul
    /// syllables, fullwidth forms, emoji without modifiers, controls but CR, the soft hyphen):
    /// measured and cut by its scalars as by its Characters, at every width, with and without
    /// the ellipsis (seeded).
    @Test func textOfSingleScalarCharactersIsClippedAsByItsCharacters() {
        let seed = SeededRandom.seed(default: 8123)
        var random = SeededRandom(seed: seed)
        let alphabet = Array("abcXYZ 09.#\t\u{1}\u{7F}\u{AD}éüßæΩж–“…€→✅★東京会議メモひら한국ＡＢｶ🎉🔥👍🚀😀".unicodeScalars)
        for _ in 0..<2_000 {
            let text = random.string(from: alphabet, count: random.below(30))
            let columns = random.below(40)
            let ellipsis = random.below(2) == 0
            let byScalars = TextWidth.clipMeasured(singleScalarCharacters: text, to: columns, ellipsis: ellipsis)
            let byCharacters = TextWidth.clipMeasured(text, to: columns, ellipsis: ellipsis)
            #expect(
                byScalars.text == byCharacters.text && byScalars.width == byCharacters.width,
                "seed \(seed): \(text.debugDescription) \(columns) \(ellipsis)")
        }
    }

    @Test func clipKeepsTextThatFits() {
        #expect(TextWidth.clip("hello", to: 5) == "hello")
        #expect(TextWidth.clip("hello", to: 9, ellipsis: true) == "hello")
        #expect(TextWidth.clip("hello", to: 0) == "")
    }

    @Test func clipCutsByDisplayWidth() {
        #expect(TextWidth.clip("hello world", to: 5) == "hello")
        #expect(TextWidth.clip("漢字かな", to: 4) == "漢字")
        #expect(TextWidth.clip("hello world", to: 6, ellipsis: true) == "hello…")
    }

    @Test func clipNeverSplitsAWideCharacter() {
        #expect(TextWidth.clip("漢字かな", to: 5) == "漢字")
        #expect(TextWidth.clip("a漢", to: 2) == "a")
        #expect(TextWidth.clip("漢字かな", to: 5, ellipsis: true) == "漢字…")
        #expect(TextWidth.clip("漢字かな", to: 4, ellipsis: true) == "漢…")
        #expect(TextWidth.clip("👩‍💻👩‍💻", to: 3) == "👩‍💻")
        #expect(TextWidth.clip("🇩🇪🇫🇷", to: 3) == "🇩🇪")
        for columns in 0...12 {
            let clipped = TextWidth.clip("a漢b字😀e\u{301}🇩🇪", to: columns)
            #expect(TextWidth.width(of: clipped) <= columns)
            #expect(TextWidth.width(of: clipped) >= columns - 1)
        }
    }

    @Test func clipNeverSplitsAGraphemeCluster() {
        #expect(TextWidth.clip("ae\u{301}\u{302}b", to: 2) == "ae\u{301}\u{302}")
        #expect(TextWidth.clip("👍🏽x", to: 2).unicodeScalars.count == 2)
    }

    @Test func padFillsToExactWidth() {
        #expect(TextWidth.pad("ab", to: 5) == "ab   ")
        #expect(TextWidth.pad("ab", to: 5, alignment: .right) == "   ab")
        #expect(TextWidth.pad("ab", to: 5, alignment: .center) == " ab  ")
        #expect(TextWidth.pad("漢字かな", to: 5) == "漢字 ")
        #expect(TextWidth.pad("hello world", to: 6, ellipsis: true) == "hello…")
        #expect(TextWidth.width(of: TextWidth.pad("日本語😀", to: 7)) == 7)
    }

    /// The width `clipMeasured` counts while it cuts is the width of what it gives, over random
    /// texts of wide, combining, emoji and control characters cut at every width (seeded).
    @Test func theMeasuredClipIsAsWideAsItsText() {
        let seed = SeededRandom.seed(default: 20_261_201)
        var random = SeededRandom(seed: seed)
        let pieces = ["a", " ", "é", "e\u{301}", "東", "👩‍💻", "👍🏽", "\u{AD}", "\u{200B}", "\t", "ｱ", "🇯🇵", "…", "\r\n"]
        for _ in 0..<1_500 {
            let text = (0..<random.below(30)).map { _ in pieces[random.below(pieces.count)] }.joined()
            let columns = random.below(40)
            let ellipsis = random.below(2) == 0
            let measured = TextWidth.clipMeasured(text, to: columns, ellipsis: ellipsis)
            #expect(measured.text == TextWidth.clip(text, to: columns, ellipsis: ellipsis), "seed \(seed)")
            #expect(
                measured.width == TextWidth.width(of: measured.text),
                "seed \(seed): \(text.debugDescription) to \(columns)")
        }
    }
}
