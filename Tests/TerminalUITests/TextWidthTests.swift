import NotesTestSupport
import Testing

@testable import TerminalUI

@Suite struct TextWidthTests {
    /// A text's width counted over its bytes when it is ASCII is what the grapheme walk counts,
    /// and other text is walked, over random texts (seeded, replayable).
    @Test func theASCIIWidthIsWhatTheGraphemeWalkCounts() {
        let seed = SeededRandom.seed(default: 20_261_129)
        var random = SeededRandom(seed: seed)
        let others = ["é", "e\u{301}", "東京", "👩‍💻", "\u{AD}", "\u{200B}", "\u{85}", "ｱ"]
        for _ in 0..<2_000 {
            var text = ""
            for _ in 0..<random.below(40) { text.append(Character(Unicode.Scalar(UInt8(random.below(0x80))))) }
            if random.below(3) == 0 { text += others[random.below(others.count)] }
            #expect(
                TextWidth.width(of: text) == TextWidth.widthByCharacter(of: text),
                "seed \(seed): \(text.debugDescription)")
            #expect(TextWidth.width(of: text[...]) == TextWidth.widthByCharacter(of: text), "seed \(seed)")
        }
    }
    @Test func asciiIsOneColumnEach() {
        #expect(TextWidth.width(of: "a") == 1)
        #expect(TextWidth.width(of: "Hello, world!") == 13)
        #expect(TextWidth.width(of: " ") == 1)
        #expect(TextWidth.width(of: "~") == 1)
    }

    @Test func accentedLettersAreOneColumnPrecomposedOrCombining() {
        #expect(TextWidth.width(of: "\u{E9}") == 1)  // é precomposed
        #expect(TextWidth.width(of: "e\u{301}") == 1)  // e + combining acute
        #expect(TextWidth.width(of: "Cafe\u{301} re\u{301}sume\u{301}") == 11)
        #expect(TextWidth.width(of: "a\u{301}\u{302}\u{303}\u{304}") == 1)
    }

    @Test func cjkAndFullwidthAreTwoColumns() {
        #expect(TextWidth.width(of: "漢") == 2)
        #expect(TextWidth.width(of: "日本語") == 6)
        #expect(TextWidth.width(of: "ひらがなカタカナ") == 16)
        #expect(TextWidth.width(of: "Ａ") == 2)  // U+FF21 fullwidth A
        #expect(TextWidth.width(of: "\u{3000}") == 2)  // ideographic space
        #expect(TextWidth.width(of: "\u{20000}") == 2)  // CJK extension B
        #expect(TextWidth.width(of: "ｱ") == 1)  // halfwidth katakana stays narrow
    }

    @Test func hangulSyllablesAndConjoiningJamoAreTwoColumns() {
        #expect(TextWidth.width(of: "한국어") == 6)
        // ᄒ + ᅡ + ᆫ: one grapheme built from conjoining jamo.
        let jamo: Character = "\u{1112}\u{1161}\u{11AB}"
        #expect(TextWidth.width(of: jamo) == 2)
        #expect(TextWidth.width(of: "\u{1161}" as Unicode.Scalar) == 0)
    }

    @Test func emojiSequencesAreTwoColumns() {
        #expect(TextWidth.width(of: "😀") == 2)
        #expect(TextWidth.width(of: "👍🏽") == 2)  // skin tone
        #expect(TextWidth.width(of: "☝🏽") == 2)  // text-default base with a skin tone
        #expect(TextWidth.width(of: "👩‍💻") == 2)  // ZWJ
        #expect(TextWidth.width(of: "👨‍👩‍👧‍👦") == 2)  // family: 7 scalars, one cluster
        #expect(TextWidth.width(of: "🏳️‍🌈") == 2)  // VS16 + ZWJ
        #expect(TextWidth.width(of: "🇩🇪") == 2)  // flag
        #expect(TextWidth.width(of: "🇩🇪🇫🇷") == 4)
        #expect(TextWidth.width(of: "1️⃣") == 2)  // keycap
        #expect(TextWidth.width(of: "1\u{20E3}") == 2)  // keycap without VS16
        #expect(TextWidth.width(of: "\u{26F9}\u{200D}\u{2642}") == 2)  // ZWJ, text-default parts, no VS16
        #expect(TextWidth.width(of: "❤️") == 2)  // VS16
        #expect(TextWidth.width(of: "🏴\u{E0067}\u{E0062}\u{E0073}\u{E0063}\u{E0074}\u{E007F}") == 2)
        #expect(TextWidth.width(of: "a😀b") == 4)
    }

    @Test func textPresentationEmojiAreOneColumn() {
        #expect(TextWidth.width(of: "❤") == 1)  // no VS16: text presentation
        #expect(TextWidth.width(of: "☺\u{FE0E}") == 1)  // VS15
        #expect(TextWidth.width(of: "©") == 1)
        #expect(TextWidth.width(of: "1") == 1)  // digits are Emoji scalars too
    }

    @Test func controlAndZeroWidthCharactersAreZeroColumns() {
        for text in ["\u{1B}", "\u{7}", "\u{0}", "\r", "\n", "\r\n", "\t", "\u{7F}", "\u{9B}", "\u{85}"] {
            #expect(TextWidth.width(of: text) == 0, "\(Array(text.unicodeScalars))")
        }
        for text in ["\u{200B}", "\u{200D}", "\u{202E}", "\u{2066}", "\u{FEFF}", "\u{2028}"] {
            #expect(TextWidth.width(of: text) == 0, "\(Array(text.unicodeScalars))")
        }
        #expect(TextWidth.width(of: "\u{301}") == 0)  // a lone combining mark
        #expect(TextWidth.width(of: "a\u{1B}[2Jb") == 5)  // ESC is 0, "[2J" is 3
    }
}
