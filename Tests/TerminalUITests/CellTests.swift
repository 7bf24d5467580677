import TerminalUI
import Testing

@Suite struct CellTests {
    @Test func widthComesFromTheCharacter() {
        #expect(Cell("a").width == 1)
        #expect(Cell("漢").width == 2)
        #expect(Cell("👩‍💻").width == 2)
        #expect(Cell.continuation().width == 0)
        #expect(Cell.continuation().grapheme == "")
    }

    @Test func zeroWidthCharactersNeverReachACell() {
        for character: Character in ["\u{1B}", "\u{7}", "\r", "\u{9B}", "\u{202E}", "\u{200B}", "\u{301}"] {
            let cell = Cell(character)
            #expect(cell.grapheme == "\u{FFFD}", "\(character.unicodeScalars.map(\.value))")
            #expect(cell.width == 1)
        }
    }

    @Test func setNeverBreaksAWideCharacterPair() {
        var buffer = Buffer(lines: ["ab漢"])
        buffer.set(Cell("字"), at: Point(x: 3, y: 0))  // would not fit: a blank instead
        #expect(buffer == Buffer(lines: ["ab  "]))
        buffer.set(Cell.continuation(), at: Point(x: 0, y: 0))
        #expect(buffer == Buffer(lines: [" b  "]))
    }
}
