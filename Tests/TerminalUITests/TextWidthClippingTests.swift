import TerminalUI
import Testing

@Suite struct TextWidthClippingTests {
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
}
