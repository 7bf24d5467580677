import TerminalUI
import Testing

@Suite struct WrappedTextTests {
    /// Every visual line fits, and the lines' character ranges tile the text exactly.
    func expectWellFormed(_ wrapped: WrappedText, of text: String, sourceLocation: SourceLocation = #_sourceLocation) {
        let characters = Array(text)
        var next = 0
        for line in wrapped.lines {
            #expect(line.start == next, "\(wrapped.texts)", sourceLocation: sourceLocation)
            #expect(line.width <= wrapped.width, "\(line.text)", sourceLocation: sourceLocation)
            #expect(TextWidth.width(of: line.text) == line.width, sourceLocation: sourceLocation)
            #expect(String(characters[line.start..<line.end]).hasPrefix(line.text), sourceLocation: sourceLocation)
            next = line.end
        }
        #expect(next == characters.count, sourceLocation: sourceLocation)
    }

    @Test func wrapsAtWordBoundaries() {
        let text = "the quick brown fox jumps"
        let wrapped = WrappedText(text, width: 10)
        #expect(wrapped.texts == ["the quick ", "brown fox ", "jumps"])
        #expect(wrapped.lines.map(\.start) == [0, 10, 20])
        expectWellFormed(wrapped, of: text)
    }

    @Test func spacesPastTheEdgeHangAndDoNotStartTheNextLine() {
        let text = "hello   world"
        let wrapped = WrappedText(text, width: 5)
        #expect(wrapped.texts == ["hello", "world"])
        #expect(wrapped.lines.map(\.start) == [0, 8])
        #expect(wrapped.lines[0].count == 8)
        expectWellFormed(wrapped, of: text)
    }

    @Test func breaksLongWordsByGrapheme() {
        let text = "abcdefghij e\u{301}e\u{301}e\u{301}e\u{301}e\u{301}"
        let wrapped = WrappedText(text, width: 4)
        #expect(wrapped.texts == ["abcd", "efgh", "ij ", "e\u{301}e\u{301}e\u{301}e\u{301}", "e\u{301}"])
        expectWellFormed(wrapped, of: text)
    }

    @Test func hardLineBreaksEndLines() {
        let text = "ab\r\ncd\n\nef\n"
        let wrapped = WrappedText(text, width: 10)
        #expect(wrapped.texts == ["ab", "cd", "", "ef", ""])
        #expect(wrapped.lines.map(\.start) == [0, 3, 6, 7, 10])
        expectWellFormed(wrapped, of: text)
        #expect(WrappedText("", width: 5).texts == [""])
    }

    @Test func wideCharactersAtTenColumns() {
        let text = "日本語のテキストを折り返す"
        let wrapped = WrappedText(text, width: 10)
        #expect(wrapped.texts == ["日本語のテ", "キストを折", "り返す"])
        #expect(wrapped.lines.map(\.start) == [0, 5, 10])
        expectWellFormed(wrapped, of: text)
        // An odd width leaves a column free rather than splitting a character.
        #expect(WrappedText(text, width: 9).texts == ["日本語の", "テキスト", "を折り返", "す"])
    }

    @Test func mixedTextAtTenColumnsRendersIntoABuffer() {
        let text = "note 漢字 and 👩‍💻 emoji"
        let wrapped = WrappedText(text, width: 10)
        var buffer = Buffer(size: Size(width: 10, height: wrapped.lines.count))
        for (y, line) in wrapped.lines.enumerated() { buffer.write(line.text, at: Point(x: 0, y: y)) }
        #expect(buffer == Buffer(lines: ["note 漢字 ", "and 👩‍💻   ", "emoji     "]))
        expectWellFormed(wrapped, of: text)
    }

    @Test func wideCharactersAtSixtyColumns() {
        let text =
            "Meeting notes 会議のメモ: 田中さんと한국어 팀 review the plan 👍🏽 "
            + "then ship 🇩🇪 and 🇯🇵 builds; 長い単語長い単語長い単語長い単語長い単語長い単語長い単語長い単語 end"
        let wrapped = WrappedText(text, width: 60)
        #expect(
            wrapped.texts == [
                "Meeting notes 会議のメモ: 田中さんと한국어 팀 review the ",
                "plan 👍🏽 then ship 🇩🇪 and 🇯🇵 builds; ",
                "長い単語長い単語長い単語長い単語長い単語長い単語長い単語長い",
                "単語 end",
            ])
        #expect(wrapped.lines.map(\.width) == [57, 36, 60, 8])
        expectWellFormed(wrapped, of: text)
    }

    @Test func offsetsMapToLinesAndColumnsAndBack() {
        let wrapped = WrappedText("ab 漢字 cd", width: 5)
        #expect(wrapped.texts == ["ab ", "漢字 ", "cd"])
        #expect(wrapped.location(ofOffset: 0) == (0, 0))
        #expect(wrapped.location(ofOffset: 2) == (0, 2))
        #expect(wrapped.location(ofOffset: 3) == (1, 0))  // at a soft break: start of the next line
        #expect(wrapped.location(ofOffset: 4) == (1, 2))  // after 漢
        #expect(wrapped.location(ofOffset: 6) == (2, 0))
        #expect(wrapped.location(ofOffset: 8) == (2, 2))  // end of text
        #expect(wrapped.offset(line: 1, column: 0) == 3)
        #expect(wrapped.offset(line: 1, column: 1) == 3)  // inside 漢: the character covering it
        #expect(wrapped.offset(line: 1, column: 2) == 4)
        #expect(wrapped.offset(line: 2, column: 9) == 8)  // past the end of the line
        #expect(wrapped.offset(line: 7, column: 0) == 6)  // clamped to the last line
    }

    @Test func offsetsAroundHardLineBreaksAndHangingSpaces() {
        let wrapped = WrappedText("abc\n漢   d", width: 4)
        #expect(wrapped.texts == ["abc", "漢  ", "d"])
        #expect(wrapped.location(ofOffset: 3) == (0, 3))  // on the line break: after the text
        #expect(wrapped.location(ofOffset: 4) == (1, 0))
        #expect(wrapped.location(ofOffset: 7) == (1, 4))  // the hanging space, kept at the edge
        #expect(wrapped.location(ofOffset: 8) == (2, 0))
        #expect(wrapped.offset(line: 0, column: 9) == 3)
        #expect(wrapped.offset(line: 1, column: 4) == 7)
    }
}
