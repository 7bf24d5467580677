import TerminalUI
import Testing

@testable import TerminalNcurses

/// What the painter sends for a cell: never more columns than the cell has, in any terminal.
@Suite struct CellGlyphsTests {
    /// glibc's widths for the scalars below, fixed so the tests do not depend on the locale.
    private static func width(_ scalar: Unicode.Scalar) -> Int {
        switch scalar.value {
        case 0x200D, 0x0301, 0xFE0F, 0x1160...0x11FF: 0
        case 0x1F468, 0x1F469, 0x1F467, 0x1F44D, 0x1F3FD, 0x6771, 0x1100...0x115F: 2
        default: 1
        }
    }

    private func pieces(_ grapheme: String, width: Int) -> [[Unicode.Scalar]] {
        CellGlyphs.pieces(for: grapheme, width: width, maxScalars: 5, terminalWidth: Self.width).map(\.scalars)
    }

    /// The painter sends an ASCII cell's byte without asking for its pieces: what they would be.
    @Test func aPrintableASCIICellIsOnePieceOfItsOwnByte() {
        for byte in UInt8(0x20)..<0x7F {
            let cell = Cell(Character(Unicode.Scalar(byte)))
            #expect(cell.grapheme.utf8.count == 1 && cell.width == 1)
            #expect(
                CellGlyphs.pieces(for: cell.grapheme, width: cell.width, maxScalars: 5)
                    == [CellGlyphs.Piece(column: 0, scalars: [Unicode.Scalar(byte)])])
        }
    }

    @Test func aZWJFamilyIsDrawnAsItsFirstEmojiInTwoColumns() {
        let family = "\u{1F468}\u{200D}\u{1F469}\u{200D}\u{1F467}"
        let drawn = CellGlyphs.pieces(for: family, width: 2, maxScalars: 5, terminalWidth: Self.width)
        #expect(drawn == [CellGlyphs.Piece(column: 0, scalars: ["\u{1F468}"])])
    }

    @Test func aSkinToneModifierIsDroppedNotDrawnBeside() {
        #expect(pieces("\u{1F44D}\u{1F3FD}", width: 2) == [["\u{1F44D}"]])
    }

    @Test func combiningMarksStayWithTheirLetter() {
        #expect(pieces("e\u{301}", width: 1) == [["e", "\u{301}"]])
        #expect(pieces("東", width: 2) == [["東"]])
    }

    @Test func aFlagPutsOneRegionalIndicatorInEachColumn() {
        let drawn = CellGlyphs.pieces(for: "🇫🇷", width: 2, maxScalars: 5, terminalWidth: Self.width)
        #expect(drawn.map(\.column) == [0, 1])
        #expect(drawn.map(\.scalars) == [["\u{1F1EB}"], ["\u{1F1F7}"]])
    }

    @Test func aNarrowBaseWithAnEmojiSelectorIsDrawnAsTextAndASpace() {
        let drawn = CellGlyphs.pieces(for: "\u{2764}\u{FE0F}", width: 2, maxScalars: 5, terminalWidth: Self.width)
        #expect(drawn == [.init(column: 0, scalars: ["\u{2764}"]), .init(column: 1, scalars: [" "])])
    }

    @Test func decomposedHangulKeepsItsVowelAndFinal() {
        #expect(pieces("\u{1112}\u{1161}\u{11AB}", width: 2) == [["\u{1112}", "\u{1161}", "\u{11AB}"]])
    }

    @Test func atMostCCHARWMAXScalarsInACell() {
        let piled = "a" + String(repeating: "\u{301}", count: 9)
        #expect(pieces(piled, width: 1).first?.count == 5)
    }
}
